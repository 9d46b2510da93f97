"""The content-addressed data cache under ``SEEBENCH_HOME``.

Files are stored as ``$SEEBENCH_HOME/data/<sha256[:2]>/<sha256>/<file name>``, so a file is
found by its checksum whatever it was called where it came from.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import tempfile
from pathlib import Path

HOME_ENV = "SEEBENCH_HOME"


def seebench_home() -> Path:
    """The root of seebench's caches: ``$SEEBENCH_HOME`` or the user cache directory."""
    configured = os.environ.get(HOME_ENV)
    if configured:
        return Path(configured).expanduser()
    import platformdirs

    return Path(platformdirs.user_cache_dir("seebench"))


def data_dir() -> Path:
    return seebench_home() / "data"


def sha256_file(path: Path, chunk_size: int = 1 << 20) -> str:
    """Hex sha256 of a file, read in chunks."""
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        while chunk := handle.read(chunk_size):
            digest.update(chunk)
    return digest.hexdigest()


def cached_file(sha256: str) -> Path | None:
    """The cached file with this checksum, or ``None``."""
    folder = data_dir() / sha256[:2] / sha256
    if not folder.is_dir():
        return None
    files = [p for p in folder.iterdir() if p.is_file() and not p.name.startswith(".")]
    return files[0] if files else None


def store_file(source: Path, sha256: str, file_name: str | None = None) -> Path:
    """Copy ``source`` into the cache atomically (temp file + rename) and return its path."""
    folder = data_dir() / sha256[:2] / sha256
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / (file_name or source.name)
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=".tmp-")
    os.close(fd)
    try:
        shutil.copyfile(source, tmp)
        os.replace(tmp, target)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
    return target
