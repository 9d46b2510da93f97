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
        values = (record.get("extra") or {}).get("loglik")
        golds.append(record["gold"])
        if values is None:
            predictions.append(None)
        elif task.target_kind == LABEL_SET:
            predictions.append(decide_label_set(values, task.label_names, by, priors))
        else:
            predictions.append(decide_label(values, task.label_names, by, priors))
    return {
        name: registry.metric(name).load()(golds, predictions, labels=task.label_names)
        for name in task.metrics
        if name in registry.metrics
    }
