"""The result of ``seebench compare``: everything the exporters need, in rank order."""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np

from seebench.stats.bayesian import PairwisePosteriors
from seebench.stats.matrix import ScoreMatrix

REPORT_SCHEMA_VERSION = 1


@dataclass(frozen=True)
class Settings:
    """Options of the analysis (the CLI flags of ``seebench compare``)."""

    alpha: float = 0.05
    rope: float = 0.1
    rope_mode: str = "effsize"
    nsamples: int = 50_000
    seed: int | None = 0
    ci_correction: str = "bonferroni"
    mode: str = "auto"

    @property
    def threshold(self) -> float:
        """Posterior probability needed for a decision (0.95 for alpha 0.05)."""
        return 1.0 - self.alpha


@dataclass(frozen=True)
class ModelRow:
    """One row of the ranking.

    ``center``/``spread`` are mean/SD when all populations are normal, else median/MAD.
    ``effect_size`` is against the top-ranked model, ``effect_size_above`` against the model
    ranked just above. ``p_top_better``/``p_top_equal`` are the posteriors of the top model
    against this one and ``decision_vs_top`` the resulting decision (from the top model's side).
    """

    rank: int
    model: str
    center: float
    spread: float
    ci_lower: float
    ci_upper: float
    effect_size: float
    magnitude: str
    effect_size_above: float
    magnitude_above: str
    shapiro_p: float
    normal: bool
    tier: int
    p_top_better: float
    p_top_equal: float
    decision_vs_top: str
    group: str


@dataclass(frozen=True)
class BreakdownRow:
    """Pooled mean and SD of all scores of one model group on one task family or type."""

    dimension: str
    value: str
    group: str
    n_models: int
    n_tasks: int
    n_scores: int
    mean: float
    sd: float


@dataclass(frozen=True)
class ComparisonReport:
    """The full comparison. ``matrix`` and ``posteriors`` are ordered by rank."""

    settings: Settings
    parametric: bool
    normality_alpha: float
    ci_alpha: float
    rows: tuple[ModelRow, ...]
    matrix: ScoreMatrix
    posteriors: PairwisePosteriors
    decisions: np.ndarray
    tiers: tuple[tuple[str, ...], ...]
    breakdown: tuple[BreakdownRow, ...]
    notes: tuple[str, ...] = ()
    sources: tuple[str, ...] = ()
    title: str = "Leaderboard"
    extra: dict[str, Any] = field(default_factory=dict)
    higher_is_better: bool = True  # the direction models were ranked in

    @property
    def models(self) -> tuple[str, ...]:
        """Model names in rank order."""
        return self.matrix.models

    @property
    def center_label(self) -> str:
        """What ``ModelRow.center`` holds: "mean", or "median" in the fallback."""
        return "mean" if self.parametric else "median"

    @property
    def spread_label(self) -> str:
        """What ``ModelRow.spread`` holds: "SD", or "MAD" in the fallback."""
        return "SD" if self.parametric else "MAD"

    @property
    def effect_size_label(self) -> str:
        """The effect size used: Cohen's d, or Akinshin's gamma in the fallback."""
        return "Cohen's d" if self.parametric else "Akinshin's gamma"

    def pairs(self) -> list[dict[str, Any]]:
        """Every unordered pair (A ranked above B) with its three posteriors and decision."""
        out = []
        k = len(self.models)
        p = self.posteriors
        for i in range(k):
            for j in range(i + 1, k):
                out.append(
                    {
                        "a": self.models[i],
                        "b": self.models[j],
                        "p_a_better": _num(p.p_better[i, j]),
                        "p_equal": _num(p.p_equal[i, j]),
                        "p_b_better": _num(p.p_better[j, i]),
                        "rope": _num(p.rope[i, j]),
                        "decision": str(self.decisions[i, j]),
                    }
                )
        return out

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready description of the whole report."""
        return {
            "schema_version": REPORT_SCHEMA_VERSION,
            "title": self.title,
            "sources": list(self.sources),
            "settings": asdict(self.settings),
            "parametric": self.parametric,
            "center": self.center_label,
            "spread": self.spread_label,
            "effect_size": self.effect_size_label,
            "higher_is_better": self.higher_is_better,
            "normality_alpha": self.normality_alpha,
            "ci_alpha": self.ci_alpha,
            "notes": list(self.notes),
            "ranking": [{k: _num(v) for k, v in asdict(row).items()} for row in self.rows],
            "tiers": [list(t) for t in self.tiers],
            "pairs": self.pairs(),
            "breakdown": [{k: _num(v) for k, v in asdict(row).items()} for row in self.breakdown],
            "tasks": [
                {"name": t, "type": ty, "family": fa}
                for t, ty, fa in zip(
                    self.matrix.tasks,
                    self.matrix.task_types,
                    self.matrix.task_families,
                    strict=True,
                )
            ],
            "scores": {
                model: {
                    task: _num(self.matrix.scores[t, m]) for t, task in enumerate(self.matrix.tasks)
                }
                for m, model in enumerate(self.models)
            },
            **self.extra,
        }


def _num(value: Any) -> Any:
    """NaN and infinities become None (valid JSON); NumPy scalars become Python ones."""
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value
