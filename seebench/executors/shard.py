"""``--shard auto/N``: the shard index from the job array that started this process.

Slurm array jobs set ``SLURM_ARRAY_TASK_ID`` (and ``SLURM_ARRAY_TASK_MIN``, so ``--array=1-4``
works as well as ``--array=0-3``); Kubernetes Indexed Jobs set ``JOB_COMPLETION_INDEX`` (from
0). Either becomes shard ``index - min + 1`` of ``N``.
"""

from __future__ import annotations

import os
from collections.abc import Mapping

from seebench.errors import SeebenchError
from seebench.runner.config import parse_shard

INDEX_VARIABLES = ("SLURM_ARRAY_TASK_ID", "JOB_COMPLETION_INDEX")


def resolve_shard(text: str, environ: Mapping[str, str] | None = None) -> tuple[int, int]:
    """``i/n`` as :func:`~seebench.runner.config.parse_shard` reads it, or ``auto/n`` with
    ``i`` taken from the job array's index variable."""
    environ = os.environ if environ is None else environ
    head, _, count = text.partition("/")
    if head.strip().lower() != "auto":
        return parse_shard(text)
    try:
        n = int(count)
    except ValueError:
        raise SeebenchError(f"--shard {text!r}: expected auto/N, e.g. auto/4") from None
    if n < 1:
        raise SeebenchError(f"--shard {text!r}: N must be at least 1")
    for name in INDEX_VARIABLES:
        raw = environ.get(name)
        if raw is None or raw == "":
            continue
        minimum = environ.get("SLURM_ARRAY_TASK_MIN", "0") if name.startswith("SLURM") else "0"
        try:
            index, low = int(raw), int(minimum)
        except ValueError:
            raise SeebenchError(f"--shard {text}: {name}={raw!r} is not an integer") from None
        i = index - low + 1
        if not 1 <= i <= n:
            raise SeebenchError(
                f"--shard {text}: {name}={raw} is shard {i} of {n}; the array has more "
                f"tasks than shards (make N the array's size)"
            )
        return i, n
    raise SeebenchError(
        f"--shard {text}: neither SLURM_ARRAY_TASK_ID nor JOB_COMPLETION_INDEX is set; run it "
        "from a Slurm array or a Kubernetes Indexed Job, or give the shard as i/N"
    )
