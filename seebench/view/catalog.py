"""The units the viewer shows: every ``<model-id>/<method>/<task>.json`` under the given folders.

Each unit is checked as ``eval`` checks it (the rules of :mod:`seebench.results.verify`, with
the samples file hashed in a stream so memory stays bounded) plus
what a viewer must not take on trust: the file sits where its own fields say (a result filed
under another task's name is damaged), its metrics are finite numbers, and every file is a
regular file inside its folder (:mod:`seebench.view.safety`). A unit that fails is kept and
shown as damaged with the one-line reason; nothing here raises for a bad file.
"""

from __future__ import annotations

import builtins
import hashlib
import json
import math
import os
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from seebench.results.io import RESULT_SCHEMA_VERSION, validate_result
from seebench.view.safety import (
    MAX_RESULT_BYTES,
    Refused,
    open_regular,
    read_bytes,
    regular_file,
)


@dataclass
class Unit:
    """One (model, method, task) result as the viewer shows it.

    ``result`` is the trusted mapping, ``None`` when damaged; ``raw`` is whatever JSON object
    could be read (for showing a damaged unit's fields); ``problem`` says why it is damaged.
    """

    uid: str
    root: Path
    rel: str
    model: str
    method: str
    task: str
    result: dict[str, Any] | None
    raw: dict[str, Any] | None
    problem: str | None
    signature: tuple = field(default=(), repr=False)

    @property
    def path(self) -> Path:
        return self.root / self.rel

    @property
    def samples_path(self) -> Path | None:
        """The samples file named by the result (``None`` when there is none)."""
        data = self.result or self.raw or {}
        name = data.get("samples_file")
        if not isinstance(name, str) or not name or "/" in name or name.startswith("."):
            return None
        return self.path.parent / name

    @property
    def artifacts_path(self) -> Path:
        """The unit's artifacts folder beside its result."""
        return self.path.with_name(f"{self.path.stem}.artifacts")

    @property
    def data(self) -> dict[str, Any]:
        """The result's fields: trusted ones, else what could be read."""
        return self.result or self.raw or {}

    @property
    def status(self) -> str:
        if self.problem:
            return "damaged"
        value = self.data.get("status")
        return value if isinstance(value, str) else "damaged"

    @property
    def suite(self) -> str:
        task = self.data.get("task")
        return str(task.get("suite", "")) if isinstance(task, dict) else ""

    @property
    def label(self) -> str:
        """``model/method`` as the leaderboard names it."""
        return f"{self.model}/{self.method}"


def unit_uid(root_index: int, rel: str) -> str:
    """A stable, path-safe name for a unit (used in URLs and exported file names)."""
    digest = hashlib.sha256(f"{root_index}\0{rel}".encode()).hexdigest()[:12]
    return f"u{root_index}-{digest}"


class Catalog:
    """The units under ``roots``; :meth:`refresh` rescans, re-verifying only changed files."""

    def __init__(self, roots: list[Path]) -> None:
        self.roots = [Path(os.path.realpath(r)) for r in roots]
        self.units: dict[str, Unit] = {}
        self.csv_inputs: list[Path] = []

    def refresh(self) -> list[Unit]:
        """Rescan every folder; returns the units sorted by (task, model, method)."""
        found: dict[str, Unit] = {}
        for index, root in enumerate(self.roots):
            if root.is_file():
                continue  # a CSV input: leaderboard only
            for rel in _result_files(root):
                uid = unit_uid(index, rel)
                signature = _signature(root, rel)
                old = self.units.get(uid)
                if old is not None and old.signature == signature:
                    found[uid] = old
                else:
                    found[uid] = load_unit(uid, root, rel, signature)
        self.units = found
        return self.list()

    def list(self) -> list[Unit]:
        return sorted(self.units.values(), key=lambda u: (u.task, u.model, u.method, u.uid))

    def get(self, uid: str) -> Unit | None:
        return self.units.get(uid)

    def peers(self, unit: Unit) -> builtins.list[Unit]:  # ``list`` is the method above
        """Other units of the same task (for comparing two models item by item)."""
        return [u for u in self.list() if u.task == unit.task and u.uid != unit.uid]


def _result_files(root: Path) -> list[str]:
    """``model/method/task.json`` paths under ``root`` (3 levels, hidden names skipped)."""
    out = []
    for model in _entries(root):
        for method in _entries(root / model):
            for name in _entries(root / model / method, files=True):
                if name.endswith(".json"):
                    out.append(f"{model}/{method}/{name}")
    return out


def _entries(folder: Path, files: bool = False) -> list[str]:
    try:
        with os.scandir(folder) as scan:
            items = list(scan)
    except OSError:
        return []
    names = []
    for entry in items:
        if entry.name.startswith("."):
            continue
        try:
            is_dir = entry.is_dir(follow_symlinks=True)
        except OSError:
            is_dir = False
        if files != is_dir:
            names.append(entry.name)
    return sorted(names)


def _signature(root: Path, rel: str) -> tuple:
    """What decides whether a unit must be re-verified: its files' size and mtime."""
    sig: list[tuple[int, int, int] | None] = []
    path = root / rel
    for candidate in (path, path.with_name(f"{path.stem}.samples.jsonl")):
        try:
            info = os.stat(candidate)
            sig.append((info.st_size, info.st_mtime_ns, stat.S_IFMT(info.st_mode)))
        except OSError:
            sig.append(None)
    return tuple(sig)


def load_unit(uid: str, root: Path, rel: str, signature: tuple = ()) -> Unit:
    """Read and check one unit; a bad file gives a damaged unit with the reason."""
    model, method, name = rel.split("/")
    task = name[: -len(".json")]
    path = root / rel
    raw, problem, result = None, None, None
    try:
        regular_file(path, root, MAX_RESULT_BYTES)
        raw = _parse_object(read_bytes(path, root, MAX_RESULT_BYTES))
        _check_result(raw)
        assert raw is not None
        problem = _misfiled(raw, model, method, task) or _non_finite(raw)
        if problem is None and raw["status"] == "ok":
            problem = _check_samples(path, root, raw)
        result = None if problem else raw
    except Refused as exc:
        problem = str(exc)
    return Unit(uid, root, rel, model, method, task, result, raw, problem, signature)


def _check_result(raw: dict[str, Any] | None) -> None:
    """What :mod:`seebench.results.verify` checks of the result file itself."""
    if raw is None:
        raise Refused("not a JSON object (or not valid JSON / UTF-8)")
    version = raw.get("schema_version")
    if version is None:
        raise Refused("has no schema_version: not a seebench result file")
    if version != RESULT_SCHEMA_VERSION:
        raise Refused(
            f"result schema version {version!r}; this seebench reads version "
            f"{RESULT_SCHEMA_VERSION}"
        )
    problems = validate_result(raw)
    if problems:
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        raise Refused(f"does not match the result schema: {problems[0]}{more}")


def _check_samples(path: Path, root: Path, result: dict[str, Any]) -> str | None:
    """The samples file's problem (``None`` when it is the one the result recorded): a
    regular file inside the folder, ``n`` lines, the recorded sha256 (hashed in a stream, with
    its index built or verified on the way)."""
    from seebench.view.index import DAMAGED, load_index

    name = result["samples_file"]
    if not name or "/" in name or name.startswith("."):
        return f"names samples file {name!r} outside its folder"
    samples = path.parent / name
    if not os.path.lexists(samples):
        return f"its samples file {name} is missing"
    regular_file(samples, root)
    index, _ = load_index(samples, root)
    if _stream_sha256(samples, root) != index.sha256:
        index, _ = load_index(samples, root, rebuild=True)
    if index.n != result["n"]:
        return f"its samples file {name} has {index.n} lines for n = {result['n']}"
    if index.sha256 != result["samples_sha256"]:
        bad = np.flatnonzero(index.flags & DAMAGED)
        if len(bad):
            return f"its samples file {name}: line {int(bad[0]) + 1} is not a sample record"
        return (
            f"its samples file {name} has sha256 {index.sha256[:12]}..., the result recorded "
            f"{result['samples_sha256'][:12]}... (changed after it was written)"
        )
    return None


def _stream_sha256(path: Path, root: Path) -> str:
    digest = hashlib.sha256()
    fd = open_regular(path, root)
    with os.fdopen(fd, "rb") as handle:
        while chunk := handle.read(1 << 22):
            digest.update(chunk)
    return digest.hexdigest()


def _parse_object(data: bytes) -> dict[str, Any] | None:
    try:
        value = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError):
        return None
    return value if isinstance(value, dict) else None


def _misfiled(result: dict[str, Any], model: str, method: str, task: str) -> str | None:
    recorded = (result["model"].get("id"), result["method"], result["task"].get("name"))
    if recorded != (model, method, task):
        where = "/".join(map(str, recorded))
        return f"filed as {model}/{method}/{task} but records {where} (a copy or a link?)"
    return None


def _non_finite(result: dict[str, Any]) -> str | None:
    for name, value in result.get("metrics", {}).items():
        if value is not None and not math.isfinite(value):
            return f"metric {name!r} is {value!r}, not a finite number"
    for name, info in result.get("metric_info", {}).items():
        for bound in info.get("ci95") or ():
            if not math.isfinite(bound):
                return f"the interval of metric {name!r} holds {bound!r}"
    return None
