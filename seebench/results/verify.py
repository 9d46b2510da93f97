"""Checking a result file and its samples file before anything trusts them.

A unit counts as done only if its result JSON parses, is an object, validates against the
result schema of this seebench's ``schema_version``, was computed with the expected run
configuration, and (for status ``ok``) its samples file exists, has exactly ``n`` lines and
the sha256 recorded in ``samples_sha256`` (the writer's bytes, so every line is a record it
wrote; when the checksum differs, the first line that is not a sample record is named).

:func:`verify_result` never raises for a bad file: it returns a one-line reason, so one
damaged file costs one recomputation, never a crashed run.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from seebench import safe_files
from seebench.results.io import RESULT_MAX_BYTES, RESULT_SCHEMA_VERSION, validate_result
from seebench.results.numbers import bad_number
from seebench.results.samples import SAMPLES_MAX_BYTES
from seebench.safe_files import UnsafeFileError


@dataclass(frozen=True)
class ResultCheck:
    """What :func:`verify_result` found.

    ``result`` is the trusted mapping (``None`` when absent or not trusted); ``problem`` is a
    one-line reason why the file cannot be trusted (``None`` when it can, or when there is no
    file at all).
    """

    result: dict[str, Any] | None
    problem: str | None = None

    @property
    def absent(self) -> bool:
        return self.result is None and self.problem is None


def verify_result(
    result_path: Path, samples_path: Path | None = None, expected_hash: str | None = None
) -> ResultCheck:
    """Read and check ``result_path``; see the module docstring for what is checked.

    ``samples_path`` defaults to the ``samples_file`` named in the result, next to it;
    ``expected_hash`` (the unit's run-config hash) is not compared when ``None``.
    """
    result_path = Path(result_path)
    if not result_path.exists() and not result_path.is_symlink():
        return ResultCheck(None)
    try:
        if result_path.is_symlink():
            raise _Untrusted("is a symbolic link; seebench trusts only result files it wrote")
        result = _read_json(result_path)
        _check_result(result)
        _check_place(result_path, result)
        if expected_hash is not None:
            recorded = result["run"]["config_hash"]
            if recorded != expected_hash:
                raise _Untrusted(
                    f"computed with another run configuration (hash {recorded}, now {expected_hash})"
                )
        if result["status"] == "ok":
            if samples_path is None:
                samples_path = result_path.parent / result["samples_file"]
            settle_pending_samples(Path(samples_path), result)
            _check_samples(Path(samples_path), result)
    except _Untrusted as exc:
        return ResultCheck(None, f"{result_path}: {exc}")
    return ResultCheck(result)


class _Untrusted(Exception):
    pass


def pending_samples_path(samples_path: Path) -> Path:
    """Where ``seebench score`` writes new samples before the result that names them."""
    return samples_path.with_name(f".{samples_path.name}.pending")


def settle_pending_samples(samples_path: Path, result: dict[str, Any]) -> None:
    """Finish a re-scoring that was stopped between its two writes: when the pending samples
    file is the one the (already written) result names by sha256, move it into place. A
    pending file the result does not name is left alone (its result was never written)."""
    pending = pending_samples_path(samples_path)
    if not pending.is_file() or pending.is_symlink():
        return
    try:
        data = safe_files.read_bytes(pending, SAMPLES_MAX_BYTES)
    except OSError:
        return
    if hashlib.sha256(data).hexdigest() == result.get("samples_sha256"):
        with contextlib.suppress(FileNotFoundError):  # another process finished it first
            os.replace(pending, samples_path)


def _read_json(path: Path) -> dict[str, Any]:
    if path.is_dir():
        raise _Untrusted("is a directory, not a result file")
    try:
        data = safe_files.read_bytes(path, RESULT_MAX_BYTES)
    except UnsafeFileError as exc:
        raise _Untrusted(str(exc).split(": ", 1)[-1]) from None
    except OSError as exc:
        raise _Untrusted(f"cannot read: {exc.strerror or exc}") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise _Untrusted(f"not UTF-8 text (byte {exc.start})") from None
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise _Untrusted(
            f"not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})"
        ) from None
    except RecursionError:
        raise _Untrusted("not valid JSON (nested too deeply)") from None
    if not isinstance(value, dict):
        raise _Untrusted(f"expected a JSON object, found {_json_type(value)}")
    return value


def _check_result(result: dict[str, Any]) -> None:
    version = result.get("schema_version")
    if version is None:
        raise _Untrusted("has no schema_version: not a seebench result file")
    if version != RESULT_SCHEMA_VERSION:
        by = result.get("seebench_version")
        writer = f" by seebench {by}" if isinstance(by, str) else ""
        raise _Untrusted(
            f"result schema version {version!r}{writer}; this seebench reads version "
            f"{RESULT_SCHEMA_VERSION}"
        )
    bad = bad_number(result)
    if bad:
        raise _Untrusted(f"holds a value that is not a sane number: {bad}")
    problems = validate_result(result)
    if problems:
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        raise _Untrusted(f"does not match the result schema: {problems[0]}{more}")


def _check_place(path: Path, result: dict[str, Any]) -> None:
    """A result is trusted only where it was written: ``<model>/<method>/<task>.json`` of its
    own model, method and task (a copy or a link under another name is not)."""
    task = result["task"]["name"]
    if path.name != f"{task}.json":
        raise _Untrusted(f"is the result of task {task!r} filed as {path.name} (a copy or a link)")
    method, model = result.get("method"), (result.get("model") or {}).get("id")
    if method is not None and path.parent.name != method:
        raise _Untrusted(f"is a result of method {method!r} filed under {path.parent.name}/")
    if model is not None and path.parent.parent.name != model:
        raise _Untrusted(f"is a result of model {model!r} filed under {path.parent.parent.name}/")


def _repeats(result: dict[str, Any]) -> int:
    """How many times the unit ran its method (one samples line per item and repeat)."""
    run = result.get("run")
    config = run.get("config") if isinstance(run, dict) else None
    repeats = config.get("repeats") if isinstance(config, dict) else None
    if repeats is None:
        return 1
    if isinstance(repeats, bool) or not isinstance(repeats, int) or repeats < 1:
        raise _Untrusted(f"records repeats {repeats!r}, not a positive integer")
    return repeats


def _check_samples(path: Path, result: dict[str, Any]) -> None:
    if path.is_symlink():
        raise _Untrusted(f"its samples file {path.name} is a symbolic link")
    if path.name != result["samples_file"]:
        raise _Untrusted(f"names samples file {result['samples_file']!r}, expected {path.name!r}")
    if not path.is_file():
        what = "is not a file" if path.exists() else "is missing"
        raise _Untrusted(f"its samples file {path.name} {what}")
    try:
        data = safe_files.read_bytes(path, SAMPLES_MAX_BYTES)
    except OSError as exc:
        reason = str(exc).split(": ", 1)[-1] if isinstance(exc, UnsafeFileError) else exc.strerror
        raise _Untrusted(f"cannot read its samples file {path.name}: {reason or exc}") from None
    lines = data.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    expected = result["n"] * _repeats(result)
    if len(lines) != expected:
        per = f"n = {result['n']}" + (
            f" x {_repeats(result)} repeats" if expected != result["n"] else ""
        )
        raise _Untrusted(f"its samples file {path.name} has {len(lines)} lines for {per}")
    digest = hashlib.sha256(data).hexdigest()
    if digest == result["samples_sha256"]:
        return  # exactly the bytes the writer produced: every line is a record it wrote
    for number, line in enumerate(lines, start=1):  # name the first bad line if there is one
        try:
            record = json.loads(line)
        except (UnicodeDecodeError, json.JSONDecodeError, RecursionError):
            record = None
        if not isinstance(record, dict) or "id" not in record:
            raise _Untrusted(f"its samples file {path.name}: line {number} is not a sample record")
    raise _Untrusted(
        f"its samples file {path.name} has sha256 {digest[:12]}..., the result recorded "
        f"{result['samples_sha256'][:12]}... (changed after it was written)"
    )


def _json_type(value: Any) -> str:
    names = {
        list: "an array",
        str: "a string",
        bool: "a boolean",
        int: "a number",
        float: "a number",
        type(None): "null",
    }
    return names.get(type(value), type(value).__name__)
