"""Merging the result directories of shards (``seebench results merge DIR... --out DIR``).

Every result is verified first (as ``seebench results check`` does). A unit present in several
directories must hold the same result in each (same run-config hash, status, samples checksum
and metrics); two different complete results for one unit are a conflict and nothing is
written. A complete result wins over a failed or skipped one. Files are copied atomically,
samples before results, so an interrupted merge leaves nothing a rerun would trust wrongly.
"""

from __future__ import annotations

import json
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from seebench.errors import SeebenchError
from seebench.results.io import artifacts_dir, atomic_write_text
from seebench.results.verify import verify_result

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


def _visible_results(directory: Path) -> list[Path]:
    return sorted(
        p
        for p in directory.rglob("*.json")
        if not any(part.startswith(".") for part in p.relative_to(directory).parts)
    )


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
    for relative, item in chosen.items():
        target = out / relative
        if item.root == out:
            report.kept += 1
            continue
        if target.exists() and verify_result(target).result == item.result:
            report.kept += 1
            continue
        samples = item.result.get("samples_file")
        if samples:
            atomic_write_text(
                target.with_name(samples),
                (item.path.parent / samples).read_text(encoding="utf-8"),
            )
        source_artifacts = artifacts_dir(item.path)
        if source_artifacts.is_dir():
            shutil.copytree(source_artifacts, artifacts_dir(target), dirs_exist_ok=True)
        atomic_write_text(target, item.path.read_text(encoding="utf-8"))
        report.copied += 1
    for root in inputs:  # keep the shards' event logs next to the merged results
        logs = Path(root) / ".seebench"
        if logs.is_dir() and Path(root).resolve() != out.resolve():
            for log in logs.glob("events-*.jsonl"):
                (out / ".seebench").mkdir(parents=True, exist_ok=True)
                shutil.copy2(log, out / ".seebench" / log.name)
    return report
