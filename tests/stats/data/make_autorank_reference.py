"""Generate the autorank reference posteriors for the SELU fixture (run once, commit the output).

autorank's Bayesian path samples 50,000 Dirichlet draws per pair in a Python loop and takes a
couple of minutes for the 28 x 20 SELU table, too slow for the test suite. This script runs it
once and writes ``autorank_selu_reference.json`` next to itself; ``test_bayesian.py`` compares
seebench against that file.

Usage::

    .venv/bin/python tests/stats/data/make_autorank_reference.py [FIXTURE_CSV]
"""

from __future__ import annotations

import contextlib
import io
import json
import sys
import time
from pathlib import Path

import pandas as pd
from autorank import autorank

HERE = Path(__file__).resolve().parent
DEFAULT_FIXTURE = HERE / "selu_table_vi.csv"  # a copy of the SELU paper's Table VI
RANDOM_STATE = 20250101
NSAMPLES = 50_000


def score_frame(csv_path: Path) -> pd.DataFrame:
    """Tasks as rows and models as columns, both in order of first appearance."""
    tidy = pd.read_csv(csv_path)
    models = list(dict.fromkeys(tidy["model"]))
    tasks = list(dict.fromkeys(tidy["task"]))
    return tidy.pivot(index="task", columns="model", values="score").loc[tasks, models]


def main() -> None:
    csv_path = Path(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT_FIXTURE
    data = score_frame(csv_path)
    start = time.perf_counter()
    with contextlib.redirect_stdout(io.StringIO()):  # autorank prints its rank table
        result = autorank(
            data,
            alpha=0.05,
            approach="bayesian",
            rope=0.1,
            rope_mode="effsize",
            nsamples=NSAMPLES,
            random_state=RANDOM_STATE,
        )
    seconds = time.perf_counter() - start
    order = list(result.rankdf.index)
    rankdf = result.rankdf
    pairs = []
    for i, model_a in enumerate(order):
        for model_b in order[i + 1 :]:
            p_a_better, p_equal, p_b_better = result.posterior_matrix.loc[model_a, model_b]
            pairs.append(
                {
                    "a": model_a,
                    "b": model_b,
                    "p_a_better": float(p_a_better),
                    "p_equal": float(p_equal),
                    "p_b_better": float(p_b_better),
                    "decision": str(result.decision_matrix.loc[model_a, model_b]),
                }
            )
    reference = {
        "source": csv_path.name,
        "call": "autorank(data, alpha=0.05, approach='bayesian', rope=0.1, rope_mode='effsize', "
        f"nsamples={NSAMPLES}, random_state={RANDOM_STATE})",
        "autorank_version": _version("autorank"),
        "baycomp_version": _version("baycomp"),
        "seconds": round(seconds, 1),
        "all_normal": bool(result.all_normal),
        "order": order,
        "ranking": [
            {
                "model": model,
                "mean": float(rankdf.at[model, "mean"]),
                "std": float(rankdf.at[model, "std"]),
                "ci_lower": float(rankdf.at[model, "ci_lower"]),
                "ci_upper": float(rankdf.at[model, "ci_upper"]),
                "effect_size": float(rankdf.at[model, "effect_size"]),
                "magnitude": str(rankdf.at[model, "magnitude"]),
            }
            for model in order
        ],
        "pairs": pairs,
    }
    out = HERE / "autorank_selu_reference.json"
    out.write_text(json.dumps(reference, indent=1) + "\n")
    print(f"wrote {out} ({len(pairs)} pairs, autorank took {seconds:.1f} s)")


def _version(dist: str) -> str:
    from importlib.metadata import version

    return version(dist)


if __name__ == "__main__":
    main()
