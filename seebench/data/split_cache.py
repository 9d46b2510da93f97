"""Seeded hold-out splits kept on disk, so that a fresh process does not split again.

A stratified hold-out imports scikit-learn and scipy (about a second) and an iterative
multi-label one loops over every item; both give the same assignment for the same input.
The assignment (which sample id went to train, validation and test, in order) is stored
under ``$SEEBENCH_HOME/cache/splits/`` keyed by everything it depends on: the samples' ids
and targets in order, the task's split policy and type, the seed, seebench's version and
the code that splits. Only hold-outs are kept (a published split file or predefined split
values are read, not computed).

Nothing read back is trusted: a file that is not exactly a partition of the samples' ids
into the known split names is ignored and the split is computed again (and the file
rewritten). A home that cannot be written only costs the split's time.
"""

from __future__ import annotations

import functools
import hashlib
import inspect
import json
import logging
from pathlib import Path
from typing import Any

from seebench.tasks.spec import TaskSpec

#: the format of a stored assignment; a new one ignores the old files
SPLIT_CACHE_VERSION = 1
#: the largest assignment file read back (a million ids fit many times over)
SPLIT_FILE_MAX_BYTES = 64 * 1024 * 1024

log = logging.getLogger(__name__)


def cacheable(task: TaskSpec, samples: list[Any]) -> bool:
    """Whether ``task``'s split of ``samples`` is a seeded hold-out with unique sample ids."""
    policy = task.split
    if policy.get("method") in ("none", "predefined") or policy.get("split_file"):
        return False
    if any("_split" in sample.meta for sample in samples):
        return False
    ids = [sample.id for sample in samples]
    return len(set(ids)) == len(ids)


def assignment_key(task: TaskSpec, samples: list[Any], seed: int) -> str:
    """The hex key of the split of ``samples`` for ``task`` with ``seed``."""
    import seebench

    hold_out = type(task.behaviour).hold_out
    blob = json.dumps(
        [
            SPLIT_CACHE_VERSION,
            seebench.__version__,
            _code_digest(),
            _source(hold_out),
            task.raw.get("type"),
            task.split,
            seed,
            [[sample.id, sample.target] for sample in samples],
        ],
        sort_keys=True,
        ensure_ascii=False,
        default=str,
    ).encode()
    return hashlib.sha256(blob).hexdigest()


def load_assignment(
    key: str, samples: list[Any], names: tuple[str, ...]
) -> dict[str, list[Any]] | None:
    """The stored split of ``samples`` under ``key``, or None (absent, unreadable, or not a
    partition of exactly these samples' ids into ``names``)."""
    from seebench.safe_files import read_text

    path = _path(key)
    try:
        stored = json.loads(read_text(path, limit=SPLIT_FILE_MAX_BYTES))
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as exc:
        log.debug("split cache %s ignored: %s", path, exc)
        return None
    return _as_splits(stored, key, samples, names)


def store_assignment(key: str, splits: dict[str, list[Any]]) -> None:
    """Keep ``splits`` (lists of samples) under ``key``; a failure to write is only logged."""
    from seebench.home import seebench_home
    from seebench.safe_files import atomic_write_text

    record = {
        "version": SPLIT_CACHE_VERSION,
        "key": key,
        "splits": {name: [sample.id for sample in part] for name, part in splits.items()},
    }
    path = _path(key)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write_text(path, json.dumps(record), root=seebench_home())
    except OSError as exc:
        log.debug("split cache %s not written: %s", path, exc)


def _as_splits(
    stored: Any, key: str, samples: list[Any], names: tuple[str, ...]
) -> dict[str, list[Any]] | None:
    """``stored`` as splits of ``samples`` when it is exactly a partition of their ids."""
    if not isinstance(stored, dict) or stored.get("version") != SPLIT_CACHE_VERSION:
        return None
    parts = stored.get("splits")
    if stored.get("key") != key or not isinstance(parts, dict) or set(parts) != set(names):
        return None
    by_id = {sample.id: sample for sample in samples}
    splits: dict[str, list[Any]] = {}
    seen: set[Any] = set()
    for name in names:
        ids = parts[name]
        if not isinstance(ids, list) or not all(isinstance(i, str) for i in ids):
            return None
        if len(set(ids)) != len(ids) or any(i not in by_id or i in seen for i in ids):
            return None
        seen.update(ids)
        splits[name] = [by_id[i] for i in ids]
    return splits if len(seen) == len(by_id) else None


def _path(key: str) -> Path:
    from seebench.home import seebench_home

    return seebench_home() / "cache" / "splits" / f"{key}.json"


@functools.lru_cache(maxsize=1)
def _code_digest() -> str:
    """The sha256 of the modules every hold-out goes through (the split primitives and the
    policy that calls them)."""
    from seebench.tasks import splits

    digest = hashlib.sha256()
    # the data layer's split policy lives beside this module (read, not imported: it imports us)
    for path in (Path(str(splits.__file__)), Path(__file__).with_name("dataset.py")):
        digest.update(path.read_bytes())
    return digest.hexdigest()


def _source(function: Any) -> str:
    """``function``'s source (its qualified name when the source is not available)."""
    try:
        return inspect.getsource(function)
    except (OSError, TypeError):
        return f"{getattr(function, '__module__', '')}.{getattr(function, '__qualname__', '')}"
