"""What of a repository's environment (built by ``seebench copilot envs --build``) the
analyzers get.

For a Python repository whose environment is ``ready``, pylint gets the environment's
site-packages on its import path and pyright gets the environment as its virtualenv, so
imports of installed packages resolve; the environment folder is mounted read-only into the
sandbox. Otherwise (no environment module, not built, failed, excluded, JavaScript or
TypeScript) the analyzer runs without one, and the item's ``env`` verdict says why.
Environments are only looked up, never built here.
"""

from __future__ import annotations

import hashlib
import json
from functools import cache
from pathlib import Path

from seebench import safe_files
from seebench.suites.copilot.repo_fix.repo_analyzers import EnvPaths
from seebench.suites.copilot.repos.staging import StagedRepo

PYTHON_ANALYZERS = ("pylint", "pyright")


def _site_packages(root: Path) -> list[Path]:
    """The site-packages folders of the virtualenv at ``root`` or one level below it."""
    found = [*root.glob("lib/python3*/site-packages"), *root.glob("*/lib/python3*/site-packages")]
    return sorted(p for p in found if p.is_dir())


@cache
def env_paths(repo: StagedRepo, analyzer: str) -> EnvPaths:
    """The environment ``analyzer`` gets for ``repo`` (``EnvPaths()`` with a note when none)."""
    if analyzer not in PYTHON_ANALYZERS:
        return EnvPaths(note="none: installed packages are used for Python analyzers only")
    try:
        from seebench.suites.copilot.repos.envs import ensure_env
    except ImportError:
        return EnvPaths(note="none: repository environments are not available")
    try:
        env = ensure_env(repo, build=False)
    except Exception as exc:  # a damaged record must not stop the scoring of other items
        return EnvPaths(note=f"none: environment unreadable ({type(exc).__name__}: {exc})"[:200])
    if env.status != "ready" or env.root is None:
        return EnvPaths(note=f"none: environment {env.status}: {env.reason}"[:200])
    root = Path(env.root).resolve()  # mounted by its real path
    folders = _site_packages(root)
    if not folders:
        return EnvPaths(note=f"none: no site-packages under {root}")
    key = hashlib.sha256(f"{env.slug}\n{env.manifest_sha256}\n{root}".encode()).hexdigest()
    return EnvPaths(
        key=key[:32],
        python_paths=tuple(str(f) for f in folders),
        venv=str(folders[0].parents[2]),
        mounts=(str(root),),
        note=f"ready: {env.manifest_sha256[:12]}",
    )


def ready_environments_digest() -> str:
    """A digest of which environments are ready under ``repos_dir()/envs`` (folder name and
    manifest of every ready record): part of the scorer's identity for the Python analyzers,
    so scores computed before an environment was built are not reused after."""
    from seebench.suites.copilot.repos.staging import repos_dir

    ready = []
    for record in sorted((repos_dir() / "envs").glob("*/record.json")):
        try:
            text = safe_files.read_text(record, safe_files.TEXT_MAX_BYTES)
            env = json.loads(text).get("env", {})
        except (OSError, ValueError, AttributeError, RecursionError):
            continue
        if isinstance(env, dict) and env.get("status") == "ready":
            ready.append(f"{record.parent.name}:{env.get('manifest_sha256')}")
    return hashlib.sha256("\n".join(ready).encode()).hexdigest()[:16]
