"""The ``seebench`` entry points of the installed distributions, cached between runs.

Asking :mod:`importlib.metadata` for one group's entry points imports it (with :mod:`email`)
and reads every distribution's metadata: tens of milliseconds, each time seebench starts. The answer only changes when the installed distributions do, so it is kept in
``$SEEBENCH_HOME/cache/plugins/``, one file per key made of what it depends on: ``sys.path`` in
order and, in each of its folders, every ``*.dist-info`` and ``*.egg-info`` entry with the
size and modification time of its ``entry_points.txt`` and, where there is one, of its
``METADATA`` (or ``PKG-INFO``).
Installing, removing, upgrading or editing a distribution changes the key. The cache file is
read as untrusted input: a missing, damaged, foreign or stale file is ignored, and the
entry points are read from :mod:`importlib.metadata` again (and the file rewritten).

The key can be computed by anyone, so a file with the right key proves nothing about its
entries. Each entry names the ``*.dist-info`` (or ``*.egg-info``) folder that declares it, in
a ``sys.path`` folder, and is used only if that folder's ``entry_points.txt`` declares exactly
the cached entries of the group: a forged file cannot make seebench import a module that no
installed distribution names as a plugin, nor change an entry's value. (It could still leave
out every entry of one distribution: telling that would mean reading every distribution's
``entry_points.txt``, the work the cache saves.)

The cache is not used where the key cannot see every distribution: a ``sys.path`` entry
that is a file (a zip or an egg), or an import hook that finds distributions of its own.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import os
import sys
from dataclasses import dataclass, field
from typing import Any

#: bump when the file's layout changes
FORMAT = 2
#: the largest cache file read back
MAX_CACHE_BYTES = 1024 * 1024
#: cache files kept (one per environment); the least recently written go first
MAX_CACHE_FILES = 16
#: set to 1 to ask importlib.metadata every time (and leave the cache file alone)
NO_CACHE_ENV = "SEEBENCH_NO_PLUGIN_CACHE"


@dataclass(frozen=True)
class PluginEntryPoint:
    """One entry point of a group: its name, ``module[:attr]`` value and the distribution
    (name and version as its metadata gives them; ``None`` if unknown) that declares it.
    ``source`` is the distribution's metadata folder when known (what the cache checks its
    entries against)."""

    name: str
    value: str
    dist_name: str | None
    dist_version: str | None
    source: str | None = field(default=None, compare=False, repr=False)

    def load(self) -> Any:
        """Import the module and return the attribute the value names (as
        :meth:`importlib.metadata.EntryPoint.load` does)."""
        import importlib

        match = _value_pattern().match(self.value)
        if match is None:
            raise ValueError(f"invalid entry point value {self.value!r}")
        obj: Any = importlib.import_module(match.group("module"))
        for attr in filter(None, (match.group("attr") or "").split(".")):
            obj = getattr(obj, attr)
        return obj


@functools.cache
def _value_pattern() -> Any:
    import re

    # importlib.metadata.EntryPoint.pattern
    return re.compile(r"(?P<module>[\w.]+)\s*(:\s*(?P<attr>[\w.]+)\s*)?((?P<extras>\[.*\])\s*)?$")


def entry_points(group: str) -> list[PluginEntryPoint]:
    """The entry points of ``group``, in :func:`importlib.metadata.entry_points` order."""
    key = _environment_key(group)
    if key is None or os.environ.get(NO_CACHE_ENV, "") not in ("", "0"):
        return _scan(group)
    path = _cache_file(key)
    cached = _read_cache(path, key, group) if path is not None else None
    if cached is not None:
        return cached
    found = _scan(group)
    if path is not None and all(ep.source is not None for ep in found):
        _write_cache(path, key, group, found)
    return found


def _scan(group: str) -> list[PluginEntryPoint]:
    from importlib import metadata

    found = []
    for ep in metadata.entry_points(group=group):
        dist = ep.dist
        found.append(
            PluginEntryPoint(
                ep.name,
                ep.value,
                dist.name if dist is not None else None,
                dist.version if dist is not None else None,
                _metadata_folder(dist),
            )
        )
    return found


def _metadata_folder(dist: Any) -> str | None:
    """The ``*.dist-info`` or ``*.egg-info`` folder a distribution was read from, or None
    (a distribution found some other way: nothing the cache could check it against)."""
    folder = getattr(dist, "_path", None)  # PathDistribution's folder (pip reads it too)
    if folder is None or not os.path.isdir(folder):
        return None
    folder = os.fspath(folder)
    return folder if folder.lower().endswith((".dist-info", ".egg-info")) else None


def _environment_key(group: str) -> str | None:
    """A digest of everything the entry points of ``group`` depend on, or ``None`` when it
    cannot be told cheaply (see the module docstring)."""
    for finder in sys.meta_path:
        if hasattr(finder, "find_distributions") and not _is_path_finder(finder):
            return None
    parts: list[Any] = [FORMAT, group, sys.version]
    for entry in sys.path:
        folder = entry or "."
        try:
            names = os.listdir(folder)
        except NotADirectoryError:
            return None  # a zip or an egg: its distributions are not seen here
        except OSError:
            parts.append([entry, None])
            continue
        infos: list[list[Any]] = []
        for name in sorted(names):
            lower = name.lower()
            if not lower.endswith((".dist-info", ".egg-info")):
                continue
            base = os.path.join(folder, name)
            declared = _stat(os.path.join(base, "entry_points.txt"))
            if declared is None:  # no entry points: its metadata does not matter
                infos.append([name, None])
                continue
            metadata = [_stat(os.path.join(base, f)) for f in ("METADATA", "PKG-INFO")]
            infos.append([name, declared, *metadata])
        parts.append([entry, infos])
    return hashlib.sha256(json.dumps(parts).encode()).hexdigest()


def _stat(path: str) -> list[int] | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return [st.st_size, st.st_mtime_ns]


def _is_path_finder(finder: Any) -> bool:
    """Whether ``finder`` finds distributions only in the ``sys.path`` folders the key reads:
    the standard ``PathFinder``, or the ``importlib_metadata`` backport's finder, which puts
    itself on ``sys.meta_path`` when a library imports the backport."""
    from importlib.machinery import PathFinder

    if finder is PathFinder or isinstance(finder, PathFinder):
        return True
    backport = sys.modules.get("importlib_metadata")
    path_finder = getattr(backport, "MetadataPathFinder", None)
    return isinstance(path_finder, type) and isinstance(finder, path_finder)


def _cache_file(key: str) -> Any:
    """The cache file of one environment (one per key: ``python -m`` and the ``seebench``
    script see different ``sys.path``), or ``None`` without a home."""
    try:
        from seebench.home import seebench_home

        return seebench_home() / "cache" / "plugins" / f"entry-points-{key[:24]}.json"
    except Exception:  # no home to be had: no cache
        return None


def _read_cache(path: Any, key: str, group: str) -> list[PluginEntryPoint] | None:
    """The cached entry points if the file holds exactly the expected shape for ``key`` and
    ``group``, and every entry is declared as cached (:func:`_declared_as_cached`)."""
    from seebench import safe_files

    try:
        data = json.loads(safe_files.read_text(path, MAX_CACHE_BYTES))
    except (OSError, UnicodeDecodeError, ValueError):
        return None
    if not (
        isinstance(data, dict)
        and data.get("format") == FORMAT
        and data.get("key") == key
        and data.get("group") == group
        and isinstance(data.get("entry_points"), list)
    ):
        return None
    found = []
    for item in data["entry_points"]:
        if not (
            type(item) is list
            and len(item) == 5
            and type(item[0]) is str
            and type(item[1]) is str
            and type(item[4]) is str
            and all(value is None or type(value) is str for value in item[2:4])
        ):
            return None
        found.append(PluginEntryPoint(*item))
    return found if _declared_as_cached(found, group) else None


def _declared_as_cached(found: list[PluginEntryPoint], group: str) -> bool:
    """Whether every metadata folder the entries name lies in a ``sys.path`` folder and its
    ``entry_points.txt`` declares, in ``group``, exactly the entries cached for it."""
    from seebench import safe_files

    by_source: dict[str, list[tuple[str, str]]] = {}
    for ep in found:
        by_source.setdefault(str(ep.source), []).append((ep.name, ep.value))
    path_folders = {os.path.abspath(entry or ".") for entry in sys.path}
    for source, cached in by_source.items():
        parent, name = os.path.split(os.path.abspath(source))
        if parent not in path_folders or not name.lower().endswith((".dist-info", ".egg-info")):
            return False
        try:
            text = safe_files.read_text(os.path.join(parent, name, "entry_points.txt"), 1 << 20)
        except (OSError, UnicodeDecodeError):
            return False
        if sorted(_declared(text, group)) != sorted(cached):
            return False
    return True


def _declared(text: str, group: str) -> list[tuple[str, str]]:
    """The ``(name, value)`` entries of ``group`` in an ``entry_points.txt``, read as
    :mod:`importlib.metadata` reads it (stripped lines, ``#`` and ``;`` comments skipped,
    each entry split at its first ``=``)."""
    entries, section = [], None
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("[") and line.endswith("]"):
            section = line[1:-1].strip()
        elif section == group:
            name, _, value = line.partition("=")
            entries.append((name.strip(), value.strip()))
    return entries


def _write_cache(path: Any, key: str, group: str, found: list[PluginEntryPoint]) -> None:
    """Write the cache file atomically (best effort: an unwritable home is fine)."""
    from seebench import safe_files

    rows = [[ep.name, ep.value, ep.dist_name, ep.dist_version, ep.source] for ep in found]
    body = {"format": FORMAT, "key": key, "group": group, "entry_points": rows}
    with contextlib.suppress(OSError):
        safe_files.atomic_write_text(path, json.dumps(body))
        stale = sorted(path.parent.glob("entry-points-*.json"), key=lambda p: p.stat().st_mtime_ns)
        for old in stale[:-MAX_CACHE_FILES]:
            old.unlink(missing_ok=True)
