"""Tiers: runs of consecutive models in the ranking that the posteriors cannot tell apart."""

from __future__ import annotations

from seebench.stats.bayesian import PairwisePosteriors


def assign_tiers(
    models: tuple[str, ...], posteriors: PairwisePosteriors, threshold: float = 0.95
) -> tuple[tuple[str, ...], ...]:
    """Split ``models`` (in rank order) into tiers.

    Walking down the ranking, a model joins the current tier unless the test decides (at
    ``threshold``) that it differs from some model already in the tier; then it starts a new
    tier. So no two models of one tier are decided apart, and the first model of each tier is
    decided worse than at least one model of the tier above.
    """
    tiers: list[tuple[str, ...]] = []
    current = [0]
    for m in range(1, len(models)):
        separated = any(
            posteriors.p_better[i, m] >= threshold or posteriors.p_better[m, i] >= threshold
            for i in current
        )
        if separated:
            tiers.append(tuple(models[i] for i in current))
            current = [m]
        else:
            current.append(m)
    tiers.append(tuple(models[i] for i in current))
    return tuple(tiers)
