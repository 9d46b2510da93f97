"""``seebench judge-agreement RESULTS... --out DIR``: judge-vs-human agreement from result files.

Reads every result of a judging task (type ``judged_score`` or ``judged_preference``) under the
given paths, and its samples file (predictions and golds with their input), and reports per task
and judge: for scoring tasks Pearson, Spearman and Kendall pooled and per input with bootstrap
intervals over inputs and the unscored rate; for comparison tasks accuracy, consistency and
position bias. Writes ``judge_agreement.{json,csv,md}`` to ``--out`` and prints the Markdown.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click

from seebench import safe_files
from seebench.csv_files import write_records
from seebench.errors import SeebenchError
from seebench.results.io import RESULT_MAX_BYTES
from seebench.results.samples import SAMPLES_MAX_BYTES

SCORING_COLUMNS = [
    "task",
    "judge",
    "n",
    "unscored_rate",
    "spearman_pooled",
    "spearman_pooled_ci",
    "spearman_per_input",
    "spearman_per_input_ci",
    "pearson_pooled",
    "pearson_pooled_ci",
    "kendall_pooled",
    "pearson_per_input",
    "kendall_per_input",
]
COMPARISON_COLUMNS = [
    "task",
    "judge",
    "n",
    "unscored_rate",
    "accuracy",
    "accuracy_without_human_ties",
    "consistency_rate",
    "position_bias_rate",
    "first_position_share",
    "swapped_accuracy",
]


def _samples(result_path: Path, result: dict[str, Any]) -> list[dict[str, Any]]:
    path = result_path.parent / str(result.get("samples_file") or "")
    if not path.is_file():
        raise SeebenchError(f"{result_path}: samples file {path.name!r} is missing")
    records = []
    text = safe_files.read_text(path, SAMPLES_MAX_BYTES)  # one line naming it if not text
    for number, line in enumerate(text.splitlines(), start=1):
        try:
            record = json.loads(line)
            gold = record["gold"]
            prediction = record.get("prediction")
            float(gold["human"])
            int(gold["input_group"])
            if prediction is not None:
                float(prediction)
        except (json.JSONDecodeError, KeyError, TypeError, ValueError):
            raise SeebenchError(
                f"{path}:{number}: not a judging sample (prediction, gold.human, gold.input_group)"
            ) from None
        records.append(record)
    return records


def agreement_row(
    result_path: Path, result: dict[str, Any], *, bootstrap: int, seed: int
) -> dict[str, Any]:
    """One report row for one judging result."""
    from seebench.suites.judge.agreement import COEFFICIENTS, score_agreement
    from seebench.suites.judge.comparison import compare_with_human

    records = _samples(result_path, result)
    golds = [r["gold"] for r in records]
    predictions = [None if r.get("prediction") is None else float(r["prediction"]) for r in records]
    human = [float(g["human"]) for g in golds]
    row: dict[str, Any] = {
        "task": result["task"]["name"],
        "judge": f"{result['model']['spec']} / {result['method']}",
        "n": len(records),
    }
    if all("pair" in g for g in golds):
        pairs = [(int(g["input_group"]), *g["pair"]) for g in golds]
        row.update(compare_with_human(predictions, human, pairs).as_dict())
        return row
    report = score_agreement(
        predictions, human, [int(g["input_group"]) for g in golds], n_bootstrap=bootstrap, seed=seed
    )
    row["unscored_rate"] = report.unscored_rate
    for name in COEFFICIENTS:
        row[f"{name}_pooled"] = report.pooled[name]
        row[f"{name}_pooled_ci"] = report.pooled_interval[name]
        row[f"{name}_per_input"] = report.per_input[name]
        row[f"{name}_per_input_ci"] = report.per_input_interval[name]
        row[f"{name}_inputs_defined"] = report.per_input_defined[name]
    return row


def _is_judging(result_path: Path, result: dict[str, Any]) -> bool:
    """A result of a judging task: its golds are human judgments tied to an input. A samples
    file that cannot be read is kept, so the report warns about it instead of skipping it."""
    samples = result_path.parent / str(result.get("samples_file") or "")
    try:
        with safe_files.open_regular(samples, SAMPLES_MAX_BYTES) as handle:
            gold = json.loads(handle.readline(RESULT_MAX_BYTES)).get("gold")
    except safe_files.UnsafeFileError:  # a FIFO, a device, too large: the report names it
        return True
    except OSError:
        return False
    except (ValueError, AttributeError, RecursionError):
        return True
    return isinstance(gold, dict) and "human" in gold and "input_group" in gold


def find_results(paths: tuple[Path, ...]) -> list[tuple[Path, dict[str, Any]]]:
    """Every finished result of a judging task under ``paths`` (files or folders)."""
    from seebench.results.io import load_result

    found = []
    for root in paths:
        candidates = [root] if root.is_file() else sorted(root.rglob("*.json"))
        for path in candidates:
            result = load_result(path)
            if (
                isinstance(result, dict)
                and isinstance(result.get("task"), dict)
                and result.get("status") == "ok"
                and _is_judging(path, result)
            ):
                found.append((path, result))
    return found


@click.command("judge-agreement")
@click.argument("results", nargs=-1, required=True, type=click.Path(exists=True, path_type=Path))
@click.option(
    "--out", "out_dir", required=True, type=click.Path(path_type=Path), help="Report folder."
)
@click.option(
    "--bootstrap",
    default=1000,
    show_default=True,
    type=click.IntRange(min=0),
    help="Resamples of the inputs for the 95% intervals.",
)
@click.option("--seed", default=0, show_default=True, type=int, help="Bootstrap seed.")
def judge_agreement_command(
    results: tuple[Path, ...], out_dir: Path, bootstrap: int, seed: int
) -> None:
    """Agreement of judges with the human judgments, from judging-task RESULTS."""
    from seebench.suites.judge.report import markdown_table

    found = find_results(results)
    if not found:
        raise SeebenchError(
            "no results of judging tasks found (golds with a human judgment per input)"
        )
    rows = []
    for path, result in found:
        try:
            rows.append(agreement_row(path, result, bootstrap=bootstrap, seed=seed))
        except SeebenchError as exc:
            click.echo(f"warning: {exc}", err=True)
    scoring = [r for r in rows if "spearman_pooled" in r]
    comparison = [r for r in rows if "accuracy" in r]
    out_dir.mkdir(parents=True, exist_ok=True)
    (out_dir / "judge_agreement.json").write_text(json.dumps(rows, indent=2, default=list) + "\n")
    columns = sorted({key for row in rows for key in row})
    write_records(out_dir / "judge_agreement.csv", rows, columns)  # no formula cell
    parts = []
    if scoring:
        parts.append("## Scoring tasks\n\n" + markdown_table(scoring, SCORING_COLUMNS))
    if comparison:
        parts.append("## Comparison tasks\n\n" + markdown_table(comparison, COMPARISON_COLUMNS))
    text = "\n\n".join(parts) + "\n"
    (out_dir / "judge_agreement.md").write_text(text)
    click.echo(text)
    click.echo(f"wrote {out_dir / 'judge_agreement.md'} (.json, .csv) for {len(rows)} result(s)")
