"""The on-disk cache of the task index, so that unchanged task YAMLs are not parsed again.

One cache file per plugin configuration lives in ``$SEEBENCH_HOME/cache/tasks/``, named by a
fingerprint of everything a task's validity depends on besides its own files: the seebench
version, the task schema, the installed plugins and their versions, what they registered (task
types with their schemas, metrics, scorers, methods, readers, steps) and the task directories
scanned (the modules by their content, so reinstalling the same version keeps the cache).
Each record is keyed by a task file's path and default suite, and stores the path, size,
``mtime_ns`` and content digest of every file the task was read from (itself and its
``include:`` chain).

A record is reused when all those files are unchanged: a file with the size and mtime it had,
last modified well before the cache was built (a file rewritten within the same clock tick as it
was read could otherwise keep its old mtime: git's "racy" entries), is taken as unchanged; any
other file (touched, checked out or reinstalled again, or too recent) is read and compared by
its digest, so only files whose content changed are parsed and validated again. A valid task's record carries the summary that
``seebench tasks list`` prints and, separately, its merged document as JSON with a digest,
decoded only when the full :class:`~seebench.tasks.spec.TaskSpec` is asked for. A broken task's
record carries its problems.

The file is read as untrusted input: a corrupt, truncated or foreign-version cache is ignored
(and rebuilt), a malformed record is re-parsed from its YAML; it is written atomically.

File layout: a magic line, one JSON header line, then the documents (JSON, back to back;
records give their offset and length in characters).
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from seebench import safe_files
from seebench.registry import Registry

MAGIC = "SEEBENCH-TASK-INDEX 2\n"
#: files modified less than this before a build are re-read by the next one
RACY_NS = 1_000_000_000
#: cache files kept (one per plugin configuration); the least recently written go first
MAX_CACHE_FILES = 16
#: what a valid task's record keeps for ``tasks list`` (the primary metric as ``metric``)
SUMMARY_FIELDS = ("name", "suite", "type", "version", "metric", "family", "activity")
MISSING = (-1, -1)  # (size, mtime_ns) of a dependency that did not exist

Stat = tuple[int, int]
#: the most bytes of a task file read to compare its digest (as the task loader reads)
DIGEST_MAX_BYTES = 16 * 1024 * 1024


def content_digest(data: bytes) -> str:
    """The digest a record keeps of a file's content."""
    return hashlib.sha256(data).hexdigest()[:32]


def file_digest(path: str, memo: dict[str, str | None]) -> str | None:
    """:func:`content_digest` of the file at ``path`` now (``None`` if unreadable), memoised."""
    if path not in memo:
        try:
            memo[path] = content_digest(safe_files.read_bytes(path, DIGEST_MAX_BYTES))
        except OSError:
            memo[path] = None
    return memo[path]


def cache_dir() -> Path:
    """Where task index caches live: ``$SEEBENCH_HOME/cache/tasks``."""
    from seebench.home import seebench_home

    return seebench_home() / "cache" / "tasks"


def file_stat(path: str, memo: dict[str, Stat]) -> Stat:
    """``(size, mtime_ns)`` of ``path`` (:data:`MISSING` if absent), memoised per build."""
    stat = memo.get(path)
    if stat is None:
        try:
            st = os.stat(path)
            stat = (st.st_size, st.st_mtime_ns)
        except OSError:
            stat = MISSING
        memo[path] = stat
    return stat


def _describe(value: Any, modules: set[str]) -> Any:
    """A stable JSON-able stand-in for a registered object (its import path, not its id);
    the modules that define objects are added to ``modules``."""
    if isinstance(value, (str, int, float, bool)) or value is None:
        return value
    if isinstance(value, dict):
        return {str(k): _describe(v, modules) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        items = [_describe(v, modules) for v in value]
        return sorted(items, key=repr) if isinstance(value, (set, frozenset)) else items
    target = value if isinstance(value, type) or callable(value) else type(value)
    module = getattr(target, "__module__", None)
    if isinstance(module, str):
        modules.add(module)
    return f"{module}:{getattr(target, '__qualname__', repr(target))}"


def _source_digests(modules: Iterable[str]) -> list[tuple[str, str | None]]:
    """``(file, content digest)`` of the task loading code and of the loaded modules that
    define registered objects: editing a plugin module (or seebench itself) without a new
    version still invalidates the cache; reinstalling the same files does not."""
    files = {str(p) for p in Path(__file__).parent.glob("*.py")}
    for name in modules:
        file = getattr(sys.modules.get(name), "__file__", None)
        if isinstance(file, str):
            files.add(file)
    digests: dict[str, str | None] = {}
    return [(f, file_digest(f, digests)) for f in sorted(files)]


def fingerprint(registry: Registry, directories: Iterable[tuple[str, str | None]]) -> str:
    """A hash of everything besides the task files that decides what a task file validates to."""
    from seebench import __version__

    schema = resources.files("seebench.tasks").joinpath("schema/task.schema.json").read_bytes()
    tables = {}
    modules: set[str] = set()
    for table in ("task_types", "metrics", "scorers", "methods", "data_readers", "prepare_steps"):
        tables[table] = {
            name: {
                k: _describe(v, modules) for k, v in vars(entry).items() if not k.startswith("_")
            }
            for name, entry in sorted(getattr(registry, table).items())
        }
    blob = json.dumps(
        {
            "format": MAGIC,
            "seebench": __version__,
            "schema": hashlib.sha256(schema).hexdigest(),
            "distributions": sorted(registry.distributions.items()),
            "registry": tables,
            "sources": _source_digests(modules),
            "directories": [list(d) for d in directories],
        },
        sort_keys=True,
        default=repr,
    )
    return hashlib.sha256(blob.encode()).hexdigest()


@dataclass(slots=True)
class Record:
    """What the cache knows about one task file."""

    deps: list[tuple[str, int, int, str]]  # (path, size, mtime_ns, digest) of each file read
    problems: list[str] | None = None  # a broken task's problems
    summary: tuple[Any, ...] | None = None  # a valid task's SUMMARY_FIELDS, in that order
    document: str | None = None  # a valid task's merged document, JSON...
    digest: str = ""  # ...and its digest, checked when it is decoded
    # a cached record's document is cut from the cache file's text only when asked for
    source: str = ""
    offset: int = 0
    length: int = 0
    refreshed: bool = False  # reused by content: its files' new stats are worth writing

    def has_document(self) -> bool:
        """Whether the record keeps a document (else the task is read again each time)."""
        return self.document is not None or self.length > 0

    def document_text(self) -> str | None:
        if self.document is None and self.length:
            self.document = self.source[self.offset : self.offset + self.length]
        return self.document


def document_json(document: dict[str, Any]) -> str | None:
    """``document`` as JSON, or ``None`` when JSON would not give it back unchanged (dates)."""
    try:
        text = json.dumps(document, ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError):
        return None
    if json.loads(text) != document:
        return None
    return text


def decode_document(record: Record) -> dict[str, Any] | None:
    """The record's document, or ``None`` when it fails its digest or does not decode."""
    text = record.document_text()
    if text is None or digest(text) != record.digest:
        return None
    try:
        document = json.loads(text)
    except ValueError:
        return None
    return document if isinstance(document, dict) else None


def digest(document: str) -> str:
    """The digest a record keeps of its document."""
    return hashlib.sha256(document.encode()).hexdigest()[:32]


def _parse_record(raw: list[Any], files: list[str], blob: str) -> Record | None:
    """One header record ``[key, deps, problems | summary, offset, length, digest]`` (each
    dependency ``[index in files, size, mtime_ns, content digest or ""]``), checked: ``None`` unless every field has
    the expected type and the document lies inside ``blob``."""
    if len(raw) != 6:
        return None
    _, deps, payload, offset, length, doc_digest = raw
    if type(deps) is not list or not deps or type(payload) is not list or not payload:
        return None
    checked = []
    for dep in deps:
        if type(dep) is not list or len(dep) != 4:
            return None
        index, size, mtime_ns, content = dep
        if type(index) is not int or type(size) is not int or type(mtime_ns) is not int:
            return None
        if not 0 <= index < len(files) or type(content) is not str:
            return None
        checked.append((files[index], size, mtime_ns, content))
    if type(offset) is not int or type(length) is not int or type(doc_digest) is not str:
        return None
    if not doc_digest:  # broken: the payload lists its problems
        for problem in payload:
            if type(problem) is not str:
                return None
        return Record(checked, problems=payload)
    if len(payload) != 7:
        return None
    name, suite, type_name, version, metric, family, activity = payload
    if not (
        type(name) is str
        and type(suite) is str
        and type(type_name) is str
        and type(version) is str
        and type(metric) is str
        and (family is None or type(family) is str)
        and (activity is None or type(activity) is str)
    ):
        return None
    if offset < 0 or length <= 0 or offset + length > len(blob):
        return None
    return Record(
        checked,
        summary=tuple(payload),
        digest=doc_digest,
        source=blob,
        offset=offset,
        length=length,
    )


def record_key(path: Path | str, default_suite: str | None) -> str:
    return f"{default_suite or ''}\x00{path}"


class IndexCache:
    """The records of one cache file, read leniently and written atomically."""

    def __init__(self, path: Path, fingerprint: str):
        self.path = path
        self.fingerprint = fingerprint
        self.records: dict[str, list[Any]] = {}  # key -> the raw record, checked on lookup
        self._files: list[str] = []
        self._blob = ""
        self.built_ns = 0

    @classmethod
    def for_registry(
        cls, registry: Registry, directories: Iterable[tuple[str, str | None]]
    ) -> IndexCache:
        """The cache for this plugin configuration, with whatever it could read back."""
        fp = fingerprint(registry, directories)
        cache = cls(cache_dir() / f"index-{fp[:24]}.bin", fp)
        cache.read()
        return cache

    def read(self) -> None:
        """Load the records; a missing, corrupt, truncated or foreign file yields none."""
        try:
            data = safe_files.read_text(self.path, 1024 * 1024 * 1024)
        except (OSError, UnicodeDecodeError):
            return
        if not data.startswith(MAGIC):
            return
        end = data.find("\n", len(MAGIC))
        if end < 0:
            return
        try:
            header = json.loads(data[len(MAGIC) : end])
        except ValueError:
            return
        blob = data[end + 1 :]
        if not (
            isinstance(header, dict)
            and header.get("fingerprint") == self.fingerprint
            and type(header.get("built_ns")) is int
            and header.get("documents_size") == len(blob)
            and isinstance(header.get("records"), list)
            and isinstance(header.get("files"), list)
            and all(type(f) is str for f in header["files"])
        ):
            return
        self.built_ns = header["built_ns"]
        self._files = header["files"]
        self._blob = blob
        for raw in header["records"]:
            if type(raw) is list and raw and type(raw[0]) is str:
                self.records[raw[0]] = raw

    def lookup(
        self, key: str, stats: dict[str, Stat], digests: dict[str, str | None]
    ) -> Record | None:
        """The record of ``key`` if every file it was read from is unchanged: by its size
        and mtime when those are the same and not racy, else by its content digest (the
        record is then ``refreshed`` with the files' new stats)."""
        raw = self.records.get(key)
        record = None if raw is None else _parse_record(raw, self._files, self._blob)
        if record is None:
            return None
        trusted_before = self.built_ns - RACY_NS
        for i, (path, size, mtime_ns, content) in enumerate(record.deps):
            now = file_stat(path, stats)
            if now == (size, mtime_ns) and (now == MISSING or mtime_ns < trusted_before):
                continue
            if now == MISSING or (size, mtime_ns) == MISSING or now[0] != size or not content:
                return None
            if file_digest(path, digests) != content:
                return None
            record.deps[i] = (path, *now, content)
            record.refreshed = True
        return record

    def write(self, records: dict[str, Record], built_ns: int) -> None:
        """Replace the cache file with ``records`` (best effort: an unwritable home is fine)."""
        from seebench.results.io import atomic_write_text

        files: dict[str, int] = {}
        documents: list[str] = []
        size = 0
        entries = []
        for key, record in records.items():
            deps = [[files.setdefault(path, len(files)), *rest] for path, *rest in record.deps]
            if record.problems is not None:
                entries.append([key, deps, record.problems, 0, 0, ""])
                continue
            text = record.document_text()
            assert text is not None and record.summary is not None
            entries.append([key, deps, list(record.summary), size, len(text), record.digest])
            documents.append(text)
            size += len(text)
        header = {
            "fingerprint": self.fingerprint,
            "built_ns": built_ns,
            "documents_size": size,
            "files": list(files),
            "records": entries,
        }
        text = MAGIC + json.dumps(header, ensure_ascii=False) + "\n" + "".join(documents)
        try:
            atomic_write_text(self.path, text)
            _prune(self.path.parent)
        except OSError:
            pass


def _prune(directory: Path) -> None:
    """Keep the :data:`MAX_CACHE_FILES` most recently written cache files."""
    files = sorted(directory.glob("index-*.bin"), key=lambda p: p.stat().st_mtime_ns)
    for stale in files[:-MAX_CACHE_FILES]:
        stale.unlink(missing_ok=True)
