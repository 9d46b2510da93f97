"""Builders for leaderboard tests: result directories made from the SELU fixture CSV."""

from __future__ import annotations

import csv
import json
import re
from pathlib import Path

DATA = Path(__file__).parents[1] / "stats" / "data"
SELU_CSV = DATA / "selu_table_vi.csv"
TYPE_NAMES = {"multi-class": "multiclass", "multi-label": "multilabel"}


def slug(name: str) -> str:
    """A model name as a directory name (as the runner would write it)."""
    return re.sub(r"[^a-z0-9.+-]+", "-", name.lower()).strip("-")


def write_result_dir(root: Path, csv_path: Path = SELU_CSV, method: str = "fine-tune") -> Path:
    """Write ``root/<model>/<method>/<task>.json`` result files with the CSV's scores.

    Each file follows the result schema that ``seebench compare`` reads: regression tasks
    report ``1 - smape`` as their primary metric, the others ``f1_macro``.
    """
    with csv_path.open(newline="") as handle:
        for row in csv.DictReader(handle):
            task_type = TYPE_NAMES.get(row["task_type"], row["task_type"])
            metric = "one_minus_smape" if task_type == "regression" else "f1_macro"
            missing = row["score"].strip() == "-"
            result = {
                "schema_version": 1,
                "status": "not_applicable" if missing else "ok",
                "model": {"id": row["model"], "spec": slug(row["model"])},
                "method": method,
                "task": {
                    "name": row["task"],
                    "suite": "selu",
                    "type": task_type,
                    "version": 1,
                    "tags": {"family": "from-tags", "activity": "testing"},
                },
                "primary_metric": metric,
                "metrics": {} if missing else {metric: float(row["score"]), "accuracy": 0.5},
            }
            unit = root / slug(row["model"]) / method
            unit.mkdir(parents=True, exist_ok=True)
            (unit / f"{row['task']}.json").write_text(json.dumps(result))
            (unit / f"{row['task']}.samples.jsonl").write_text('{"id": 1}\n')
    return root
