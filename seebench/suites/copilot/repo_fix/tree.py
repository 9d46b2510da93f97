"""Which files of a repository an analyzer sees, and the repository with one file edited.

An analyzer reads the files of its language (:data:`SUFFIXES`) anywhere in the tree except
dependency, VCS and build-output folders (:data:`SKIPPED_DIRS`) and minified bundles; the
edited file replaces the original (or is added) in that selection, never in the extracted
tree itself, which stays read-only.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from pathlib import Path, PurePosixPath

from seebench import safe_files

#: file suffixes each analyzer reads
SUFFIXES: dict[str, tuple[str, ...]] = {
    "pylint": (".py",),
    "pyright": (".py", ".pyi"),
    "eslint": (".js", ".mjs", ".cjs"),
    "tsc": (".ts", ".tsx", ".mts", ".cts"),
}
#: folders never analysed (dependencies, VCS data, caches)
SKIPPED_DIRS = frozenset(
    {"node_modules", ".git", ".hg", ".svn", "__pycache__", ".tox", ".nox", ".venv", "venv"}
)
#: files larger than this are not analysed (generated bundles, data disguised as code)
MAX_FILE_BYTES = 1_000_000


def _skipped(relative: PurePosixPath) -> bool:
    return any(part in SKIPPED_DIRS for part in relative.parts[:-1]) or relative.name.endswith(
        (".min.js", ".bundle.js")
    )


def analyzed_files(root: Path, analyzer: str) -> dict[str, str]:
    """Repository-relative path (POSIX) -> text of every file ``analyzer`` reads under
    ``root``, sorted by path. Files that are not UTF-8 or too large are left out."""
    suffixes = SUFFIXES[analyzer]
    files: dict[str, str] = {}
    for path in sorted(root.rglob("*")):
        if path.suffix not in suffixes or path.is_symlink() or not path.is_file():
            continue
        relative = PurePosixPath(path.relative_to(root).as_posix())
        if _skipped(relative) or path.stat().st_size > MAX_FILE_BYTES:
            continue
        try:
            files[str(relative)] = safe_files.read_text(path, MAX_FILE_BYTES, follow=False)
        except (UnicodeDecodeError, OSError):
            continue
    return files


def with_edit(files: Mapping[str, str], path: str, text: str) -> dict[str, str]:
    """``files`` with ``path`` replaced by (or added as) ``text``."""
    edited = dict(files)
    edited[path] = text
    return dict(sorted(edited.items()))


def tree_key(files: Mapping[str, str]) -> str:
    """sha256 over the (path, content) pairs: what a whole-repository analysis depends on."""
    digest = hashlib.sha256()
    for path in sorted(files):
        content = hashlib.sha256(files[path].encode("utf-8", "surrogatepass")).hexdigest()
        digest.update(f"{path}\0{content}\n".encode())
    return digest.hexdigest()
