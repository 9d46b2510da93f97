"""From a task spec to samples: read sources, prepare rows, split, pick shots."""

from __future__ import annotations

import hashlib
import json
import random
import threading
from collections import OrderedDict
from collections.abc import Collection
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from seebench.data.kinds.base import DataError  # noqa: F401  (re-exported: suites raise it)
from seebench.data.sources import task_sources
from seebench.errors import DataMissingError
from seebench.registry import Registry
from seebench.tasks.spec import TaskSpec
from seebench.tasks.splits import random_split
from seebench.turns import preparing

DEFAULT_SEED = 42
SPLIT_NAMES = ("train", "validation", "test")


@dataclass(frozen=True)
class Sample:
    """One instance: a stable id, the model input, the gold target and metadata."""

    id: str
    input: Any
    target: Any
    meta: dict[str, Any] = field(default_factory=dict)

    @property
    def input_hash(self) -> str:
        return hash_value(self.input)


@dataclass(init=False)
class TaskData:
    """The prepared splits of one task plus the few-shot examples of each test sample.

    ``shots`` (test sample id -> example ids) is drawn on first read, with the ``(k, seed)``
    of ``shot_draw``, unless given: a method that shows no examples never pays for drawing them.
    """

    task: TaskSpec
    train: list[Sample]
    validation: list[Sample]
    test: list[Sample]
    checksums: dict[str, str]
    #: items left out by the task's exclusion list (``data.exclude``): id -> reason
    excluded: dict[str, str]
    #: ``(k, seed)`` of the stored shots (``k`` 0: none)
    shot_draw: tuple[int, int]

    def __init__(
        self,
        task: TaskSpec,
        train: list[Sample],
        validation: list[Sample],
        test: list[Sample],
        checksums: dict[str, str],
        shots: dict[str, list[str]] | None = None,
        excluded: dict[str, str] | None = None,
        shot_draw: tuple[int, int] = (0, DEFAULT_SEED),
    ) -> None:
        self.task, self.train, self.validation, self.test = task, train, validation, test
        self.checksums = checksums
        self.excluded = {} if excluded is None else excluded
        self.shot_draw = shot_draw
        self._shots: dict[str, list[str]] | None = shots
        #: drawn shots shared by every TaskData of the same prepared content and draw
        self._shot_memo: dict[str, list[str]] | None = None

    @property
    def shots(self) -> dict[str, list[str]]:
        """Every test sample's stored few-shot example ids (drawn on first read)."""
        if self._shots is None:
            k, seed = self.shot_draw
            self._shots = _memo_shots(self, k, seed, self._shot_memo)
        return self._shots

    @shots.setter
    def shots(self, value: dict[str, list[str]]) -> None:
        self._shots = value

    def by_id(self) -> dict[str, Sample]:
        return {s.id: s for s in (*self.train, *self.validation, *self.test)}

    def counts(self) -> dict[str, int]:
        counts = {
            "train": len(self.train),
            "validation": len(self.validation),
            "test": len(self.test),
        }
        if self.excluded:
            counts["excluded"] = len(self.excluded)
        return counts


def hash_value(value: Any) -> str:
    """Short stable hash of a JSON-serialisable value."""
    blob = json.dumps(value, sort_keys=True, ensure_ascii=False, default=str).encode()
    return hashlib.sha256(blob).hexdigest()[:16]


def read_rows(task: TaskSpec, registry: Registry) -> tuple[list[dict[str, Any]], dict[str, str]]:
    """Read and concatenate all sources of ``task`` (in declaration order)."""
    rows: list[dict[str, Any]] = []
    checksums: dict[str, str] = {}
    for source in task_sources(task):
        source_rows, source_checksums = source.handler.rows(source, registry)
        checksums.update(source_checksums)
        for row in source_rows:
            row["_source"] = source.name
            if source.split:
                row["_split"] = source.split
        rows.extend(source_rows)
    return rows, checksums


def prepare_rows(
    task: TaskSpec, rows: list[dict[str, Any]], registry: Registry
) -> list[dict[str, Any]]:
    """Apply the task's ``data.prepare`` steps in order."""
    for index, step in enumerate(task.data.get("prepare", [])):
        options = {k: v for k, v in step.items() if k != "step"}
        func = registry.prepare_step(step["step"]).load()
        try:
            rows = func(rows, **options)
        except DataMissingError:
            raise  # missing data or a missing tool: the unit is skipped with the step's own line
        except Exception as exc:
            raise DataError(
                f"{task.path}: data.prepare[{index}] ({step['step']}): {type(exc).__name__}: {exc}"
            ) from None
    return rows


def rows_to_samples(task: TaskSpec, rows: list[dict[str, Any]]) -> list[Sample]:
    """Turn prepared rows into samples with stable ids (content hash + occurrence number)."""
    input_col = task.data.get("input", "input")
    target_col = task.data.get("target", "target")
    normalise = task.behaviour.normalise_target
    samples = []
    seen: dict[str, int] = {}
    for number, row in enumerate(rows):
        if input_col not in row or target_col not in row:
            missing = input_col if input_col not in row else target_col
            raise DataError(
                f"task {task.name!r}: prepared row {number} has no column {missing!r} "
                f"(columns: {sorted(row)}); add a 'select' step or set data.input/data.target"
            )
        content = hash_value(row[input_col])
        occurrence = seen.get(content, 0)
        seen[content] = occurrence + 1
        sample_id = content if occurrence == 0 else f"{content}-{occurrence}"
        meta = {k: v for k, v in row.items() if k not in (input_col, target_col)}
        samples.append(Sample(sample_id, row[input_col], normalise(task, row[target_col]), meta))
    return samples


def split_samples(task: TaskSpec, samples: list[Sample], seed: int) -> dict[str, list[Sample]]:
    """Split by the task's policy: a published split file (``split.split_file``), predefined
    ``_split`` values, no split (``method: none``: every row is a test item except rows of
    sources declared ``split: train``), or a seeded hold-out made by the task type
    (stratified where the type allows it); a validation part is then carved from train if none."""
    from seebench.data.split_files import read_split_file

    policy = task.split
    seed = int(policy.get("seed", seed))
    test_size = float(policy.get("test_size", 0.2))
    validation_size = float(policy.get("validation_size", 0.1))
    stratify = policy.get("stratify", "auto")
    splits: dict[str, list[Sample]] = {name: [] for name in SPLIT_NAMES}
    predefined = policy.get("method") == "predefined" or any("_split" in s.meta for s in samples)

    def hold_out(
        items: list[Sample], size: float, part_seed: int
    ) -> tuple[list[Sample], list[Sample]]:
        if stratify is False:
            return random_split(items, size, part_seed)
        return task.behaviour.hold_out(task, items, [s.target for s in items], size, part_seed)

    if policy.get("method") == "none":
        for sample in samples:
            splits["train" if sample.meta.get("_split") == "train" else "test"].append(sample)
        if not splits["test"]:
            raise DataError(
                f"task {task.name!r}: every row belongs to the few-shot pool; no test items"
            )
        return splits
    if policy.get("split_file"):
        try:
            names = read_split_file(task, len(samples))
        except (ValueError, KeyError) as exc:
            raise DataError(str(exc)) from None
        for sample, name in zip(samples, names, strict=True):
            splits[name].append(sample)
        if not splits["test"]:
            raise DataError(f"task {task.name!r}: the split file assigns no test samples")
    elif predefined:
        for sample in samples:
            split: Any = sample.meta.get("_split")  # from the data: any value
            part = {"dev": "validation", "valid": "validation"}.get(split, split)
            if part not in splits:
                raise DataError(
                    f"task {task.name!r}: sample {sample.id} has unknown split {part!r}"
                )
            splits[part].append(sample)
        if not splits["test"]:
            raise DataError(f"task {task.name!r}: the predefined split has no test samples")
    else:
        splits["train"], splits["test"] = hold_out(samples, test_size, seed)
    if not splits["validation"] and validation_size > 0 and len(splits["train"]) > 2:
        train = splits["train"]
        splits["train"], splits["validation"] = hold_out(train, validation_size, seed + 1)
    return splits


def pick_shots(task: TaskSpec, data: TaskData, k: int, seed: int) -> dict[str, list[str]]:
    """For every test sample, ``k`` example ids from the pool, seeded per sample id.

    When the task type groups examples (``shot_stratum``: the label, for binary and
    multi-class tasks), groups are visited in a seeded order and one example is taken from
    each in turn, so three shots of a binary task show both classes. Other types draw
    uniformly. The same seed gives the same shots, so
    every model sees the same examples (and a sample's shots do not depend on the others).
    """
    return _pick_for(task, data, data.test, k, seed)


def _pick_for(
    task: TaskSpec, data: TaskData, test: list[Sample], k: int, seed: int
) -> dict[str, list[str]]:
    """:func:`pick_shots` for the test samples ``test``."""
    pool = data.train if task.shots.get("pool", "train") == "train" else data.validation
    if k <= 0 or not pool:
        return {}
    by_class: dict[Any, list[Sample]] = {}
    for sample in pool:
        stratum = task.behaviour.shot_stratum(task, sample.target)
        if stratum is not None:
            by_class.setdefault(stratum, []).append(sample)
    shots = {}
    for sample in test:
        rng = random.Random(f"{seed}:{sample.id}")
        if len(by_class) < 2:
            shots[sample.id] = [s.id for s in rng.sample(pool, min(k, len(pool)))]
            continue
        classes = sorted(by_class, key=str)
        rng.shuffle(classes)
        queues = {c: rng.sample(by_class[c], len(by_class[c])) for c in classes}
        chosen: list[str] = []
        while len(chosen) < min(k, len(pool)):
            for c in classes:
                if queues[c] and len(chosen) < k:
                    chosen.append(queues[c].pop().id)
        rng.shuffle(chosen)
        shots[sample.id] = chosen
    return shots


def _memo_shots(
    data: TaskData, k: int, seed: int, memo: dict[str, list[str]] | None
) -> dict[str, list[str]]:
    """``pick_shots(data.task, data, k, seed)``, drawing only the test samples ``memo`` (the
    shots already drawn for the same prepared content) lacks."""
    if memo is None:
        return pick_shots(data.task, data, k, seed)
    missing = [s for s in data.test if s.id not in memo]
    if missing:
        memo.update(_pick_for(data.task, data, missing, k, seed))
    return {s.id: list(memo[s.id]) for s in data.test if s.id in memo}


@dataclass
class _PreparedSplits:
    """One task's splits as prepared from some content, and the shots drawn from them."""

    splits: dict[str, list[Sample]]
    excluded: dict[str, str]
    shots: dict[tuple[int, int], dict[str, list[str]]] = field(default_factory=dict)


#: prepared splits by content key (:func:`_content_key`), most recently used last
_PREPARED: OrderedDict[str, _PreparedSplits] = OrderedDict()
#: how many tasks' prepared splits a process keeps
PREPARED_CACHE_SIZE = 16
_PREPARED_LOCK = threading.Lock()
#: the longest a thread waits for its turn to load (then it loads anyway)
LOADING_WAIT_S = 30.0
#: rows per encoding when the prepared splits' key is computed
ROWS_PER_HASH = 256


def _content_key(task: TaskSpec, rows: list[dict[str, Any]], registry: Registry, seed: int) -> str:
    """What the prepared splits depend on: the rows read, the task's whole definition, the
    preparation steps' code, the local files it names (exclusion list, split file) and the
    seed.

    The rows are hashed :data:`ROWS_PER_HASH` at a time (one JSON array a line), so that
    another thread gets the interpreter between two short encodings rather than waiting for
    the whole table's."""
    steps = [registry.prepare_step(step["step"]).func for step in task.data.get("prepare", [])]
    local = [(task.data or {}).get("exclude"), (task.split.get("split_file") or {}).get("path")]
    head = [str(task.path), task.raw, steps, [_file_digest(task, n) for n in local], seed]
    digest = hashlib.sha256(_key_json(head))
    for start in range(0, len(rows), ROWS_PER_HASH):
        digest.update(b"\n" + _key_json(rows[start : start + ROWS_PER_HASH]))
    return digest.hexdigest()


def _key_json(value: Any) -> bytes:
    return json.dumps(value, sort_keys=True, ensure_ascii=False, default=str).encode()


def _file_digest(task: TaskSpec, name: Any) -> str | None:
    """The sha256 of a file named relative to the task's YAML (None: none named)."""
    if not name:
        return None
    path = Path(task.path).parent / str(name)
    return hashlib.sha256(path.read_bytes()).hexdigest() if path.is_file() else "absent"


def _prepare_splits(
    task: TaskSpec, rows: list[dict[str, Any]], registry: Registry, seed: int
) -> _PreparedSplits:
    """Prepare, leave out the excluded items and split (no cache)."""
    rows = prepare_rows(task, rows, registry)
    samples = rows_to_samples(task, rows)
    excluded = task_exclusions(task)
    if excluded:
        excluded = {s.id: excluded[s.id] for s in samples if s.id in excluded}
        samples = [s for s in samples if s.id not in excluded]
    if not samples:
        raise DataError(f"task {task.name!r}: preparation left no rows")
    return _PreparedSplits(_split_or_reuse(task, samples, seed), excluded)


def _split_or_reuse(task: TaskSpec, samples: list[Sample], seed: int) -> dict[str, list[Sample]]:
    """:func:`split_samples`, or the same hold-out read back from the on-disk split cache."""
    from seebench.data import split_cache

    if not split_cache.cacheable(task, samples):
        return split_samples(task, samples, seed)
    key = split_cache.assignment_key(task, samples, seed)
    splits = split_cache.load_assignment(key, samples, SPLIT_NAMES)
    if splits is None:
        splits = split_samples(task, samples, seed)
        split_cache.store_assignment(key, splits)
    return splits


def _cached_splits(
    task: TaskSpec, rows: list[dict[str, Any]], registry: Registry, seed: int
) -> _PreparedSplits:
    """:func:`_prepare_splits`, reused when the same content was prepared before."""
    key = _content_key(task, rows, registry, seed)
    with _PREPARED_LOCK:
        found = _PREPARED.get(key)
    if found is None:
        found = _prepare_splits(task, rows, registry, seed)
    with _PREPARED_LOCK:
        found = _PREPARED.setdefault(key, found)
        _PREPARED.move_to_end(key)
        while len(_PREPARED) > PREPARED_CACHE_SIZE:
            _PREPARED.popitem(last=False)
    return found


def load_task_data(
    task: TaskSpec,
    registry: Registry,
    seed: int = DEFAULT_SEED,
    limit: int | None = None,
    sample_ids: Collection[str] | None = None,
) -> TaskData:
    """Read, prepare and split the data of ``task``; raises ``DataMissingError`` if absent.

    ``limit`` keeps the first test items, ``sample_ids`` only the test items with these ids (in
    test order; :class:`DataMissingError` when the test split holds none of them: the unit
    is skipped).

    Preparation and splitting are reused within a process when the rows read, the task's
    definition and the seed are the same (a sweep loads each task once per model); the shots
    are drawn when first read (:attr:`TaskData.shots`).

    One thread of a process reads and prepares at a time (:func:`seebench.turns.preparing`):
    units side by side (a served model's) would only share the interpreter's lock, so every
    unit's first request would wait for all of them; one after another, the first unit sends
    while the next prepares. A thread waits at most ``LOADING_WAIT_S`` for its turn (a load
    abandoned by a unit's time limit never blocks the others for longer)."""
    with preparing(LOADING_WAIT_S):
        rows, checksums = read_rows(task, registry)
        prepared = _cached_splits(task, rows, registry, seed)
    splits = prepared.splits
    test = splits["test"][:limit] if limit else splits["test"]
    if sample_ids is not None:
        test = chosen_samples(task, test, sample_ids)
    data = TaskData(task, list(splits["train"]), list(splits["validation"]), list(test), checksums)
    data.excluded = dict(prepared.excluded)
    draw = (int(task.shots.get("k", 3)), int(task.shots.get("seed", seed)))
    data.shot_draw = draw
    data._shot_memo = prepared.shots.setdefault(draw, {})
    return data


def chosen_samples(task: TaskSpec, test: list[Sample], ids: Collection[str]) -> list[Sample]:
    """The test items whose id is one of ``ids`` (``--samples``), in test order."""
    wanted = set(ids)
    chosen = [s for s in test if s.id in wanted]
    if not chosen:
        shown = ", ".join(sorted(wanted)[:5]) + (", ..." if len(wanted) > 5 else "")
        raise DataMissingError(f"task {task.name!r}: its test split has none of --samples {shown}")
    return chosen


#: the largest exclusion list read
EXCLUSIONS_MAX_BYTES = 16 * 1024 * 1024


def read_exclusions(path: Path) -> dict[str, dict[str, Any]]:
    """An exclusion list (``{"items": [{"id", "key", "class", "reason", ...}]}``, written by
    ``seebench tasks check --gold --record``): item id -> its entry without the id. A
    missing or malformed file is a :class:`DataError` naming it."""
    from seebench import safe_files

    try:
        body = json.loads(safe_files.read_text(path, EXCLUSIONS_MAX_BYTES))
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise DataError(f"{path}: unreadable exclusion list: {exc}") from None
    items = body.get("items") if isinstance(body, dict) else None
    if not isinstance(items, list):
        raise DataError(f"{path}: an exclusion list needs an 'items' list")
    entries: dict[str, dict[str, Any]] = {}
    for number, item in enumerate(items):
        if not isinstance(item, dict) or not isinstance(item.get("id"), str):
            raise DataError(f"{path}: items[{number}] needs a string 'id'")
        if not isinstance(item.get("reason"), str) or not item["reason"].strip():
            raise DataError(f"{path}: items[{number}] ({item['id']}) needs a 'reason'")
        entries[item["id"]] = {k: v for k, v in item.items() if k != "id"}
    return entries


def task_exclusions(task: TaskSpec) -> dict[str, str]:
    """The items ``task``'s exclusion list (``data.exclude``, relative to its YAML) leaves
    out of scoring: id -> ``class: reason``; empty when it has none."""
    name = (task.data or {}).get("exclude")
    if not name:
        return {}
    path = Path(task.path).parent / str(name)
    return {
        item_id: f"{entry.get('class', 'flagged')}: {entry['reason']}"
        for item_id, entry in read_exclusions(path).items()
    }
