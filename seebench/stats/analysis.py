"""The whole comparison of ``seebench compare``: ranking, effect sizes, posteriors, tiers."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

import seebench.stats.descriptive as ds
from seebench.stats.bayesian import pairwise_posteriors
from seebench.stats.breakdown import breakdown
from seebench.stats.matrix import ScoreMatrix
from seebench.stats.report import ComparisonReport, ModelRow, Settings
from seebench.stats.tiers import assign_tiers

MODES = ("auto", "parametric", "nonparametric")
ROPE_MODES = ("effsize", "absolute")


def compare_models(
    matrix: ScoreMatrix,
    settings: Settings | None = None,
    *,
    breakdown_matrix: ScoreMatrix | None = None,
    title: str = "Leaderboard",
    sources: tuple[str, ...] = (),
) -> ComparisonReport:
    """Analyse a complete score matrix (no missing cells): rank, interval, effect size,
    pairwise Bayesian signed-rank posteriors and tiers (``docs/statistics.md``).

    Models are ranked in the direction of the tasks' scores: descending when higher is
    better, ascending when every task's score is lower-is-better (tasks in both directions
    are an error). Effect sizes and posteriors are then oriented so that a positive effect or
    "better" always means better. The task-type breakdown is computed on ``breakdown_matrix`` when given: it may have
    missing cells and more tasks (for example NER scores that only some models have) and is
    restricted to the models of ``matrix``. The task-family breakdown always uses ``matrix``.
    """
    settings = settings or Settings()
    _check(matrix, settings)
    sign = 1.0 if matrix.higher_is_better else -1.0
    k = len(matrix.models)
    scores = matrix.scores
    normality_alpha = settings.alpha / k
    shapiro = ds.shapiro_pvalues(scores)
    normal = ~(shapiro < normality_alpha)  # a constant column (NaN p-value) counts as normal
    parametric = bool(normal.all()) if settings.mode == "auto" else settings.mode == "parametric"
    notes = _normality_notes(matrix.models, normal, normality_alpha, parametric, settings.mode)

    input_matrix = matrix  # the breakdown keeps the input order of models (and so of groups)
    center = scores.mean(axis=0) if parametric else np.median(scores, axis=0)
    order = sorted(range(k), key=lambda m: -sign * center[m])  # stable: ties keep input order
    matrix = _reorder(matrix, order)
    scores, shapiro, normal, center = matrix.scores, shapiro[order], normal[order], center[order]

    spread = scores.std(axis=0, ddof=1) if parametric else ds.mad(scores)
    alpha_ci = ds.ci_alpha(settings.alpha, k, settings.ci_correction)
    interval = ds.t_interval if parametric else ds.median_interval
    ci_lower, ci_upper = interval(scores, alpha_ci)
    effect = ds.cohen_d if parametric else ds.akinshin_gamma
    oriented = sign * scores  # higher is better from here on
    with np.errstate(divide="ignore", invalid="ignore"):
        vs_top = effect(oriented[:, [0] * k], oriented)
        vs_above = np.concatenate(([0.0], effect(oriented[:, :-1], oriented[:, 1:])))
        rope = _rope_matrix(scores, settings, parametric)

    posteriors = pairwise_posteriors(oriented, rope, nsamples=settings.nsamples, seed=settings.seed)
    decisions = posteriors.decisions(settings.threshold)
    tiers = assign_tiers(matrix.models, posteriors, settings.threshold)
    tier_of = {model: n for n, tier in enumerate(tiers, start=1) for model in tier}

    rows = tuple(
        ModelRow(
            rank=m + 1,
            model=model,
            center=float(center[m]),
            spread=float(spread[m]),
            ci_lower=float(ci_lower[m]),
            ci_upper=float(ci_upper[m]),
            effect_size=float(vs_top[m]),
            magnitude=ds.magnitude(float(vs_top[m])),
            effect_size_above=float(vs_above[m]),
            magnitude_above=ds.magnitude(float(vs_above[m])),
            shapiro_p=float(shapiro[m]),
            normal=bool(normal[m]),
            tier=tier_of[model],
            p_top_better=float(posteriors.p_better[0, m]),
            p_top_equal=float(posteriors.p_equal[0, m]),
            decision_vs_top=str(decisions[0, m]),
            group=matrix.model_groups.get(model, ""),
        )
        for m, model in enumerate(matrix.models)
    )
    breakdown_matrix = breakdown_matrix or input_matrix
    kept = [i for i, model in enumerate(breakdown_matrix.models) if model in matrix.models]
    by_type = _reorder(breakdown_matrix, kept)
    notes = (
        *notes,
        *_undefined_effect_notes(rows, ds.cohen_d if parametric else ds.akinshin_gamma),
    )
    return ComparisonReport(
        settings=settings,
        parametric=parametric,
        normality_alpha=normality_alpha,
        ci_alpha=alpha_ci,
        rows=rows,
        matrix=matrix,
        posteriors=posteriors,
        decisions=decisions,
        tiers=tiers,
        breakdown=breakdown(input_matrix, by_type),
        notes=notes,
        sources=sources,
        title=title,
        higher_is_better=sign > 0,
    )


def _undefined_effect_notes(rows: tuple[ModelRow, ...], effect: object) -> tuple[str, ...]:
    """One note per model whose effect size against the top is undefined (no spread)."""
    name = "Cohen's d" if effect is ds.cohen_d else "Akinshin's gamma"
    return tuple(
        f"{row.model}: {name} against the top model is undefined (the pooled spread of the "
        "two models' scores is 0, their centers differ)"
        for row in rows
        if row.magnitude == "undefined"
    )


def _check(matrix: ScoreMatrix, settings: Settings) -> None:
    if len(matrix.models) < 2:
        raise ValueError(f"need at least two models to compare, got {len(matrix.models)}")
    if len(matrix.tasks) < 3:
        raise ValueError(
            f"need at least three tasks to compare models (the signed-rank test pairs models "
            f"over tasks), got {len(matrix.tasks)}"
        )
    if np.isnan(matrix.scores).any():
        raise ValueError("the score matrix has missing cells; complete it first")
    if settings.mode not in MODES:
        raise ValueError(f"unknown mode {settings.mode!r}; known: {', '.join(MODES)}")
    if settings.rope_mode not in ROPE_MODES:
        raise ValueError(
            f"unknown ROPE mode {settings.rope_mode!r}; known: {', '.join(ROPE_MODES)}"
        )
    if not 0 < settings.alpha < 1:
        raise ValueError(f"alpha must be between 0 and 1, got {settings.alpha}")
    if settings.rope < 0:
        raise ValueError(f"the ROPE must not be negative, got {settings.rope}")
    if settings.nsamples < 1:
        raise ValueError(f"nsamples must be positive, got {settings.nsamples}")
    ds.ci_alpha(settings.alpha, 1, settings.ci_correction)  # validates the name


def _reorder(matrix: ScoreMatrix, columns: list[int]) -> ScoreMatrix:
    return replace(
        matrix,
        models=tuple(matrix.models[m] for m in columns),
        scores=matrix.scores[:, columns],
    )


def _rope_matrix(scores: np.ndarray, settings: Settings, parametric: bool) -> np.ndarray:
    k = scores.shape[1]
    if settings.rope_mode == "absolute":
        return np.full((k, k), settings.rope)
    spread = scores.var(axis=0, ddof=1) if parametric else ds.mad(scores, scaled=True) ** 2
    # Equal numbers of tasks, so the pooled variance is the plain average of the two.
    return settings.rope * np.sqrt((spread[:, None] + spread[None, :]) / 2)


def _normality_notes(
    models: tuple[str, ...], normal: np.ndarray, alpha: float, parametric: bool, mode: str
) -> tuple[str, ...]:
    rejected = [model for model, ok in zip(models, normal, strict=True) if not ok]
    notes = []
    if rejected:
        notes.append(
            f"Shapiro-Wilk rejects normality (alpha = {alpha:.4g}, Bonferroni over "
            f"{len(models)} models) for: {', '.join(rejected)}."
        )
    else:
        notes.append(
            f"Shapiro-Wilk does not reject normality for any model (alpha = {alpha:.4g}, "
            f"Bonferroni over {len(models)} models)."
        )
    if not parametric:
        why = (
            "as requested (--mode nonparametric)"
            if mode == "nonparametric"
            else "because not all populations are normal"
        )
        notes.append(
            f"Non-parametric fallback {why}: models are ranked by median with the MAD, "
            "order-statistic confidence intervals, Akinshin's gamma as effect size and a ROPE "
            "scaled by the pooled MAD, as autorank does."
        )
    elif rejected:
        notes.append(
            "Parametric analysis forced (--mode parametric) despite non-normal populations."
        )
    return tuple(notes)
