"""JavaScript and TypeScript repository environments (npm). Work in progress."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

DEFAULT_RUNNER = ""
MANIFEST_NAMES = ("package.json", "package-lock.json", "npm-shrinkwrap.json", "yarn.lock")


def manifest_files(tree: Path) -> list[Path]:
    return [tree / name for name in MANIFEST_NAMES if (tree / name).is_file()]


def build_node_env(tree: Path, env_dir: Path, cache_dir: Path, commit_time: datetime):
    return {}, "JavaScript/TypeScript environments are not supported yet"
