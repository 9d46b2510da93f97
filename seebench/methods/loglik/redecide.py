"""Re-deciding a saved ``loglik`` result from the option log-likelihoods in its samples file."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from seebench.errors import SeebenchError
from seebench.methods.loglik.decide import decide_label, decide_label_set
from seebench.tasks.types import LABEL_SET


def redecide(path: Path, by: str, registry: Any, index: Any) -> dict[str, float] | None:
    """The task's metrics of the result at ``path`` decided ``by`` (``None``: not a loglik
    result with samples)."""
    import json

    from seebench.results.samples import read_samples
    from seebench.safe_files import read_text

    try:
        result = json.loads(read_text(path))
    except (OSError, ValueError) as exc:
        raise SeebenchError(f"cannot read the result: {exc}") from None
    if not isinstance(result, dict):
        raise SeebenchError("not a result file (no JSON object)")
    if result.get("method") != "loglik" or not result.get("samples_file"):
        return None
    task = index.get(str(result["task"]["name"]))
    info = (result.get("info") or {}).get("loglik") or {}
    priors = info.get("prior")
    if by == "calibrated" and priors is None:
        raise SeebenchError("this run measured no prior: rerun it with -o calibrate=true")
    golds: list[Any] = []
    predictions: list[Any] = []  # a label, a list of labels, or None (no log-likelihoods)
    for record in read_samples(path.with_name(str(result["samples_file"]))):
        golds.append(record["gold"])
        predictions.append(decide_record(record.get("extra") or {}, task, by, priors))
    return metric_values(registry, task, golds, predictions)


def decide_record(extra: dict[str, Any], task: Any, by: str, priors: Any) -> Any:
    """One sample's answer from its stored option log-likelihoods (``None``: none stored).
    ``extra.answers`` maps the stored keys to the answers of a type's own questions."""
    values = extra.get("loglik")
    if values is None:
        return None
    answers = extra.get("answers")
    if answers is not None:
        return answers[decide_label(values, list(answers), by, priors)]
    if task.target_kind == LABEL_SET:
        return decide_label_set(values, task.label_names, by, priors)
    if task.label_names:
        return decide_label(values, task.label_names, by, priors)
    return decide_label(values, list(values), by, priors)


def metric_values(
    registry: Any, task: Any, golds: list[Any], predicted: list[Any]
) -> dict[str, float]:
    """The task's metrics (with its options, and its labels if any) of ``predicted``."""
    values = {}
    for name in task.metrics:
        if registry is None or name not in registry.metrics:
            continue
        entry = registry.metric(name)
        if entry.inputs != "predictions":
            continue
        kwargs = dict(task.metric_options(name))
        if task.label_names and "labels" not in kwargs:
            kwargs["labels"] = task.label_names
        values[name] = entry.load()(golds, predicted, **kwargs)
    return values
