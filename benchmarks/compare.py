"""Benchmark: seebench's Bayesian signed-rank analysis against autorank's on the SELU fixture.

Runs both in one process on the same 28 x 20 score table, prints both wall times, the
speed-up and the largest difference between their pairwise posteriors. autorank's Bayesian
path takes minutes (it loops over 50,000 Dirichlet draws in Python for each of 378 pairs).

Usage::

    .venv/bin/python benchmarks/compare.py [--csv FIXTURE] [--nsamples 50000] [--repeat 3] [--models N]
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import platform
import time
from dataclasses import replace
from pathlib import Path

import numpy as np

DEFAULT_FIXTURE = (
    Path(__file__).resolve().parents[1] / "tests" / "stats" / "data" / "selu_table_vi.csv"
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--csv", type=Path, default=DEFAULT_FIXTURE, help="tidy score CSV")
    parser.add_argument("--nsamples", type=int, default=50_000, help="posterior draws per pair")
    parser.add_argument("--repeat", type=int, default=3, help="seebench runs (the best is kept)")
    parser.add_argument("--models", type=int, help="keep only the first N models (a quick check)")
    args = parser.parse_args()

    import pandas as pd
    from autorank import autorank

    from seebench.leaderboard.inputs import read_inputs
    from seebench.plugin_manager import get_registry
    from seebench.stats import Settings, compare_models

    matrix = read_inputs([args.csv]).to_matrix(get_registry()).complete()
    if args.models:
        keep = list(range(min(args.models, len(matrix.models))))
        matrix = replace(
            matrix, models=tuple(matrix.models[i] for i in keep), scores=matrix.scores[:, keep]
        )
    frame = pd.DataFrame(matrix.scores, index=list(matrix.tasks), columns=list(matrix.models))
    settings = Settings(nsamples=args.nsamples, ci_correction="autorank")

    seebench_times = []
    for _ in range(args.repeat):
        start = time.perf_counter()
        report = compare_models(matrix, settings)
        seebench_times.append(time.perf_counter() - start)
    seebench_s = min(seebench_times)

    start = time.perf_counter()
    with contextlib.redirect_stdout(io.StringIO()):  # autorank prints its rank table
        result = autorank(
            frame,
            alpha=0.05,
            approach="bayesian",
            rope=0.1,
            rope_mode="effsize",
            nsamples=args.nsamples,
            random_state=1,
        )
    autorank_s = time.perf_counter() - start

    index = {model: i for i, model in enumerate(report.models)}
    order = list(result.rankdf.index)
    diffs = []
    for a_pos, model_a in enumerate(order):
        for model_b in order[a_pos + 1 :]:
            i, j = index[model_a], index[model_b]
            theirs = result.posterior_matrix.loc[model_a, model_b]
            ours = (
                report.posteriors.p_better[i, j],
                report.posteriors.p_equal[i, j],
                report.posteriors.p_better[j, i],
            )
            diffs.append(np.abs(np.subtract(theirs, ours)))
    diffs_arr = np.array(diffs)

    print(
        f"fixture: {args.csv.name} ({len(matrix.models)} models x {len(matrix.tasks)} tasks, "
        f"{len(diffs)} pairs, {args.nsamples} posterior draws per pair)"
    )
    print(
        f"machine: {os.cpu_count()} CPUs, {platform.processor() or platform.machine()}, "
        f"Python {platform.python_version()}, NumPy {np.__version__}"
    )
    print(f"autorank (approach='bayesian'): {autorank_s:8.2f} s")
    print(
        f"seebench compare_models:        {seebench_s:8.2f} s  (best of {args.repeat}: "
        + ", ".join(f"{t:.2f}" for t in seebench_times)
        + ")"
    )
    print(f"speed-up: {autorank_s / seebench_s:.1f}x")
    print(f"same ranking order: {order == list(report.models)}")
    print(f"largest posterior difference: {diffs_arr.max():.4f} (mean {diffs_arr.mean():.4f})")


if __name__ == "__main__":
    main()
