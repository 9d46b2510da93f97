"""Benchmark and table: the human-human agreement of the 10 annotation tasks.

Prints, for every task of ``task_configs/annotation`` read from a data mirror, the
items, raters, pairwise Krippendorff alpha (mean / median over pairs) at every admissible level,
Fleiss' kappa and the human band (mean pairwise alpha on random halves of the items). Then
times the heavy part of the analysis two ways in one run, on the same seeded draws: the human
band (1,000 replicates) and the RQ3 replacement curves (2 strategies x 10 fractions x 100
repetitions, with a seeded stand-in rater) by the straightforward loop (one
``krippendorff.alpha`` call per pair per replicate) and by the suite (all replicates of a pair
in one array operation, :mod:`seebench.suites.annotation.batch_alpha`), and prints both times,
the ratio and the largest difference (both must agree).

Usage::

    .venv/bin/python benchmarks/agreement.py [--mirror ../shared/data] [--repetitions 1000]
"""

from __future__ import annotations

import argparse
import itertools
import time
from pathlib import Path

import numpy as np

DEFAULT_MIRROR = Path(__file__).resolve().parents[1] / ".." / "shared" / "data"


def straightforward_band(data, level: str, repetitions: int, seed: int) -> list[float]:
    """Mean pairwise alpha on random halves, one plain alpha call per pair per replicate."""
    from seebench.suites.annotation.agreement import pair_alpha, rating_matrix

    humans = data.raters_of("human")
    matrix = rating_matrix(data, humans)
    domain = data.scale.domain()
    rng = np.random.default_rng(seed)
    n_items = matrix.shape[1]
    size = max(2, round(0.5 * n_items))
    pairs = [
        (i, j)
        for i, j in itertools.combinations(range(len(humans)), 2)
        if (~np.isnan(matrix[i]) & ~np.isnan(matrix[j])).sum() >= 2
    ]
    draws = []
    for _ in range(repetitions):
        keep = np.zeros(n_items, dtype=bool)
        keep[rng.choice(n_items, size=size, replace=False)] = True
        values = [pair_alpha(matrix[i, keep], matrix[j, keep], level, domain) for i, j in pairs]
        defined = [v for v in values if v is not None]
        draws.append(float(np.mean(defined)) if defined else float("nan"))
    return draws


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--mirror", type=Path, default=DEFAULT_MIRROR, help="data mirror with MANIFEST.tsv"
    )
    parser.add_argument("--repetitions", type=int, default=1000, help="band replicates per task")
    parser.add_argument("--curve-repetitions", type=int, default=100, help="RQ3 repetitions")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    from seebench.suites.annotation.agreement import agreement_by_level, fleiss_kappa
    from seebench.suites.annotation.replacement import human_band, replacement_curves
    from seebench.suites.annotation.task_config import load_task_ratings, task_names

    print(
        "| task | items | raters | level | nominal | ordinal | interval | Fleiss kappa | human band |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    tasks = {name: load_task_ratings(name, args.mirror) for name in task_names()}
    for name, data in tasks.items():
        summary = data.summary()
        matrices = agreement_by_level(data)
        cells = []
        for level in ("nominal", "ordinal", "interval"):
            zone = matrices[level].zones()["HH"] if level in matrices else None
            cells.append(f"{zone['mean']:.3f} / {zone['median']:.3f}" if zone else "n/a")
        kappa = fleiss_kappa(data)["kappa"]
        band = human_band(data, data.level, repetitions=args.repetitions, seed=args.seed)
        print(
            f"| {name} | {summary['items']} | {summary['raters']} | {data.level} | "
            + " | ".join(cells)
            + f" | {kappa:.3f} | {band.low:.3f}-{band.high:.3f} |"
        )

    plain_time = fast_time = 0.0
    largest = 0.0
    for data in tasks.values():
        model, confidence = stand_in_model(data, args.seed)
        start = time.perf_counter()
        plain = straightforward_band(data, data.level, args.repetitions, args.seed)
        plain_curves = straightforward_curves(
            data, model, confidence, data.level, args.curve_repetitions, args.seed
        )
        plain_time += time.perf_counter() - start
        start = time.perf_counter()
        band = human_band(data, data.level, repetitions=args.repetitions, seed=args.seed)
        curves = replacement_curves(
            data, model, confidence, data.level, repetitions=args.curve_repetitions, seed=args.seed
        )
        fast_time += time.perf_counter() - start
        low, high = np.nanpercentile(plain, [2.5, 97.5])
        differences = [abs(low - band.low), abs(high - band.high)]
        for strategy, curve in curves.items():
            differences += [
                abs(a - b) for a, b in zip(plain_curves[strategy], curve.mean, strict=True)
            ]
        largest = max(largest, float(np.nanmax(differences)))
    print(
        f"\nwhole analysis, {len(tasks)} tasks: human band x {args.repetitions} replicates + "
        f"replacement curves (2 strategies x 10 fractions x {args.curve_repetitions} repetitions)"
    )
    print(f"  straightforward (krippendorff.alpha per pair per replicate): {plain_time:.1f} s")
    print(f"  suite (all replicates of a pair in one array operation):     {fast_time:.1f} s")
    print(
        f"  ratio: {plain_time / fast_time:.1f}x; largest difference between the two: {largest:.2e}"
    )


def stand_in_model(data, seed: int) -> tuple[dict, dict]:
    """A seeded random rater with random confidences, standing in for a model's ratings (the
    timing does not depend on what the ratings are)."""
    rng = np.random.default_rng(seed)
    values = list(data.scale.values)
    model = {item: values[rng.integers(len(values))] for item in data.item_ids}
    confidence = {item: float(rng.random()) for item in data.item_ids}
    return model, confidence


def straightforward_curves(data, model, confidence, level, repetitions, seed) -> dict:
    """The replacement curves' means, one ``krippendorff.alpha`` call per pair per repetition
    (the same draws as :func:`replacement_curves`)."""
    from seebench.suites.annotation.replacement import (
        FRACTIONS,
        STRATEGIES,
        _HumanPanel,
        replaceable_items,
    )

    panel = _HumanPanel(data, level)
    candidates_arr, values_arr, scores_arr = replaceable_items(panel, data, model, confidence)
    rng = np.random.default_rng(seed)
    means: dict[str, list[float]] = {}
    for strategy in STRATEGIES:
        for fraction in FRACTIONS:
            count = round(fraction * len(candidates_arr))
            draws = []
            for _ in range(repetitions):
                if strategy == "confidence":
                    order = np.lexsort((rng.random(len(scores_arr)), -scores_arr))[:count]
                else:
                    order = rng.choice(len(candidates_arr), size=count, replace=False)
                codes = panel.codes.copy()
                panel.replace(codes, candidates_arr[order], values_arr[order], rng)
                draws.append(panel.mean_alpha(codes))
            means.setdefault(strategy, []).append(float(np.nanmean(draws)))
    return means


if __name__ == "__main__":
    main()
