"""Reading, writing and validating result files.

Writes are atomic (temp file + rename) and pass through :func:`seebench.secrets.scrub`, so no
configured key or URL credential reaches the disk. :func:`write_samples` returns the sha256 of
what it wrote; the runner records it in the result as ``samples_sha256`` so that
:mod:`seebench.results.verify` can tell a damaged samples file from a good one.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
from glob import escape as glob_escape
from importlib import resources
from pathlib import Path
from typing import Any

from seebench import safe_files
from seebench.secrets import configured_secrets, scrub

RESULT_SCHEMA_VERSION = 1
#: The largest result file read (results are a few KiB; samples files are bounded apart).
RESULT_MAX_BYTES = 64 * 1024 * 1024


def result_paths(output: Path, model_id: str, method: str, task: str) -> tuple[Path, Path]:
    """``OUTPUT/<model-id>/<method>/<task>.json`` and its ``.samples.jsonl``; ``OUTPUT`` is
    declared a known root (:func:`seebench.safe_files.add_root`): no folder below it that a
    write goes through may be a symbolic link."""
    safe_files.add_root(output)
    folder = Path(output) / model_id / method
    return folder / f"{task}.json", folder / f"{task}.samples.jsonl"


def artifacts_dir(result_path: Path) -> Path:
    """The unit's artifacts folder beside its result: ``<task>.artifacts/`` (scorer caches,
    patches, logs, judge transcripts)."""
    return result_path.with_name(f"{result_path.stem}.artifacts")


def unit_root(result_path: Path) -> Path:
    """Declare the folder of an existing result a known root (for commands given result
    files rather than ``--output``: ``seebench score``), so that no write below it, a scorer's
    artifacts included, goes through a linked folder; returns the result's artifacts folder."""
    safe_files.add_root(Path(result_path).parent, resolved=False)
    return artifacts_dir(result_path)


def atomic_write_text(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` so that readers see the old file or the whole new one; a
    symbolic link at ``path`` is refused (:class:`~seebench.safe_files.UnsafeFileError`)."""
    safe_files.atomic_write_text(path, text)


def remove_stale_temps(path: Path) -> int:
    """Delete the temporary files an interrupted :func:`atomic_write_text` of ``path`` left
    (``kill -9`` between create and rename); call it only while no one else writes ``path``
    (under the unit's lock). Returns how many were removed."""
    removed = 0
    for stale in path.parent.glob(f".{glob_escape(path.name)}.*.tmp"):
        with contextlib.suppress(FileNotFoundError):
            stale.unlink()
            removed += 1
    return removed


def write_result(path: Path, result: dict[str, Any]) -> None:
    """Write one result JSON (secrets scrubbed: as data, so that entries named like keys go,
    then as text)."""
    text = json.dumps(scrub(result), indent=2, sort_keys=False, default=_jsonable)
    atomic_write_text(path, scrub(text) + "\n")


def write_samples(path: Path, records: list[dict[str, Any]]) -> str:
    """Write one JSON line per record (secrets scrubbed); returns the file's sha256."""
    known = configured_secrets()  # once: looking them up scans the environment
    lines = [json.dumps(scrub(r, known), ensure_ascii=False, default=_jsonable) for r in records]
    text = "\n".join(lines) + ("\n" if lines else "")
    atomic_write_text(path, text)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _jsonable(value: Any) -> Any:
    if hasattr(value, "item"):  # numpy scalars
        return value.item()
    if isinstance(value, set | tuple):
        return list(value)
    if isinstance(value, Path):
        return str(value)
    return str(value)


def load_result(path: Path) -> dict[str, Any] | None:
    """The parsed result at ``path``, or ``None`` if it is absent or unreadable."""
    from seebench.results.numbers import bad_number

    try:
        result = json.loads(safe_files.read_text(path, RESULT_MAX_BYTES))
    except (OSError, UnicodeDecodeError, ValueError, RecursionError):
        return None
    return result if isinstance(result, dict) and bad_number(result) is None else None


@functools.cache
def result_schema() -> dict[str, Any]:
    """The JSON Schema of result files, shipped in the package."""
    text = resources.files("seebench.results").joinpath("schema/result.schema.json").read_text()
    return json.loads(text)


@functools.cache
def _result_validator() -> Any:
    import jsonschema

    return jsonschema.Draft202012Validator(result_schema())


def validate_result(result: Any) -> list[str]:
    """Schema problems of a result mapping (empty when valid)."""
    validator = _result_validator()
    return [
        f"{'.'.join(map(str, e.absolute_path)) or '<root>'}: {e.message}"
        for e in validator.iter_errors(result)
    ]
