"""What a served model *is*: the hashes of its weights, never where it is served.

A GGUF file is identified by its sha256; a model directory (vLLM, SGLang) by the sha256 of
its config, tokenizer and generation files and of each weight file. Hashing a large file
takes a while, so each file's hash is remembered under ``$SEEBENCH_HOME/cache/file_hashes``
by path, size and modification time: an unchanged file is hashed once.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
from pathlib import Path
from typing import Any

from seebench import safe_files
from seebench.data.cache import seebench_home
from seebench.errors import ModelError
from seebench.results.io import atomic_write_text

GGUF_MAGIC = b"GGUF"
#: Files of a model directory that change its replies (besides the weights).
DIRECTORY_TEXT_FILES = (".json", ".model", ".jinja", ".txt", ".tiktoken")
WEIGHT_SUFFIXES = (".safetensors", ".bin", ".pt", ".pth", ".gguf")
_CHUNK = 1 << 20
#: The bound of one weights file hashed (the largest open models are well under it).
WEIGHTS_MAX_BYTES = 4 * 1024**4


def _hash_cache_path(path: Path, stat: os.stat_result) -> Path:
    key = hashlib.sha256(f"{path}:{stat.st_size}:{stat.st_mtime_ns}".encode()).hexdigest()
    return seebench_home() / "cache" / "file_hashes" / f"{key}.json"


def file_sha256(path: Path) -> str:
    """The sha256 of ``path`` (remembered while the file's size and mtime stay the same)."""
    path = path.resolve()
    stat = path.stat()
    remembered = _hash_cache_path(path, stat)
    try:
        return str(json.loads(safe_files.read_text(remembered, 4096))["sha256"])
    except (OSError, ValueError, KeyError, TypeError, RecursionError):
        pass
    digest = hashlib.sha256()
    with safe_files.open_regular(path, WEIGHTS_MAX_BYTES) as handle:
        while chunk := handle.read(_CHUNK):
            digest.update(chunk)
    value = digest.hexdigest()
    with contextlib.suppress(OSError):  # a read-only home only costs the next run a re-hash
        atomic_write_text(remembered, json.dumps({"path": str(path), "sha256": value}))
    return value


def gguf_identity(spec: str, path: Path) -> dict[str, Any]:
    """The identity of a GGUF weights file; one-line errors for a missing or foreign file."""
    if not path.exists():
        raise ModelError(f"model {spec!r}: {path} does not exist; pass the path of a .gguf file")
    if not path.is_file():
        raise ModelError(f"model {spec!r}: {path} is not a file; pass the path of a .gguf file")
    try:
        magic = safe_files.read_head(path, 4)
    except safe_files.UnsafeFileError as exc:
        raise ModelError(f"model {spec!r}: {exc}") from None
    except OSError as exc:
        raise ModelError(f"model {spec!r}: cannot read {path}: {exc.strerror}") from None
    if magic != GGUF_MAGIC:
        raise ModelError(
            f"model {spec!r}: {path} is not a GGUF file (llama.cpp serves .gguf weights; "
            "convert the model with llama.cpp's convert_hf_to_gguf.py)"
        )
    return {"file": path.name, "bytes": path.stat().st_size, "sha256": file_sha256(path)}


def directory_identity(spec: str, directory: Path) -> dict[str, Any]:
    """The identity of a Hugging Face model directory: config and weight hashes."""
    if not directory.exists():
        raise ModelError(
            f"model {spec!r}: {directory} does not exist; pass a local model directory"
        )
    if not directory.is_dir():
        raise ModelError(
            f"model {spec!r}: {directory} is not a directory; pass a local model directory "
            "(with config.json and weights)"
        )
    config = directory / "config.json"
    try:
        text = safe_files.read_text(config, safe_files.TEXT_MAX_BYTES)
        architecture = (json.loads(text).get("architectures") or [None])[0]
    except FileNotFoundError:
        raise ModelError(
            f"model {spec!r}: {directory} has no config.json (not a Hugging Face model directory)"
        ) from None
    except (OSError, ValueError, AttributeError, RecursionError) as exc:
        raise ModelError(f"model {spec!r}: cannot read {config}: {exc}") from None
    files: dict[str, str] = {}
    weights = 0
    try:
        for path in sorted(p for p in directory.rglob("*") if p.is_file()):
            relative = path.relative_to(directory).as_posix()
            if path.suffix in WEIGHT_SUFFIXES:
                weights += 1
            elif path.suffix not in DIRECTORY_TEXT_FILES or relative.startswith("."):
                continue
            files[relative] = file_sha256(path)
    except safe_files.UnsafeFileError as exc:
        raise ModelError(f"model {spec!r}: {exc}") from None
    except OSError as exc:
        raise ModelError(f"model {spec!r}: cannot read {exc.filename}: {exc.strerror}") from None
    if not weights:
        raise ModelError(
            f"model {spec!r}: {directory} has no weight files ({', '.join(WEIGHT_SUFFIXES)})"
        )
    combined = hashlib.sha256(json.dumps(files, sort_keys=True).encode()).hexdigest()
    return {
        "directory": directory.name,
        "architecture": architecture,
        "files": len(files),
        "sha256": combined,
        "config_sha256": files["config.json"],
    }
