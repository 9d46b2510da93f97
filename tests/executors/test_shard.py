"""--shard auto/N from Slurm array and Kubernetes Indexed Job variables."""

from __future__ import annotations

import pytest

from seebench.errors import SeebenchError
from seebench.executors.shard import resolve_shard


def test_plain_shards_are_unchanged():
    assert resolve_shard("2/4", {}) == (2, 4)


@pytest.mark.parametrize(
    ("environ", "expected"),
    [
        ({"SLURM_ARRAY_TASK_ID": "0"}, (1, 2)),
        ({"SLURM_ARRAY_TASK_ID": "1"}, (2, 2)),
        ({"SLURM_ARRAY_TASK_ID": "2", "SLURM_ARRAY_TASK_MIN": "1"}, (2, 2)),
        ({"JOB_COMPLETION_INDEX": "1"}, (2, 2)),
    ],
)
def test_auto_takes_the_array_index(environ, expected):
    assert resolve_shard("auto/2", environ) == expected


def test_auto_errors_are_one_line():
    with pytest.raises(SeebenchError, match="neither SLURM_ARRAY_TASK_ID nor JOB_COMPLETION_INDEX"):
        resolve_shard("auto/2", {})
    with pytest.raises(SeebenchError, match="SLURM_ARRAY_TASK_ID=2 is shard 3 of 2"):
        resolve_shard("auto/2", {"SLURM_ARRAY_TASK_ID": "2"})
    with pytest.raises(SeebenchError, match="not an integer"):
        resolve_shard("auto/2", {"JOB_COMPLETION_INDEX": "x"})
    with pytest.raises(SeebenchError, match="expected auto/N"):
        resolve_shard("auto/two", {})
