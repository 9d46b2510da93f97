"""What ``seebench data`` does: fetch, import by checksum, and report status per task."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from seebench.data.cache import sha256_file, store_file
from seebench.data.sources import Source, fetch_source, task_sources
from seebench.errors import DataMissingError, SeebenchError
from seebench.registry import Registry
from seebench.tasks.spec import TaskSpec


@dataclass
class ImportReport:
    """Files imported into the cache from a directory, and sources still missing."""

    imported: list[tuple[str, Path]] = field(default_factory=list)  # (sha256, source file)
    already: int = 0
    scanned: int = 0


def wanted_checksums(tasks: list[TaskSpec]) -> dict[str, Source]:
    """Every declared sha256 of the given tasks (first source that declares it)."""
    wanted: dict[str, Source] = {}
    for task in tasks:
        for source in task_sources(task):
            if source.sha256 and source.sha256 not in wanted:
                wanted[source.sha256] = source
    return wanted


def import_directory(directory: Path, tasks: list[TaskSpec]) -> ImportReport:
    """Copy files found anywhere under ``directory`` whose sha256 a task declares."""
    if not directory.is_dir():
        raise SeebenchError(f"{directory}: not a directory")
    wanted = wanted_checksums(tasks)
    report = ImportReport()
    sizes_seen: set[int] = set()
    for path in sorted(p for p in directory.rglob("*") if p.is_file()):
        report.scanned += 1
        sizes_seen.add(path.stat().st_size)
        digest = sha256_file(path)
        source = wanted.get(digest)
        if source is None:
            continue
        if source.locate() is not None:
            report.already += 1
        else:
            store_file(path, digest, source.file_name)
            report.imported.append((digest, path))
    return report


def fetch_tasks(tasks: list[TaskSpec]) -> list[tuple[Source, str | None]]:
    """Download every missing source; returns (source, error or None) per source."""
    results = []
    for task in tasks:
        for source in task_sources(task):
            if source.locate() is not None:
                results.append((source, None))
                continue
            try:
                fetch_source(source)
                results.append((source, None))
            except DataMissingError as exc:
                results.append((source, str(exc)))
    return results


def task_status(task: TaskSpec, registry: Registry, prepare: bool = True) -> dict[str, Any]:
    """Files present/missing, prepared rows and label counts of one task."""
    files = []
    for source in task_sources(task):
        local = source.locate()
        files.append({
            "name": source.name, "file": source.file_name, "present": local is not None,
            "sha256": source.sha256, "url": source.url, "path": str(local) if local else None,
        })
    status: dict[str, Any] = {
        "task": task.name, "suite": task.suite, "type": task.type, "files": files,
        "present": all(f["present"] for f in files), "rows": None, "labels": None, "error": None,
    }
    if status["present"] and prepare:
        from seebench.data.dataset import prepare_rows, read_rows, rows_to_samples

        try:
            rows, _ = read_rows(task, registry)
            samples = rows_to_samples(task, prepare_rows(task, rows, registry))
            status["rows"] = len(samples)
            status["labels"] = label_counts(task, [s.target for s in samples])
        except SeebenchError as exc:
            status["error"] = str(exc)
    return status


def label_counts(task: TaskSpec, targets: list[Any]) -> dict[str, Any] | None:
    """Counts per label (classification), per entity type (NER) or a range (regression)."""
    if task.type in ("binary", "multiclass"):
        return dict(Counter(targets))
    if task.type == "multilabel":
        return dict(Counter(label for t in targets for label in t))
    if task.type == "ner":
        return dict(Counter(tag[2:] for t in targets for tag in t if tag.startswith("B-")))
    if task.type == "regression" and targets:
        return {"min": min(targets), "max": max(targets), "mean": sum(targets) / len(targets)}
    return None
