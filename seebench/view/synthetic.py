"""Synthetic results folders for the viewer's tests, benchmark and screenshots.

:func:`write_unit` writes one unit exactly as ``seebench eval`` lays it out (result JSON that
validates against the schema, samples JSONL with the recorded sha256, artifacts folder), from
records the caller gives; :func:`classification_records` makes many plain records quickly.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from seebench import __version__
from seebench.results.io import RESULT_SCHEMA_VERSION, artifacts_dir, result_paths, write_result


def write_unit(
    root: Path,
    model: str,
    method: str,
    task: str,
    records: Iterable[dict[str, Any]],
    *,
    suite: str = "demo",
    task_type: str = "multiclass",
    metrics: dict[str, float] | None = None,
    primary: str = "accuracy",
    artifacts: dict[str, bytes | str] | None = None,
    info: dict[str, Any] | None = None,
) -> Path:
    """Write one ``ok`` unit under ``root``; returns the result path. ``artifacts`` maps paths
    inside the unit's artifacts folder to their content."""
    result_path, samples_path = result_paths(root, model, method, task)
    result_path.parent.mkdir(parents=True, exist_ok=True)
    digest = hashlib.sha256()
    n = 0
    scores = []
    with samples_path.open("wb") as handle:
        for record in records:
            line = (json.dumps(record, ensure_ascii=False) + "\n").encode("utf-8")
            handle.write(line)
            digest.update(line)
            n += 1
            if isinstance(record.get("score"), int | float):
                scores.append(float(record["score"]))
    for name, content in (artifacts or {}).items():
        target = artifacts_dir(result_path) / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(content.encode() if isinstance(content, str) else content)
    mean = sum(scores) / len(scores) if scores else 0.0
    metrics = metrics or {primary: mean}
    result = {
        "schema_version": RESULT_SCHEMA_VERSION,
        "status": "ok",
        "reason": None,
        "seebench_version": __version__,
        "created_at": "2026-01-01T00:00:00+00:00",
        "model": {"spec": model, "id": model, "kind": "baseline", "identity": {}},
        "method": method,
        "task": {
            "name": task,
            "suite": suite,
            "version": "1",
            "type": task_type,
            "tags": {"family": "demo family"},
            "config_hash": "0" * 16,
        },
        "run": {
            "seed": 42,
            "config": {"plugins": {"seebench.builtin.demo": f"seebench=={__version__}"}},
            "config_hash": hashlib.sha256(f"{model}{method}{task}".encode()).hexdigest()[:16],
        },
        "data": {"checksums": {}, "counts": {"test": n}},
        "metrics": metrics,
        "primary_metric": primary,
        "n": n,
        "invalid": 0,
        "invalid_rate": 0.0,
        "info": info or {"usage": {"prompt_tokens": 10 * n, "completion_tokens": n}},
        "timings": {"total_s": 1.5},
        "environment": {"python": "3.11", "packages": {"seebench": __version__}},
        "samples_file": samples_path.name,
        "samples_sha256": digest.hexdigest(),
        "artifacts": artifacts_dir(result_path).name,
        "scored": True,
        "metric_info": {
            name: {"higher_is_better": True, "ci95": [value - 0.01, value + 0.01]}
            for name, value in metrics.items()
        },
    }
    write_result(result_path, result)
    return result_path


def classification_records(
    n: int, accuracy: float, seed: int = 0, labels: tuple[str, ...] = ("bug", "feature", "question")
) -> Iterable[dict[str, Any]]:
    """``n`` records of a classifier that is right with probability ``accuracy``."""
    rng = random.Random(seed)
    gold_rng = random.Random(1234)  # the same gold labels for every model
    for i in range(n):
        gold = gold_rng.choice(labels)
        right = rng.random() < accuracy
        prediction = gold if right else rng.choice([x for x in labels if x != gold])
        yield {
            "id": f"item-{i:06d}",
            "input_hash": f"{i:016x}",
            "input": f"Issue {i}: the build fails when {gold_rng.choice(['saving', 'loading'])}",
            "prediction": prediction,
            "gold": gold,
            "score": 1.0 if right else 0.0,
            "raw": f"Answer: {prediction}",
        }
