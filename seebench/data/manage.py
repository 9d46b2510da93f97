"""What ``seebench data`` does: fetch, import by checksum, and report status per task.

A task's files are its data sources plus, when declared, its published split file
(``split.split_file``). A source declared with ``sha256: unpinned`` is *unpinned*: its upstream
was not reachable when the task was written, so it cannot be verified and is never fetched
automatically; status and fetch say where to get it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from seebench.data.cache import cache_damage, cached_file, sha256_file, store_file
from seebench.data.external import describe
from seebench.data.sources import Source, fetch_source, task_sources
from seebench.data.split_files import split_file_source
from seebench.errors import DataMissingError, SeebenchError
from seebench.registry import Registry
from seebench.tasks.spec import TaskSpec


@dataclass
class ImportReport:
    """Files imported into the cache from a directory, and sources still missing."""

    imported: list[tuple[str, Path]] = field(default_factory=list)  # (sha256, source file)
    already: int = 0
    scanned: int = 0
    replaced: list[Path] = field(default_factory=list)  # imported over a damaged cached copy


def all_sources(task: TaskSpec) -> list[Source]:
    """The data sources of ``task`` followed by its split file, if it declares one."""
    sources = task_sources(task)
    split_source = split_file_source(task)
    return sources + [split_source] if split_source is not None else sources


def wanted_checksums(tasks: list[TaskSpec]) -> dict[str, Source]:
    """Every declared sha256 of the given tasks (first source that declares it)."""
    wanted: dict[str, Source] = {}
    for task in tasks:
        for declared in all_sources(task):
            for source in declared.handler.members(declared):
                if source.sha256 is None:  # never importable
                    continue
                if source.handler.importable(source) and source.sha256 not in wanted:
                    wanted[source.sha256] = source
    return wanted


def import_directory(
    directory: Path, tasks: list[TaskSpec], data_files: Iterable[Any] = ()
) -> ImportReport:
    """Copy files found anywhere under ``directory`` whose sha256 a task declares, or that a
    plugin registered as one of its data files (``register_data_files``: entries with
    ``sha256`` and ``file_name``)."""
    if not directory.is_dir():
        raise SeebenchError(f"{directory}: not a directory")
    wanted = wanted_checksums(tasks)
    plugin_files = {entry.sha256: entry for entry in data_files}
    report = ImportReport()
    for path in sorted(p for p in directory.rglob("*") if p.is_file()):
        report.scanned += 1
        digest = sha256_file(path)
        source = wanted.get(digest)
        if source is None and digest in plugin_files:
            if cached_file(digest) is not None:
                report.already += 1
                continue
            if cache_damage(digest):
                report.replaced.append(path)
            store_file(path, digest, plugin_files[digest].file_name)
            report.imported.append((digest, path))
            continue
        if source is None:
            continue
        if source.locate() is not None:
            report.already += 1
        else:
            if cache_damage(digest):
                report.replaced.append(path)
            store_file(path, digest, source.file_name)
            report.imported.append((digest, path))
    return report


def fetch_tasks(tasks: list[TaskSpec]) -> list[tuple[Source, str | None]]:
    """Download every missing file; returns (source, error or None) per file."""
    results: list[tuple[Source, str | None]] = []
    for task in tasks:
        for source in all_sources(task):
            if source.locate() is not None:
                results.append((source, None))
                continue
            if not source.pinned:
                results.append((source, unpinned_message(task, source)))
                continue
            try:
                fetch_source(source)
                results.append((source, None))
            except DataMissingError as exc:
                results.append((source, str(exc)))
    return results


def unpinned_message(task: TaskSpec, source: Source) -> str:
    """One line saying that ``source`` cannot be fetched automatically and where to get it."""
    where = source.url or "no url"
    declared = task.data.get("sources", [])
    homepage = declared[source.index].get("homepage") if 0 <= source.index < len(declared) else None
    extra = f" (dataset home: {homepage})" if homepage else ""
    return (
        f"task {task.name!r}: {source.file_name} is not available here and its sha256 is not "
        f"pinned in {task.path.name}; get it from {where}{extra}, then 'seebench data add "
        f"{task.name} FILE' records it (trust on first use)"
    )


def task_status(task: TaskSpec, registry: Registry, prepare: bool = True) -> dict[str, Any]:
    """Files present/missing, prepared rows, split sizes and label counts of one task."""
    files = []
    declared = task.data.get("sources", [])
    for source in all_sources(task):
        local = source.locate()
        raw = declared[source.index] if 0 <= source.index < len(declared) else {}
        files.append(
            {
                "name": source.name,
                "file": source.file_name,
                "present": local is not None,
                "kind": source.kind,
                "where": describe(source),
                "role": "split_file" if source.index < 0 else "data",
                "sha256": source.sha256,
                "pinned": source.pinned,
                "url": source.url,
                "homepage": raw.get("homepage"),
                "path": str(local) if local else None,
                "damaged": cache_damage(source.sha256)
                if local is None and source.sha256 and source.pinned
                else None,
            }
        )
    reference = task.tags.get("paper_instances")
    status: dict[str, Any] = {
        "task": task.name,
        "suite": task.suite,
        "type": task.type,
        "files": files,
        "present": all(f["present"] for f in files),
        "rows": None,
        "labels": None,
        "splits": None,
        "split_method": split_method(task),
        "reference_rows": _int(reference),
        "rows_vs_reference": None,
        "error": None,
        "notes": task.raw.get("notes"),
    }
    data_present = all(f["present"] for f in files if f["role"] == "data")
    if data_present and prepare:
        from seebench.data.dataset import (
            DEFAULT_SEED,
            prepare_rows,
            read_rows,
            rows_to_samples,
            split_samples,
        )

        try:
            rows, _ = read_rows(task, registry)
            samples = rows_to_samples(task, prepare_rows(task, rows, registry))
            status["rows"] = len(samples)
            status["labels"] = label_counts(task, [s.target for s in samples])
            if status["reference_rows"]:
                status["rows_vs_reference"] = len(samples) - status["reference_rows"]
            try:
                splits = split_samples(task, samples, DEFAULT_SEED)
                status["splits"] = {name: len(part) for name, part in splits.items()}
            except DataMissingError:
                pass  # the split file is missing: listed under files
        except SeebenchError as exc:
            status["error"] = str(exc)
        except Exception as exc:  # a reader or step bug must not hide the other tasks
            status["error"] = f"task {task.name!r}: {type(exc).__name__}: {exc}"
    return status


def split_method(task: TaskSpec) -> str:
    """How the task's data is split, in words."""
    policy = task.split
    if policy.get("split_file"):
        return f"split file ({policy['split_file'].get('column', 'fold_1')})"
    if policy.get("method") == "predefined" or any(s.split for s in task_sources(task)):
        return "predefined (the dataset's own)"
    if policy.get("method") == "none":
        return "none (evaluation only: every row is a test item)"
    if policy.get("stratify") is False:
        return "hold-out"
    return task.behaviour.split_description(task)


def _int(value: Any) -> int | None:
    try:
        return int(str(value).replace(",", ""))
    except (TypeError, ValueError):
        return None


def label_counts(task: TaskSpec, targets: list[Any]) -> dict[str, Any] | None:
    """The task type's summary of the targets (counts per label, a range...)."""
    return task.behaviour.summarise_targets(task, targets)
