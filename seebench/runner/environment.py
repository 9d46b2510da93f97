"""What a result records about the software and hardware it was produced with.

``seebench reproduce`` compares these records between a published result and its rerun, to
name the likely cause of a difference within tolerance (thread counts, the BLAS library).
"""

from __future__ import annotations

import functools
import os
import platform
import subprocess
import sys
from importlib import metadata
from pathlib import Path
from typing import Any

TRACKED_DISTRIBUTIONS = (
    "seebench",
    "numpy",
    "scipy",
    "pandas",
    "scikit-learn",
    "seqeval",
    "torch",
    "transformers",
    "tokenizers",
    "peft",
    "accelerate",
    "deepspeed",
    "xgboost",
    "xgboost-cpu",
    "fasttext-numpy2-wheel",
    "httpx",
    "aiohttp",
)

#: Environment variables that set how many threads numerical libraries use.
THREAD_VARIABLES = (
    "OMP_NUM_THREADS",
    "MKL_NUM_THREADS",
    "OPENBLAS_NUM_THREADS",
    "BLIS_NUM_THREADS",
    "VECLIB_MAXIMUM_THREADS",
    "NUMEXPR_NUM_THREADS",
)


@functools.cache
def environment() -> dict:
    """Python, platform, versions of the installed distributions that affect results, the
    seebench source commit (when run from a git checkout) and the hardware."""
    packages = {}
    for name in TRACKED_DISTRIBUTIONS:
        try:
            packages[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            continue
    record: dict[str, Any] = {
        "python": sys.version.split()[0],
        "platform": platform.platform(),
        "packages": packages,
        "hardware": hardware(),
    }
    source = source_commit()
    if source:
        record["seebench_source"] = source
    return record


def hardware() -> dict[str, Any]:
    """The CPU, the CPUs this process may use, the thread settings and the BLAS libraries
    loaded (what makes floating-point results differ between machines)."""
    usable = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return {
        "machine": platform.machine(),
        "cpu": _cpu_model(),
        "cpu_count": os.cpu_count(),
        "cpus_usable": usable,
        "thread_variables": {v: os.environ[v] for v in THREAD_VARIABLES if v in os.environ},
        "blas": _blas(),
        "torch_threads": _torch_threads(),
    }


def _torch_threads() -> int | None:
    """torch's intra-op threads when torch is loaded (never imported just to ask)."""
    torch = sys.modules.get("torch")
    try:
        return int(torch.get_num_threads()) if torch is not None else None
    except (AttributeError, RuntimeError, TypeError, ValueError):
        return None


def _cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text(encoding="utf-8").splitlines():
            if line.lower().startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def _blas() -> list[dict[str, Any]]:
    """Each BLAS/OpenMP library loaded now (name, version, threads), from threadpoolctl,
    sorted by API, library and version."""
    try:
        from threadpoolctl import threadpool_info
    except ImportError:  # pragma: no cover - a scikit-learn dependency, normally present
        return []
    found = [
        {
            "api": info.get("user_api"),
            "library": info.get("internal_api"),
            "version": info.get("version"),
            "threads": info.get("num_threads"),
        }
        for info in threadpool_info()
    ]
    # in a fixed order: threadpoolctl lists them in the order they were loaded, which differs
    # between runs whose threads imported numpy, scipy or xgboost in another order
    return sorted(found, key=lambda lib: [str(lib[k] or "") for k in ("api", "library", "version")])


def source_commit() -> dict[str, Any] | None:
    """``{"commit": sha, "dirty": bool}`` of the git checkout seebench runs from, or ``None``
    (an installed wheel, no git)."""
    root = Path(__file__).resolve().parents[2]
    if not (root / ".git").exists():
        return None
    try:
        head = subprocess.run(
            ["git", "-C", str(root), "rev-parse", "HEAD"],
            capture_output=True,
            text=True,
            timeout=10,
            check=True,
        ).stdout.strip()
        status = subprocess.run(
            [
                "git",
                "-C",
                str(root),
                "status",
                "--porcelain",
                "--untracked-files=no",
                "--",
                "seebench",
            ],
            capture_output=True,
            text=True,
            timeout=10,
            check=True,
        ).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    return {"commit": head, "dirty": bool(status.strip())}
