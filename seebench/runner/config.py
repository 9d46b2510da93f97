"""What determines a unit's result: the options of a run, the run-config hash, and the result
fields scoring fills."""

from __future__ import annotations

import hashlib
import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from seebench.data.dataset import DEFAULT_SEED
from seebench.errors import SeebenchError
from seebench.models import ModelRef
from seebench.runner.budget import Budget
from seebench.scoring.core import DEFAULT_BOOTSTRAP
from seebench.tasks.spec import TaskSpec

if TYPE_CHECKING:
    from seebench.scoring.unit import UnitScoring

#: Options of ``-o`` that the runner itself takes (never passed to a method); scorers see
#: them through ``configure(run_options)`` and ``ScoreContext.options``.
RUN_OPTIONS = ("repeats", "unsafe_host_exec")


@dataclass
class EvalConfig:
    """The options of one ``seebench eval`` invocation."""

    model: str
    tasks: str
    method: str | None = None
    output: Path = Path("results")
    limit: int | None = None
    #: ``--samples``: only these test items (by id); ``None``: every item (or ``limit``)
    samples: tuple[str, ...] | None = None
    seed: int = DEFAULT_SEED
    force: bool = False
    shard: tuple[int, int] | None = None  # (i, n), 1-based
    method_options: dict[str, Any] = field(default_factory=dict)
    progress: bool = True
    predict_only: bool = False  # write predictions, score later with ``seebench score``
    bootstrap: int = DEFAULT_BOOTSTRAP  # resamples for metric intervals (0: none)
    budget: Budget | None = None  # token, cost and per-unit time limits (not in the run hash)


def parse_shard(text: str) -> tuple[int, int]:
    """Parse ``i/n`` (1-based): ``2/4`` is the second of four shards."""
    try:
        i_text, n_text = text.split("/")
        i, n = int(i_text), int(n_text)
    except ValueError:
        raise SeebenchError(f"--shard {text!r}: expected i/n, e.g. 1/4") from None
    if n < 1 or not 1 <= i <= n:
        raise SeebenchError(f"--shard {text!r}: need 1 <= i <= n")
    return i, n


def run_config(
    config: EvalConfig,
    model: ModelRef,
    method: str,
    task: TaskSpec,
    scorers: dict[str, Any] | None = None,
    plugins: dict[str, str] | None = None,
) -> dict[str, Any]:
    """Everything that determines a unit's result; its hash decides whether to recompute.

    ``scorers`` are the identities of the task's scorers (a judge model's included) and
    ``plugins`` the ``dist==version`` of every plugin that contributed to the unit.
    """
    options = {**task.method_options(method), **config.method_options}
    chosen = {"samples": sorted(config.samples)} if config.samples is not None else {}
    return {
        **chosen,  # only when given: every other run's hash stays as it was
        "model": model.summary(),
        "method": method,
        "method_options": {k: v for k, v in options.items() if k not in RUN_OPTIONS},
        "task": {"name": task.name, "version": task.version, "config_hash": task.config_hash},
        "seed": config.seed,
        "limit": config.limit,
        "repeats": unit_repeats(config, task),
        "scorers": scorers or {},
        "plugins": plugins or {},
        "bootstrap": config.bootstrap,
    }


def unit_repeats(config: EvalConfig, task: TaskSpec) -> int:
    """Generations per item: ``-o repeats=n`` wins over the task's ``repeats``."""
    value = config.method_options.get("repeats", task.repeats)
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise SeebenchError(f"-o repeats={value!r}: expected an integer >= 1")
    return value


def config_hash(config: dict[str, Any]) -> str:
    return hashlib.sha256(json.dumps(config, sort_keys=True, default=str).encode()).hexdigest()[:16]


def defined_metrics(metrics: dict[str, Any]) -> dict[str, Any]:
    """``metrics`` with each undefined value (NaN: nothing to measure, e.g. a ranking rate
    where no reply was prompted to rank) written as ``None``; JSON has no NaN, and a result
    holding one would not be trusted when read back."""
    return {
        name: None if isinstance(value, float) and not math.isfinite(value) else value
        for name, value in metrics.items()
    }


def scoring_fields(scoring: UnitScoring | None) -> dict[str, Any]:
    """The result keys that scoring fills (``scored: false`` and no metrics when predict-only)."""
    if scoring is None:
        return {"scored": False, "metrics": {}}
    fields: dict[str, Any] = {
        "scored": True,
        "metrics": defined_metrics(scoring.metrics),
        "metric_info": scoring.metric_info,
        "scorers": scoring.scorer_identities,
    }
    if scoring.unscored:
        fields["unscored"] = {"count": scoring.unscored, "reasons": scoring.unscored_reasons}
    if scoring.repeat_metrics or scoring.item_spread:
        fields["repeat_metrics"] = scoring.repeat_metrics
        fields["item_spread"] = scoring.item_spread
    return fields
