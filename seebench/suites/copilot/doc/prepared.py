"""The prepared-case cache: the target records of a doc file set, kept by content.

Preparing the 7,742 doc cases (every file parsed, the doc taken out, the original code's
digests) costs more than scoring an answer to each, and every load of every language's task
would pay it again. So the records are kept in
``$SEEBENCH_HOME/data/prepared/copilot_doc/<key>.json``, where the key is the sha256 of what
they are computed from: every member's path and sha256, the language asked for, the
tree-sitter and grammar versions, and the source of the modules that build them. The file's
first line names its key and the sha256 of the rest; a file whose first line or checksum does
not match, or whose rest does not read as records, is not used: the records are computed
again and the file rewritten. Nothing is cached for a file set that does not know its
members' checksums.

The rest is ``{"files": [...], "records": [...]}``: each distinct case file text (the file
without the function's doc; the cases of one file without a doc share it) is written once,
and a record's ``file`` is its index in ``files``.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
from functools import cache
from importlib import metadata
from pathlib import Path
from typing import Any

from seebench import safe_files
from seebench.data.cache import DATA_MAX_BYTES, data_dir
from seebench.suites.copilot.languages import GRAMMARS

#: the layout of the cache file and of its records
FORMAT = 2
#: the modules whose code decides what a record holds
MODULES = ("cases.py", "checks.py", "comments.py", "functions.py", "lines.py", "trees.py")


@cache
def _code_and_versions() -> str | None:
    """A digest of the code and versions records depend on (``None``: the code cannot be
    read, so nothing is cached)."""
    digest = hashlib.sha256()
    here = Path(__file__).parent
    for name in (*MODULES, "../languages.py"):
        try:
            digest.update((here / name).read_bytes())
        except OSError:
            return None
    for package in ["tree-sitter", *sorted({m.replace("_", "-") for m, _ in GRAMMARS.values()})]:
        try:
            digest.update(f"{package}=={metadata.version(package)}\n".encode())
        except metadata.PackageNotFoundError:
            digest.update(f"{package} missing\n".encode())
    return digest.hexdigest()


def cache_key(files: Any, language: str | None) -> str | None:
    """The key of a file set's records in ``language`` (all languages: ``None``), or ``None``
    when the file set does not know its members' checksums."""
    digests = getattr(files, "digests", None)
    code = _code_and_versions()
    if not digests or code is None:
        return None
    digest = hashlib.sha256(f"{FORMAT} {code} {language or '*'}\n".encode())
    digest.update("".join(f"{digests[name]}  {name}\n" for name in sorted(digests)).encode())
    return digest.hexdigest()


def cache_path(key: str) -> Path:
    return data_dir() / "prepared" / "copilot_doc" / f"{key}.json"


def load(key: str) -> list[dict[str, Any]] | None:
    """The records kept under ``key``, or ``None`` when there are none or they are damaged."""
    try:
        raw = safe_files.read_bytes(cache_path(key), DATA_MAX_BYTES)
    except OSError:
        return None
    head, _, body = raw.partition(b"\n")
    try:
        header = json.loads(head)
        if not isinstance(header, dict) or header.get("key") != key:
            return None
        if header.get("sha256") != hashlib.sha256(body).hexdigest():
            return None
        kept = json.loads(body)
    except (ValueError, UnicodeDecodeError):
        return None
    if not isinstance(kept, dict):
        return None
    texts, records = kept.get("files"), kept.get("records")
    if not isinstance(texts, list) or not isinstance(records, list):
        return None
    for record in records:
        if not isinstance(record, dict):
            return None
        index = record.get("file")
        if index is not None:
            if not isinstance(index, int) or isinstance(index, bool):
                return None
            if not 0 <= index < len(texts) or not isinstance(texts[index], str):
                return None
            record["file"] = texts[index]
        if not _is_record(record):
            return None
    return records


def _is_record(record: Any) -> bool:
    return (
        isinstance(record, dict)
        and isinstance(record.get("case_id"), str)
        and isinstance(record.get("language"), str)
        and "excluded" in record
        and (record["excluded"] is not None or isinstance(record.get("file"), str))
    )


def store(key: str, records: list[dict[str, Any]]) -> None:
    """Keep ``records`` under ``key`` (a read-only home keeps nothing, silently)."""
    texts: list[str] = []
    index: dict[str, int] = {}
    kept = []
    for record in records:
        text = record.get("file")
        if isinstance(text, str):
            number = index.get(text)
            if number is None:
                number = index[text] = len(texts)
                texts.append(text)
            record = {**record, "file": number}
        kept.append(record)
    # ASCII escapes: the file stays valid UTF-8 whatever the texts hold, and encoding them is
    # faster than writing the characters themselves
    body = json.dumps({"files": texts, "records": kept}, separators=(",", ":"))
    checksum = hashlib.sha256(body.encode("utf-8")).hexdigest()
    header = json.dumps({"key": key, "sha256": checksum, "format": FORMAT})
    with contextlib.suppress(OSError):
        safe_files.atomic_write_text(cache_path(key), f"{header}\n{body}", data_dir())
