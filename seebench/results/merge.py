"""Merging the result directories of shards (``seebench results merge DIR... --out DIR``).

Every result is verified first (as ``seebench results check`` does). A unit present in several
directories must hold the same result in each (same run-config hash, status, samples checksum
and metrics); two different complete results for one unit are a conflict and nothing is
written. A complete result wins over a failed or skipped one. Files are copied atomically,
samples and artifacts before results, so an interrupted merge leaves nothing a rerun would
trust wrongly.

A merge copies only what seebench wrote, and never through a link: the result, its samples
file, the regular files of its ``<task>.artifacts/`` folder (scorer caches, sandbox verdicts)
and the shards' event logs. A symbolic link (to a file or a folder) or anything but a regular
file in a shard is left behind and counted in :attr:`MergeReport.skipped`; no folder below
``--out`` that a copy goes through may be a link.
"""

from __future__ import annotations

import json
import os
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from seebench import safe_files
from seebench.errors import SeebenchError
from seebench.results.io import RESULT_MAX_BYTES, artifacts_dir
from seebench.results.samples import SAMPLES_MAX_BYTES
from seebench.results.verify import verify_result

#: The largest artifact file copied (verdicts and score caches are far smaller).
ARTIFACT_MAX_BYTES = SAMPLES_MAX_BYTES

COMPLETE = ("ok", "not_applicable")


@dataclass
class _Found:
    root: Path
    path: Path
    result: dict[str, Any]

    @property
    def complete(self) -> bool:
        return self.result.get("status") in COMPLETE

    def fingerprint(self) -> tuple[Any, ...]:
        r = self.result
        return (
            r.get("run", {}).get("config_hash"),
            r.get("status"),
            r.get("samples_sha256"),
            json.dumps(r.get("metrics", {}), sort_keys=True),
        )


@dataclass
class MergeReport:
    """What a merge did (or, with ``problems``, why it wrote nothing)."""

    copied: int = 0
    identical: int = 0
    kept: int = 0
    problems: list[str] = field(default_factory=list)
    #: Paths in the shards that were not copied: links, FIFOs, devices.
    skipped: list[str] = field(default_factory=list)


def _visible_results(directory: Path) -> list[Path]:
    """``*.json`` below ``directory`` outside hidden folders and units' artifacts folders,
    without entering a linked folder (a linked result file is listed: verification refuses
    it)."""
    found = []
    for folder, dirs, files in os.walk(directory, followlinks=False):
        dirs[:] = [d for d in dirs if not d.startswith(".") and not d.endswith(".artifacts")]
        found += [Path(folder) / name for name in files if name.endswith(".json")]
    return sorted(p for p in found if not p.name.startswith("."))


def _difference(a: _Found, b: _Found) -> str:
    names = ("run-config hash", "status", "samples sha256", "metrics")
    for name, x, y in zip(names, a.fingerprint(), b.fingerprint(), strict=True):
        if x != y:
            shown = (str(x)[:16], str(y)[:16]) if name != "metrics" else ("...", "...")
            return f"{name} {shown[0]} vs {shown[1]}"
    return "?"


def plan_merge(inputs: list[Path], out: Path) -> tuple[dict[Path, _Found], MergeReport]:
    """Verify every input and pick one result per unit; problems are listed, not raised."""
    report = MergeReport()
    found: dict[Path, list[_Found]] = {}
    roots = [Path(p) for p in inputs]
    if out.is_dir():
        roots.append(out)
    for root in roots:
        if not root.is_dir():
            raise SeebenchError(f"{root}: not a directory")
        for path in _visible_results(root):
            check = verify_result(path)
            if check.problem:
                report.problems.append(f"BROKEN    {check.problem}")
                continue
            if check.result is not None:
                found.setdefault(path.relative_to(root), []).append(
                    _Found(root, path, check.result)
                )
    chosen: dict[Path, _Found] = {}
    for relative, candidates in sorted(found.items()):
        complete = [c for c in candidates if c.complete]
        pool = complete or candidates
        first = pool[0]
        for other in pool[1:]:
            if complete and other.fingerprint() != first.fingerprint():
                report.problems.append(
                    f"CONFLICT  {relative}: {first.root} and {other.root} hold different results "
                    f"({_difference(first, other)})"
                )
                break
            report.identical += 1
        if not complete:  # only failed or skipped results: keep the newest
            first = max(candidates, key=lambda c: str(c.result.get("created_at", "")))
        chosen[relative] = first
    return chosen, report


def merge_results(inputs: list[Path], out: Path) -> MergeReport:
    """Merge ``inputs`` into ``out``; see the module docstring. With problems (a broken
    result, a conflict) nothing is written and the report lists them."""
    out = Path(out)
    chosen, report = plan_merge(inputs, out)
    if report.problems:
        return report
    safe_files.add_root(out)
    for relative, item in chosen.items():
        target = out / relative
        if item.root == out or (target.exists() and verify_result(target).result == item.result):
            report.kept += 1
            continue
        _copy_unit(item, target, report)
        report.copied += 1
    for root in inputs:  # keep the shards' event logs next to the merged results
        logs = Path(root) / ".seebench"
        if _real_folder(logs) and Path(root).resolve() != out.resolve():
            for log in sorted(logs.glob("events-*.jsonl")):
                _copy_file(log, out / ".seebench" / log.name, SAMPLES_MAX_BYTES, report)
    return report


def _copy_unit(item: _Found, target: Path, report: MergeReport) -> None:
    """Copy one verified unit: samples, artifacts, then the result (the commit)."""
    samples = item.result.get("samples_file")
    if samples:
        data = safe_files.read_bytes(item.path.parent / samples, SAMPLES_MAX_BYTES, follow=False)
        safe_files.atomic_write_bytes(target.with_name(samples), data)
    source_artifacts = artifacts_dir(item.path)
    if _real_folder(source_artifacts):
        _copy_tree(source_artifacts, artifacts_dir(target), report)
    data = safe_files.read_bytes(item.path, RESULT_MAX_BYTES, follow=False)
    safe_files.atomic_write_bytes(target, data)


def _real_folder(path: Path) -> bool:
    """Whether ``path`` is a folder and not a link to one."""
    try:
        return stat.S_ISDIR(os.lstat(path).st_mode)
    except OSError:
        return False


def _copy_tree(source: Path, target: Path, report: MergeReport) -> None:
    """Copy the regular files below ``source`` to ``target``, never entering a linked folder
    and never copying a link; what is left behind is listed in ``report.skipped``."""
    for folder, dirs, files in os.walk(source, followlinks=False):
        here = Path(folder)
        for name in list(dirs):
            if not _real_folder(here / name):
                dirs.remove(name)
                report.skipped.append(str(here / name))
        for name in files:
            relative = (here / name).relative_to(source)
            _copy_file(here / name, target / relative, ARTIFACT_MAX_BYTES, report)


def _copy_file(source: Path, target: Path, limit: int, report: MergeReport) -> None:
    """Copy ``source`` if it is a regular file (not a link) within ``limit``; else skip it."""
    try:
        data = safe_files.read_bytes(source, limit, follow=False)
    except OSError:  # a link, a FIFO, a device, too large
        report.skipped.append(str(source))
        return
    safe_files.atomic_write_bytes(target, data)
