"""Benchmark and table: the human-human agreement of the 10 annotation tasks.

Prints, for every task of ``seebench/suites/annotation/tasks`` read from a data mirror, the
items, raters, pairwise Krippendorff alpha (mean / median over pairs) at every admissible level,
Fleiss' kappa and the human band (mean pairwise alpha on random halves of the items). Then
times the band two ways in one run, on the same seeded subsets: the straightforward loop (one
``krippendorff.alpha`` call per pair per replicate on the raters x items matrix) and the path
the suite uses (scale positions and per-pair shared items computed once, alpha from value
counts), and prints both times, the ratio and the largest difference (both must agree).

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
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    from seebench.suites.annotation.agreement import agreement_by_level, fleiss_kappa
    from seebench.suites.annotation.replacement import _HumanPanel, human_band
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
        start = time.perf_counter()
        plain = straightforward_band(data, data.level, args.repetitions, args.seed)
        plain_time += time.perf_counter() - start
        start = time.perf_counter()
        panel = _HumanPanel(data, data.level)
        rng = np.random.default_rng(args.seed)
        n_items = panel.codes.shape[1]
        size = max(2, round(0.5 * n_items))
        fast = []
        for _ in range(args.repetitions):
            keep = np.zeros(n_items, dtype=bool)
            keep[rng.choice(n_items, size=size, replace=False)] = True
            fast.append(panel.mean_alpha(panel.codes, keep))
        fast_time += time.perf_counter() - start
        largest = max(largest, float(np.nanmax(np.abs(np.array(plain) - np.array(fast)))))
    print(f"\nhuman band, {len(tasks)} tasks x {args.repetitions} replicates:")
    print(f"  straightforward (alpha per pair on the rating matrix): {plain_time:.1f} s")
    print(f"  suite (value counts on precomputed shared items):     {fast_time:.1f} s")
    print(
        f"  ratio: {plain_time / fast_time:.1f}x; largest difference between the two: {largest:.2e}"
    )


if __name__ == "__main__":
    main()
