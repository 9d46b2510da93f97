"""The classical-baseline results table of docs/baselines.md, from result files and SELU's Table VI.

    .venv/bin/python benchmarks/baselines_table.py RESULTS_DIR [--table-vi CSV]

RESULTS_DIR is an ``--output`` directory of ``seebench eval --model tfidf-xgboost|fasttext``.
Prints one Markdown row per task that has an ``ok`` result for either model: split sizes,
seebench's test score next to Table VI's, the selected hyper-parameters and the run time.
Tasks whose results are ``skipped`` or ``not_applicable`` are listed below the table.
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
from pathlib import Path

MODELS = {"tfidf-xgboost": "TF-IDF+XGBoost", "fasttext": "FastText"}
TYPES = {
    "binary": "binary",
    "multiclass": "multi-class",
    "multilabel": "multi-label",
    "regression": "regression",
}
DEFAULT_TABLE = (
    Path(__file__).resolve().parents[1].parent / "shared" / "fixtures" / "selu_table_vi.csv"
)


def load_results(directory: Path) -> dict[str, dict[str, dict]]:
    """``{task: {model: result}}`` for the baseline models found under ``directory``."""
    found: dict[str, dict[str, dict]] = {}
    for model in MODELS:
        for path in sorted((directory / model / "baseline").glob("*.json")):
            result = json.loads(path.read_text())
            found.setdefault(result["task"]["name"], {})[model] = result
    return found


def load_table_vi(path: Path) -> dict[tuple[str, str], float]:
    with open(path, newline="") as handle:
        return {(row["model"], row["task"]): float(row["score"]) for row in csv.DictReader(handle)}


def selected(result: dict | None) -> str:
    if not result or result["status"] != "ok":
        return "-"
    fit = result.get("info", {}).get("fit", {})
    chosen = fit.get("selected")
    if not chosen:
        return "no selection"
    if "max_depth" in chosen:
        return f"depth {chosen['max_depth']}, mcw {chosen['min_child_weight']}"
    return f"lr {chosen['lr']:g}, {chosen['epoch']} ep"


def score(result: dict | None) -> str:
    if not result or result["status"] != "ok":
        return "-" if not result else result["status"]
    return f"{result['metrics'][result['primary_metric']]:.3f}"


def minutes(result: dict | None) -> str:
    if not result or result["status"] != "ok":
        return "-"
    return f"{result['timings']['total_s'] / 60:.1f}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("results", type=Path)
    parser.add_argument("--table-vi", type=Path, default=DEFAULT_TABLE)
    args = parser.parse_args(argv)
    results = load_results(args.results)
    if not results:
        print(f"no tfidf-xgboost or fasttext results under {args.results}", file=sys.stderr)
        return 1
    paper = load_table_vi(args.table_vi)

    print(
        "| task | type | train/val/test | seebench TF-IDF+XGBoost | SELU TF-IDF+XGBoost | seebench fastText "
        "| SELU FastText | selected (XGBoost; fastText) | minutes (XGBoost; fastText) |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    other = []
    for task, by_model in sorted(results.items()):
        xgb, ft = by_model.get("tfidf-xgboost"), by_model.get("fasttext")
        ok = [r for r in (xgb, ft) if r and r["status"] == "ok"]
        if not ok:
            first = xgb or ft
            other.append(f"{task}: {first['status']}")
            continue
        counts = ok[0]["data"]["counts"]
        sizes = f"{counts.get('train', 0)}/{counts.get('validation', 0)}/{counts.get('test', 0)}"

        def ref(model: str, task: str = task) -> str:
            value = paper.get((MODELS[model], task))
            return "-" if value is None else f"{value:.3f}"

        print(
            f"| {task} | {TYPES.get(ok[0]['task']['type'], ok[0]['task']['type'])} | {sizes} "
            f"| {score(xgb)} | {ref('tfidf-xgboost')} | {score(ft)} | {ref('fasttext')} "
            f"| {selected(xgb)}; {selected(ft)} | {minutes(xgb)}; {minutes(ft)} |"
        )
    if other:
        print()
        print("Not scored: " + "; ".join(other) + ".")
    return 0


if __name__ == "__main__":
    sys.exit(main())
