"""Discovering tasks in the registered task directories.

A YAML file that fails to load is kept as a :class:`BrokenTask` with its problems, so that
``seebench tasks list`` shows it instead of silently skipping it. Besides the directories
plugins register, ``--include-path DIR`` adds directories for one command
(:func:`set_include_paths`), without writing a plugin.
"""

from __future__ import annotations

import difflib
import os
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path

from seebench.errors import SeebenchError, TaskSpecError
from seebench.registry import Registry, TaskDirEntry
from seebench.tasks import index_cache
from seebench.tasks.index_cache import IndexCache
from seebench.tasks.spec import TaskSpec

#: set to 1 to read every task file and leave the on-disk task index cache alone
NO_CACHE_ENV = "SEEBENCH_NO_TASK_CACHE"


@dataclass(frozen=True)
class BrokenTask:
    """A task file that could not be loaded, with one message per problem."""

    path: Path
    name: str
    suite: str | None
    plugin: str
    problems: tuple[str, ...]


@dataclass(frozen=True)
class TaskSummary:
    """What ``seebench tasks list`` shows of a valid task, without building its spec."""

    name: str
    suite: str
    type: str
    version: str
    metric: str  # the primary metric
    family: str | None
    activity: str | None
    file: str  # the task file (a string: building 14,000 Paths is not free)

    @property
    def path(self) -> Path:
        return Path(self.file)

    @classmethod
    def of(cls, spec: TaskSpec) -> TaskSummary:
        return cls(
            spec.name,
            spec.suite,
            spec.type,
            spec.version,
            spec.primary_metric,
            spec.family if isinstance(spec.family, str) else None,
            spec.activity if isinstance(spec.activity, str) else None,
            str(spec.path),
        )


class LazyTasks(Mapping[str, TaskSpec]):
    """Task name -> :class:`TaskSpec`, building each spec (from the index cache) on first use."""

    def __init__(
        self,
        summaries: dict[str, TaskSummary],
        built: dict[str, TaskSpec],
        build: Callable[[str], TaskSpec],
    ):
        self._summaries = summaries
        self._built = built
        self._build = build

    def __getitem__(self, name: str) -> TaskSpec:
        spec = self._built.get(name)
        if spec is None:
            if name not in self._summaries:
                raise KeyError(name)
            spec = self._built[name] = self._build(name)
        return spec

    def __contains__(self, name: object) -> bool:
        return name in self._summaries

    def __iter__(self) -> Iterator[str]:
        return iter(self._summaries)

    def __len__(self) -> int:
        return len(self._summaries)


@dataclass(frozen=True)
class TaskIndex:
    """All tasks found in the registered directories.

    ``tasks`` maps names to full specs, built on first access; ``summaries`` holds what a
    listing needs without building any spec."""

    tasks: Mapping[str, TaskSpec]
    broken: tuple[BrokenTask, ...]
    origins: dict[str, str]  # task name -> plugin
    summaries: dict[str, TaskSummary] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not self.summaries:  # none given: summarise the specs
            summaries = {name: TaskSummary.of(spec) for name, spec in self.tasks.items()}
            object.__setattr__(self, "summaries", summaries)

    def get(self, name: str) -> TaskSpec:
        """The task named ``name``; a clear error if unknown or broken."""
        if name in self.tasks:
            return self.tasks[name]
        for broken in self.broken:
            if broken.name == name:
                raise SeebenchError(f"task {name!r} is invalid: {broken.problems[0]}")
        hint = self._did_you_mean(name)
        raise SeebenchError(f"unknown task {name!r}{hint}; see 'seebench tasks list'")

    def _did_you_mean(self, name: str) -> str:
        """``" (did you mean 'x'?)"`` for the closest task or suite names, else ``""``."""
        candidates = [*self.summaries, *self.suites(), *(b.name for b in self.broken)]
        close = difflib.get_close_matches(name, candidates, n=3, cutoff=0.6)
        if not close:
            return ""
        return " (did you mean " + " or ".join(repr(c) for c in dict.fromkeys(close)) + "?)"

    def suites(self) -> list[str]:
        """The suites of the valid tasks, sorted."""
        return sorted({t.suite for t in self.summaries.values()})

    def check_suite(self, suite: str) -> None:
        """Raise a clear error (with a did-you-mean) unless some task, even a broken one, is in ``suite``."""
        if suite in self.suites() or any(b.suite == suite for b in self.broken):
            return
        close = difflib.get_close_matches(suite, self.suites(), n=3, cutoff=0.6)
        hint = " (did you mean " + " or ".join(map(repr, close)) + "?)" if close else ""
        raise SeebenchError(f"unknown suite {suite!r}{hint}; known: {', '.join(self.suites())}")

    def select(self, selector: str) -> list[TaskSpec]:
        """Tasks for ``--tasks``: ``all``, a suite name, or comma-separated task names."""
        selector = selector.strip()
        if selector == "all":
            ordered = sorted(self.summaries.values(), key=lambda t: (t.suite, t.name))
            return [self.tasks[t.name] for t in ordered]
        selected: list[TaskSpec] = []
        for part in (p.strip() for p in selector.split(",")):
            if not part:
                continue
            if part in self.tasks:
                chosen = [self.tasks[part]]
            elif part in self.suites():
                chosen = [
                    self.tasks[t.name]
                    for t in sorted(self.summaries.values(), key=lambda t: t.name)
                    if t.suite == part
                ]
            else:
                chosen = [self.get(part)]  # raises with the reason
            selected.extend(t for t in chosen if t not in selected)
        if not selected:
            raise SeebenchError(f"--tasks {selector!r} selects no task")
        return selected


def _task_files(directory: Path) -> list[str]:
    """The task YAMLs under ``directory`` (``_*`` files are bases to include), sorted as paths."""
    files: list[str] = []
    parents = 0
    for parent, _, names in os.walk(directory):
        prefix = parent + os.sep
        found = [prefix + n for n in names if n.endswith((".yaml", ".yml")) and n[0] != "_"]
        parents += bool(found)
        files += found
    if parents > 1:  # order as Path objects do, part by part
        files.sort(key=lambda f: f.split(os.sep))
    else:  # one folder: plain string order is the same
        files.sort()
    return files


#: Where tasks of an ``--include-path`` directory come from (``origins``, ``tasks list``).
INCLUDE_PATH_ORIGIN = "--include-path"

_include_paths: tuple[Path, ...] = ()


def set_include_paths(paths: Iterable[Path | str]) -> None:
    """Use these directories of task YAMLs (``--include-path``) besides the registered ones,
    for the rest of the process; a path that is not a directory is a one-line error."""
    global _include_paths
    checked = []
    for raw in paths:
        path = Path(raw).expanduser()
        if not path.is_dir():
            raise SeebenchError(f"--include-path {raw}: not a directory")
        checked.append(path.resolve())
    _include_paths = tuple(dict.fromkeys(checked))
    _include_generation[0] += 1


_include_generation = [0]  # bumped by every set_include_paths: the folders' tasks may change


def include_paths() -> tuple[tuple[Path, ...], int]:
    """The folders given to :func:`set_include_paths` (``--include-path``) and a number that
    changes with every call (a process-wide index built before is stale then)."""
    return _include_paths, _include_generation[0]


def build_task_index(
    registry: Registry, include_paths: Iterable[Path] = (), use_cache: bool = True
) -> TaskIndex:
    """Load every task YAML from every registered directory, then from ``include_paths``.

    Files unchanged since the last build are not parsed again: their records come from the
    on-disk cache (:mod:`seebench.tasks.index_cache`), and their specs are built on first use.
    ``use_cache=False`` reads every file and leaves the cache alone."""
    built_ns = time.time_ns()  # before any file is looked at (see index_cache.RACY_NS)
    included = [TaskDirEntry(Path(p), None, INCLUDE_PATH_ORIGIN) for p in include_paths]
    entries = [*registry.task_dirs, *included]
    cache = (
        IndexCache.for_registry(registry, [(str(e.path), e.suite) for e in entries])
        if use_cache and os.environ.get(NO_CACHE_ENV, "") in ("", "0")
        else None
    )
    stats: dict[str, index_cache.Stat] = {}
    digests: dict[str, str | None] = {}
    records: dict[str, index_cache.Record] = {}
    changed = False
    summaries: dict[str, TaskSummary] = {}
    documents: dict[str, index_cache.Record] = {}
    built: dict[str, TaskSpec] = {}
    origins: dict[str, str] = {}
    broken: list[BrokenTask] = []
    found: list[tuple[TaskDirEntry, str, str, index_cache.Record | None]] = []
    for entry in entries:
        for file in _task_files(entry.path):
            key = index_cache.record_key(file, entry.suite)
            record = cache.lookup(key, stats, digests) if cache is not None else None
            changed |= record is not None and record.refreshed
            found.append((entry, file, key, record))
    read = _read_tasks(
        [(file, entry.suite) for entry, file, _, cached in found if cached is None], registry
    )
    for entry, file, key, record in found:
        spec = None
        fresh = record is None
        if record is None:
            record, spec, failure = read[(file, entry.suite)]
            if failure is not None:  # a validator bug: listed, never cached
                broken.append(_broken(file, None, entry, failure))
                continue
        if record.problems is not None:
            records[key] = record
            changed |= fresh
            broken.append(_broken(file, None, entry, tuple(record.problems)))
            continue
        summary = _summary(record, file) if spec is None else TaskSummary.of(spec)
        if record.has_document():  # else (a date in it, say) read again next time
            records[key] = record
            changed |= fresh
        if summary.name in summaries:
            other = summaries[summary.name].file
            problem = f"{file}: name: task {summary.name!r} is already defined in {other}"
            broken.append(_broken(file, summary, entry, (problem,)))
            continue
        summaries[summary.name] = summary
        origins[summary.name] = entry.plugin
        documents[summary.name] = record
        if spec is not None:
            built[summary.name] = spec
    if cache is not None and (changed or records.keys() != cache.records.keys()):
        cache.write(records, built_ns)

    def build(name: str) -> TaskSpec:
        return _spec_from_record(documents[name], summaries[name], registry)

    return TaskIndex(LazyTasks(summaries, built, build), tuple(broken), origins, summaries)


def _read_tasks(
    files: list[tuple[str, str | None]], registry: Registry
) -> dict[tuple[str, str | None], _Read]:
    """:func:`_read_task` of each ``(file, default suite)``: here, or shared with forked
    processes when there are many (see :func:`_workers`)."""
    if not files:
        return {}
    workers = _workers(len(files))
    if workers > 1:
        try:
            return _read_in_parallel(files, registry, workers)
        except Exception:  # no processes to be had (or one died): read them here
            pass
    return dict(zip(files, _read_chunk(files, registry), strict=True))


#: below this many task files to read, they are read in this process; from it on, shared
#: with forked processes (measured at 1,000 files: forking and sending the records back cost
#: 0.04 to 0.07 s of CPU, what reading about 100 files does, and halve the reading's wall time
#: when a CPU is free)
PARALLEL_MIN_FILES = 400
#: the most processes a task index build reads in (this one included)
MAX_WORKERS = 8


def _workers(count: int) -> int:
    """How many processes read ``count`` task files: 1 (this one) unless there are at least
    :data:`PARALLEL_MIN_FILES`, several CPUs, fork, and no other thread (forking a process
    with threads can copy a lock another thread holds). The load average is not consulted:
    on a 2-core machine it stays high while another program runs even where forking still
    pays (14,000 tasks: 5.7 s against 8.9 s alone at a load average of 2); forking onto CPUs
    kept busy costs about 0.2 s at 1,000 tasks."""
    import threading

    if count < PARALLEL_MIN_FILES or threading.active_count() > 1 or not hasattr(os, "fork"):
        return 1
    try:
        cpus = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cpus = os.cpu_count() or 1
    return max(1, min(cpus, MAX_WORKERS, count // max(1, PARALLEL_MIN_FILES // 2)))


_Read = tuple[index_cache.Record, TaskSpec | None, tuple[str, ...] | None]


def _read_chunk(files: list[tuple[str, str | None]], registry: Registry) -> list[_Read]:
    """:func:`_read_task` of each ``(file, default suite)``, reading shared bases once.

    The cyclic garbage collector is paused meanwhile: task documents hold no cycles, and its
    passes over every document read so far grow with their number (about a sixth of the CPU
    time of reading 14,000 tasks)."""
    import gc

    from seebench.tasks.yaml_loader import shared_includes

    collecting = gc.isenabled()
    gc.disable()
    try:
        with shared_includes() as shared:
            return [_read_task(Path(f), registry, suite, shared.digests) for f, suite in files]
    finally:
        if collecting:
            gc.enable()


def _read_in_parallel(
    files: list[tuple[str, str | None]], registry: Registry, workers: int
) -> dict[tuple[str, str | None], _Read]:
    """:func:`_read_chunk` shared, in order, between this process (the first share) and
    ``workers - 1`` forked ones, each of which sends back its records (pickled, through a
    pipe: from a copy of this process, never from disk) and exits. Raises if a process could
    not be started or did not deliver its share (the caller then reads everything here)."""
    import pickle

    size = -(-len(files) // workers)
    chunks = [files[start : start + size] for start in range(0, len(files), size)]
    children: list[tuple[int, int]] = []  # (pid, read end of its pipe)
    try:
        for chunk in chunks[1:]:
            read_end, write_end = os.pipe()
            pid = os.fork()
            if pid == 0:  # pragma: no cover - the child (coverage does not follow it)
                _send_share(chunk, registry, read_end, write_end)
            os.close(write_end)
            children.append((pid, read_end))
        results = _read_chunk(chunks[0], registry)
        for _, read_end in children:
            with open(read_end, "rb", closefd=False) as pipe:
                share = pickle.load(pipe)
            if not isinstance(share, list):
                raise RuntimeError("a task reading process sent no records")
            results += share
    finally:
        for pid, read_end in children:
            os.close(read_end)
            os.waitpid(pid, 0)
    return dict(zip(files, results, strict=True))


def _send_share(
    chunk: list[tuple[str, str | None]], registry: Registry, read_end: int, write_end: int
) -> None:
    """In a forked process: read ``chunk``, write its records (specs are built on first use,
    from them) to ``write_end``, and leave at once (no clean-up of the parent's state)."""
    import pickle

    status = 1
    try:
        os.close(read_end)
        share = [(record, None, failure) for record, _, failure in _read_chunk(chunk, registry)]
        with open(write_end, "wb") as pipe:
            pickle.dump(share, pipe, protocol=pickle.HIGHEST_PROTOCOL)
        status = 0
    finally:
        os._exit(status)


def _read_task(
    path: Path, registry: Registry, default_suite: str | None, digests: dict[str, str]
) -> tuple[index_cache.Record, TaskSpec | None, tuple[str, ...] | None]:
    """Parse and validate one task file: its record, its spec if valid, or an unexpected
    failure (a validator bug, which must not hide the other tasks). ``digests`` holds the
    content digest of each file as parsed (:func:`~seebench.tasks.yaml_loader.shared_includes`)."""
    from seebench.tasks.validate import load_task  # jsonschema: only imported when needed

    files: list[Path] = []
    stats: dict[str, index_cache.Stat] = {}
    try:
        spec = load_task(path, registry, default_suite=default_suite, files=files)
    except TaskSpecError as exc:
        deps = _deps(files or [path], stats, digests)
        return index_cache.Record(deps, problems=list(exc.problems)), None, None
    except Exception as exc:
        problem = f"{path}: could not be loaded: {type(exc).__name__}: {exc}".replace("\n", " ")
        return index_cache.Record([]), None, (problem,)
    document = index_cache.document_json(spec.raw)
    summary = TaskSummary.of(spec)
    record = index_cache.Record(
        _deps(files, stats, digests),
        summary=(
            summary.name,
            summary.suite,
            summary.type,
            summary.version,
            summary.metric,
            summary.family,
            summary.activity,
        ),
        document=document,
        digest=index_cache.digest(document) if document is not None else "",
    )
    return record, spec, None


def _deps(
    files: list[Path], stats: dict[str, index_cache.Stat], digests: dict[str, str]
) -> list[tuple[str, int, int, str]]:
    """``(path, size, mtime_ns, digest)`` of each file a task was read from; the digest is
    that of the bytes parsed (``""`` for a file not parsed: a missing include, say)."""
    deps = {}
    for file in files:
        name = str(file)
        deps[name] = (*index_cache.file_stat(name, stats), digests.get(name, ""))
    return [(path, size, mtime, digest) for path, (size, mtime, digest) in deps.items()]


def _broken(
    file: str, summary: TaskSummary | None, entry: TaskDirEntry, problems: tuple[str, ...]
) -> BrokenTask:
    path = Path(file)
    if summary is None:
        return BrokenTask(path, path.stem, entry.suite, entry.plugin, problems)
    return BrokenTask(path, summary.name, summary.suite, entry.plugin, problems)


def _summary(record: index_cache.Record, file: str) -> TaskSummary:
    assert record.summary is not None
    return TaskSummary(*(*record.summary, file))


def _spec_from_record(
    record: index_cache.Record, summary: TaskSummary, registry: Registry
) -> TaskSpec:
    """The full spec of a cached task: its document checked against its digest and summary,
    else (a damaged cache) the task file read again."""
    document = index_cache.decode_document(record)
    if document is not None:
        try:
            spec = TaskSpec.from_document(
                document, summary.path, registry.task_type(document["type"]).load()
            )
        except Exception:
            spec = None
        if spec is not None and TaskSummary.of(spec) == replace(summary, file=str(spec.path)):
            return spec
    from seebench.tasks.validate import load_task

    default_suite = None if record.summary is None else record.summary[1]
    try:
        return load_task(summary.path, registry, default_suite=default_suite)
    except TaskSpecError as exc:
        raise SeebenchError(f"task {summary.name!r} is invalid: {exc.problems[0]}") from None
