"""What a result records about the software it was produced with."""

from __future__ import annotations

import functools
import platform
import sys
from importlib import metadata

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


@functools.cache
def environment() -> dict:
    """Python, platform and versions of the installed distributions that affect results."""
    packages = {}
    for name in TRACKED_DISTRIBUTIONS:
        try:
            packages[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            continue
    return {
        "python": sys.version.split()[0],
        "platform": platform.platform(),
        "packages": packages,
    }
