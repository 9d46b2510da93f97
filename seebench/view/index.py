"""An index of one samples file, so that any page of a 100,000-sample unit opens at once.

Built in one streamed pass (constant memory besides the arrays), it holds per line: the byte
offset, the sample id and repeat, the first scorer's value and each named scorer's value, codes
of the gold and predicted labels, and flags (damaged line, invalid answer, wrong answer). It
also records the samples file's size, mtime, line count and sha256, which the viewer checks
against the result (``n``, ``samples_sha256``) exactly as ``eval`` checks a samples file.

The index is cached beside the samples file as ``.<samples file>.view-index.npz`` (or under
``$SEEBENCH_HOME/view-index/`` when the results folder is read-only) and trusted only when its
own digest, the samples file's size and mtime and its format version all match; otherwise it
is rebuilt. It is written without following links and read with ``allow_pickle=False``.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import math
import os
import tempfile
import threading
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from seebench.view.safety import Refused, inside, open_regular

INDEX_VERSION = 3
MAX_ID_CHARS = 128
MAX_LABELS = 2000
MAX_SCORERS = 16
MAX_INDEX_BYTES = 1 << 30
#: Indexes kept in memory (a 100,000-sample index takes about 3 MB).
MEMORY_SLOTS = 8
SEARCH_CHUNK = 8 * 1024 * 1024
_MEMORY: OrderedDict[tuple, SampleIndex] = OrderedDict()
_LOCK = threading.Lock()

#: Flag bits of :attr:`SampleIndex.flags`.
DAMAGED, INVALID, WRONG = 1, 2, 4

_ARRAYS = ("offsets", "ids", "repeats", "score", "flags", "gold", "pred", "hashes")


@dataclass
class SampleIndex:
    """The per-line arrays of one samples file; see the module docstring."""

    offsets: np.ndarray  # int64, n + 1 (the last one is the file size)
    ids: np.ndarray  # bytes (UTF-8, cut at MAX_ID_CHARS bytes), n
    repeats: np.ndarray  # int32, n
    score: np.ndarray  # float64, n (NaN: no score)
    flags: np.ndarray  # uint8, n
    gold: np.ndarray  # int32 label codes, -1: not a label
    pred: np.ndarray  # int32 label codes
    hashes: np.ndarray  # bytes: the record's input_hash (cut at MAX_ID_CHARS bytes), n
    scorers: dict[str, np.ndarray]  # name -> float64 values
    labels: list[str]
    meta: dict[str, Any]

    @property
    def n(self) -> int:
        return len(self.ids)

    @property
    def sha256(self) -> str:
        return self.meta["samples_sha256"]

    def digest(self) -> str:
        """sha256 over every array, in a fixed order (recorded in the cached file)."""
        h = hashlib.sha256()
        for name in _ARRAYS:
            h.update(np.ascontiguousarray(getattr(self, name)).tobytes())
        for name in sorted(self.scorers):
            h.update(name.encode())
            h.update(np.ascontiguousarray(self.scorers[name]).tobytes())
        h.update(json.dumps(self.labels).encode())
        return h.hexdigest()


def label_of(value: Any) -> str | None:
    """The label a gold or predicted value counts as in filters, or ``None`` for values that
    are not labels (dicts, long text)."""
    if isinstance(value, bool | int | str) and len(str(value)) <= 80:
        return str(value)
    if isinstance(value, float) and math.isfinite(value):
        return str(value)
    if (
        isinstance(value, list)
        and len(value) <= 20
        and all(isinstance(v, str | int) for v in value)
    ):
        return ", ".join(sorted(map(str, value))) or "(none)"
    return None


def _score_value(value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return math.nan
    return float(value) if math.isfinite(value) else math.nan


def build_index(samples: Path, root: Path) -> SampleIndex:
    """Read ``samples`` (a regular file inside ``root``) once and index every line."""
    fd = open_regular(samples, root)
    stat = os.fstat(fd)
    builder = _IndexBuilder()
    digest = hashlib.sha256()
    try:
        with os.fdopen(fd, "rb", closefd=True) as handle:
            tail = b""
            while chunk := handle.read(1 << 22):
                digest.update(chunk)
                lines = (tail + chunk).split(b"\n")
                tail = lines.pop()
                for line in lines:
                    builder.add(line + b"\n")
            if tail:
                builder.add(tail)
    except OSError as exc:
        raise Refused(f"cannot read: {exc.strerror or exc}") from None
    index = builder.finish(
        {
            "version": INDEX_VERSION,
            "samples_name": samples.name,
            "samples_size": stat.st_size,
            "samples_mtime_ns": stat.st_mtime_ns,
            "samples_sha256": digest.hexdigest(),
            "with_input": builder.with_input,
        }
    )
    index.meta["digest"] = index.digest()
    return index


class _IndexBuilder:
    """The per-line lists of :func:`build_index`, one line at a time."""

    def __init__(self) -> None:
        self.offsets: list[int] = [0]
        self.ids: list[bytes] = []
        self.repeats: list[int] = []
        self.score: list[float] = []
        self.flags: list[int] = []
        self.gold: list[int] = []
        self.pred: list[int] = []
        self.hashes: list[bytes] = []
        self.with_input = 0  # records that hold their input (else the viewer looks it up)
        self.scorer_values: dict[str, list[float]] = {}
        self.codes: dict[str, int] = {}

    def code(self, value: Any) -> int:
        """The label code of ``value`` (-1: not a label, or past :data:`MAX_LABELS`)."""
        label = label_of(value)
        if label is None:
            return -1
        if label not in self.codes:
            if len(self.codes) >= MAX_LABELS:
                return -1
            self.codes[label] = len(self.codes)
        return self.codes[label]

    def add(self, line: bytes) -> None:
        """Index one line (with its newline, if any)."""
        self.offsets.append(self.offsets[-1] + len(line))
        try:
            record = json.loads(line.rstrip(b"\n"))
        except (UnicodeDecodeError, json.JSONDecodeError, RecursionError, ValueError):
            record = None
        if not isinstance(record, dict) or "id" not in record:
            self._add_damaged()
            return
        row = len(self.ids)
        self.ids.append(str(record["id"]).encode("utf-8", "replace")[:MAX_ID_CHARS])
        repeat = record.get("repeat", 0)
        self.repeats.append(repeat if isinstance(repeat, int) and abs(repeat) < 2**31 else 0)
        value = _score_value(record.get("score"))
        self.score.append(value)
        self.flags.append(_flags(record, value))
        self.gold.append(self.code(record.get("gold")))
        self.pred.append(self.code(record.get("prediction")))
        input_hash = str(record.get("input_hash", "")).encode("utf-8", "replace")
        self.hashes.append(input_hash[:MAX_ID_CHARS])
        self.with_input += "input" in record
        self._add_scorers(record.get("scores"), row)

    def _add_damaged(self) -> None:
        self.ids.append(b"")
        self.repeats.append(0)
        self.score.append(math.nan)
        self.flags.append(DAMAGED)
        self.gold.append(-1)
        self.pred.append(-1)
        self.hashes.append(b"")
        for values in self.scorer_values.values():
            values.append(math.nan)

    def _add_scorers(self, named: Any, row: int) -> None:
        """Each named scorer's value on line ``row`` (NaN where a scorer has none; at most
        :data:`MAX_SCORERS` scorers)."""
        if isinstance(named, dict):
            for name, entry in named.items():
                if not isinstance(name, str):
                    continue
                if name not in self.scorer_values:
                    if len(self.scorer_values) >= MAX_SCORERS:
                        continue
                    self.scorer_values[name] = [math.nan] * row
                entry_value = entry.get("value") if isinstance(entry, dict) else None
                self.scorer_values[name].append(_score_value(entry_value))
        for values in self.scorer_values.values():
            if len(values) == row:
                values.append(math.nan)

    def finish(self, meta: dict[str, Any]) -> SampleIndex:
        width = max((len(i) for i in self.ids), default=1) or 1
        hash_width = max((len(h) for h in self.hashes), default=1) or 1
        return SampleIndex(
            offsets=np.asarray(self.offsets, dtype=np.int64),
            ids=np.asarray(self.ids, dtype=f"S{width}"),
            repeats=np.asarray(self.repeats, dtype=np.int32),
            score=np.asarray(self.score, dtype=np.float64),
            flags=np.asarray(self.flags, dtype=np.uint8),
            gold=np.asarray(self.gold, dtype=np.int32),
            pred=np.asarray(self.pred, dtype=np.int32),
            hashes=np.asarray(self.hashes, dtype=f"S{hash_width}"),
            scorers={k: np.asarray(v, dtype=np.float64) for k, v in self.scorer_values.items()},
            labels=list(self.codes),
            meta=meta,
        )


def _flags(record: dict[str, Any], value: float) -> int:
    """INVALID (no prediction, or an error) and WRONG (a score below 1, or unscored and not
    the gold) of one sample line."""
    flag = 0
    if record.get("prediction") is None or record.get("error"):
        flag |= INVALID
    if (not math.isnan(value) and value < 1.0) or (
        math.isnan(value) and "gold" in record and record.get("prediction") != record["gold"]
    ):
        flag |= WRONG
    return flag


def _to_bytes(index: SampleIndex) -> bytes:
    arrays = {name: getattr(index, name) for name in _ARRAYS}
    for position, (_name, values) in enumerate(sorted(index.scorers.items())):
        arrays[f"scorer{position}"] = values
    meta = {**index.meta, "labels": index.labels, "scorers": sorted(index.scorers)}
    arrays["meta"] = np.frombuffer(json.dumps(meta).encode(), dtype=np.uint8)
    buffer = io.BytesIO()
    np.savez(buffer, **arrays)
    return buffer.getvalue()


def _from_bytes(data: bytes) -> SampleIndex:
    with np.load(io.BytesIO(data), allow_pickle=False) as npz:
        meta = json.loads(npz["meta"].tobytes().decode())
        scorers = {name: npz[f"scorer{i}"] for i, name in enumerate(meta.pop("scorers"))}
        labels = meta.pop("labels")
        arrays = {name: npz[name] for name in _ARRAYS}
    return SampleIndex(**arrays, scorers=scorers, labels=labels, meta=meta)


def clear_memory() -> None:
    """Forget the indexes (and the search text) kept in memory (the cached files stay)."""
    with _LOCK:
        _MEMORY.clear()
        _SEARCH_TEXT.clear()


def cache_paths(samples: Path) -> list[Path]:
    """Where the index of ``samples`` is cached: beside it, else under the seebench home."""
    from seebench.data.cache import seebench_home

    key = hashlib.sha256(str(samples).encode()).hexdigest()[:24]
    return [
        samples.with_name(f".{samples.name}.view-index.npz"),
        seebench_home() / "view-index" / f"{key}.npz",
    ]


def load_index(samples: Path, root: Path, rebuild: bool = False) -> tuple[SampleIndex, str]:
    """The index of ``samples``: a verified cached one, else a new one (cached if possible).

    Returns it with where it came from (``"memory"``, ``"cache"`` or ``"built"``); the last
    :data:`MEMORY_SLOTS` indexes stay in memory. ``rebuild`` ignores both caches (when the
    file's hash no longer matches the cached index's)."""
    samples = inside(samples, root)
    try:
        info = os.stat(samples)
    except OSError as exc:
        raise Refused(f"cannot read: {exc.strerror or exc}") from None
    key = (str(samples), info.st_size, info.st_mtime_ns, info.st_ino)
    with _LOCK:
        if not rebuild and key in _MEMORY:
            _MEMORY.move_to_end(key)
            return _MEMORY[key], "memory"
    found: tuple[SampleIndex, str] | None = None
    for path in () if rebuild else cache_paths(samples):
        cached = _read_cached(path, info)
        if cached is not None:
            found = (cached, "cache")
            break
    if found is None:
        index = build_index(samples, root)
        data = _to_bytes(index)
        for path in cache_paths(samples):
            if _write_cached(path, data):
                break
        found = (index, "built")
    with _LOCK:
        _MEMORY[key] = found[0]
        while len(_MEMORY) > MEMORY_SLOTS:
            _MEMORY.popitem(last=False)
    return found


def _read_cached(path: Path, info: os.stat_result) -> SampleIndex | None:
    try:
        st = os.lstat(path)
        if not _is_regular(st.st_mode) or st.st_size > MAX_INDEX_BYTES:
            return None
        with open(path, "rb") as handle:
            index = _from_bytes(handle.read())
    except (OSError, ValueError, KeyError, TypeError, json.JSONDecodeError, UnicodeDecodeError):
        return None
    except Exception:  # a truncated or forged npz: rebuild, never crash  # noqa: BLE001
        return None
    meta = index.meta
    if (
        meta.get("version") != INDEX_VERSION
        or meta.get("samples_size") != info.st_size
        or meta.get("samples_mtime_ns") != info.st_mtime_ns
        or meta.get("digest") != index.digest()
        or len(index.offsets) != index.n + 1
        or int(index.offsets[-1]) != info.st_size
        or int(index.offsets[0]) != 0
        or bool(np.any(np.diff(index.offsets) < 0))
        or any(len(getattr(index, name)) != index.n for name in _ARRAYS[1:])
        or any(len(values) != index.n for values in index.scorers.values())
    ):
        return None
    return index


def _is_regular(mode: int) -> bool:
    import stat as stat_module

    return stat_module.S_ISREG(mode)


def _write_cached(path: Path, data: bytes) -> bool:
    """Write atomically without following links; ``False`` where the folder is not writable."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    except OSError:
        return False
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.replace(tmp, path)  # replaces a link at ``path`` itself, never its target
        return True
    except OSError:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        return False


@dataclass(frozen=True)
class SampleFilter:
    """Which samples a page lists: text search and filters, all optional."""

    query: str = ""
    wrong: bool = False
    invalid: bool = False
    damaged: bool = False
    label: str = ""
    scorer: str = ""
    min_value: float | None = None
    max_value: float | None = None
    #: order: ``""`` (file order), ``id``, ``score`` or a scorer's name; ``desc`` reverses
    sort: str = ""
    desc: bool = False

    @property
    def active(self) -> bool:
        return self != SampleFilter()


def select(
    index: SampleIndex,
    samples: Path,
    root: Path,
    wanted: SampleFilter,
    input_hits: np.ndarray | None = None,
) -> np.ndarray:
    """Line numbers of the samples that pass ``wanted``, in file order. ``input_hits`` are
    lines whose input (not stored in the file, looked up) holds the query: they match too."""
    mask = np.ones(index.n, dtype=bool)
    if wanted.wrong:
        mask &= (index.flags & WRONG) != 0
    if wanted.invalid:
        mask &= (index.flags & INVALID) != 0
    if wanted.damaged:
        mask &= (index.flags & DAMAGED) != 0
    if wanted.label:
        code = index.labels.index(wanted.label) if wanted.label in index.labels else -2
        mask &= (index.gold == code) | (index.pred == code)
    if wanted.min_value is not None or wanted.max_value is not None:
        values = index.scorers.get(wanted.scorer, index.score) if wanted.scorer else index.score
        with np.errstate(invalid="ignore"):
            if wanted.min_value is not None:
                mask &= values >= wanted.min_value
            if wanted.max_value is not None:
                mask &= values <= wanted.max_value
    rows = np.flatnonzero(mask)
    if wanted.query and len(rows):
        hits = search(index, samples, root, wanted.query)
        if input_hits is not None and len(input_hits):
            hits = np.union1d(hits, input_hits)
        rows = np.intersect1d(rows, hits, assume_unique=True)
    return order(index, rows, wanted.sort, wanted.desc)


def order(index: SampleIndex, rows: np.ndarray, by: str, desc: bool = False) -> np.ndarray:
    """``rows`` sorted by ``by`` (``id``, ``score`` or a scorer's name; anything else: file
    order), ties in file order; samples without a value come last either way."""
    if by == "id":
        keys = index.ids[rows]
    elif by == "score" or by in index.scorers:
        keys = (index.score if by == "score" else index.scorers[by])[rows]
        if desc:
            keys = -keys  # NaN stays NaN, which argsort puts last
            desc = False
    else:
        return rows[::-1] if desc and by == "line" else rows
    ranked = rows[np.argsort(keys, kind="stable")]
    return ranked[::-1] if desc else ranked


def search(index: SampleIndex, samples: Path, root: Path, query: str) -> np.ndarray:
    """Line numbers whose JSON text holds ``query`` (case-insensitive for ASCII letters).

    The file's text is lower-cased once and kept for the next search of the same file (one
    file of at most :data:`SEARCH_CACHE_BYTES`; a larger one is read in chunks of
    :data:`SEARCH_CHUNK` bytes each time, so memory stays bounded whatever the size); the
    matches' offsets are mapped to their lines in one vectorised step."""
    needle = json.dumps(query, ensure_ascii=False)[1:-1].encode("utf-8").lower()
    if not needle:
        return np.arange(index.n, dtype=np.int64)
    size = int(index.offsets[-1])
    found: list[np.ndarray] = []
    for base, chunk in _lowered_chunks(index, samples, root, size, len(needle) - 1):
        starts, position = [], 0
        while (at := chunk.find(needle, position)) != -1:
            starts.append(at)
            end = chunk.find(b"\n", at + len(needle))  # one match per line is enough
            position = at + 1 if end == -1 else end + 1
        if starts:
            found.append(np.asarray(starts, dtype=np.int64) + base)
    if not found:
        return np.zeros(0, dtype=np.int64)
    lines = np.searchsorted(index.offsets, np.concatenate(found), side="right") - 1
    return np.unique(lines)


#: The largest samples file whose lower-cased text is kept for the next search.
SEARCH_CACHE_BYTES = 256 * 1024 * 1024
_SEARCH_TEXT: dict[tuple, tuple[int, list[tuple[int, bytes]]]] = {}


def _lowered_chunks(index: SampleIndex, samples: Path, root: Path, size: int, overlap: int):
    """``(file offset, lower-cased bytes)`` covering the file, each chunk starting ``overlap``
    bytes before the previous one ended; kept for the next search of a file of at most
    :data:`SEARCH_CACHE_BYTES` (as long as the next needle is no longer)."""
    key = (str(samples), index.meta.get("samples_sha256"), size)
    with _LOCK:
        cached = _SEARCH_TEXT.get(key)
    if cached is not None and cached[0] >= overlap:
        yield from cached[1]
        return
    keep = size <= SEARCH_CACHE_BYTES
    chunks: list[tuple[int, bytes]] = []
    overlap = max(overlap, 63)  # the kept chunks serve needles of up to 64 bytes
    fd = open_regular(samples, root)
    try:
        if os.fstat(fd).st_size != size:
            return
        start, carry = 0, b""
        while start < size:
            data = os.pread(fd, SEARCH_CHUNK, start)
            if not data:
                break
            chunk = (start - len(carry), (carry + data).lower())
            if keep:
                chunks.append(chunk)
            yield chunk
            carry = data[-overlap:]
            start += len(data)
    finally:
        os.close(fd)
    if keep and start == size:
        with _LOCK:
            _SEARCH_TEXT.clear()
            _SEARCH_TEXT[key] = (overlap, chunks)


def read_records(
    index: SampleIndex, samples: Path, root: Path, lines: list[int], max_line_bytes: int
) -> list[tuple[int, dict[str, Any] | None, int]]:
    """``(line, record or None when damaged, line size)`` for the given line numbers; lines
    larger than ``max_line_bytes`` are not parsed (``None``), so one huge sample cannot stall
    a page."""
    out = []
    fd = open_regular(samples, root)
    try:
        for line in lines:
            start, end = int(index.offsets[line]), int(index.offsets[line + 1])
            size = end - start
            record = None
            if size <= max_line_bytes:
                data = os.pread(fd, size, start)
                try:
                    value = json.loads(data)
                    record = value if isinstance(value, dict) else None
                except (UnicodeDecodeError, json.JSONDecodeError, RecursionError, ValueError):
                    record = None
            out.append((line, record, size))
    finally:
        os.close(fd)
    return out
