"""The pinned analyzers of the fix scenario and the tools folder that holds the npm ones.

pylint is a Python dependency (the ``copilot`` extra); pyright, eslint and typescript come
from npm and are installed by ``seebench copilot tools install`` into
``$SEEBENCH_HOME/tools/copilot-fix`` (``SEEBENCH_COPILOT_TOOLS`` overrides the folder). The
versions are those of mid-2024, the era of the harness's data (its rules include pylint's
``possibly-used-before-assignment``, new in 3.2, and eslint 9's "rule not found" for
``valid-jsdoc``).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from functools import cache
from pathlib import Path

from seebench.errors import SeebenchError

#: npm packages (exact versions) installed into the tools folder
NPM_PACKAGES: dict[str, str] = {
    "pyright": "1.1.378",
    "eslint": "9.9.0",
    "@eslint/js": "9.9.0",
    "globals": "15.9.0",
    "typescript": "5.5.4",
}
#: the pylint release the scores are defined with (also pinned in the ``copilot`` extra)
PYLINT_VERSION = "3.2.7"
TOOLS_ENV = "SEEBENCH_COPILOT_TOOLS"
INSTALL_HINT = "run 'seebench copilot tools install'"


def tools_dir() -> Path:
    """Where the npm analyzers live (``$SEEBENCH_COPILOT_TOOLS`` or under ``SEEBENCH_HOME``)."""
    configured = os.environ.get(TOOLS_ENV)
    if configured:
        return Path(configured).expanduser()
    from seebench.data.cache import seebench_home

    return seebench_home() / "tools" / "copilot-fix"


def node_executable() -> str:
    """The ``node`` binary (Node.js 18 or later) on ``PATH``."""
    node = shutil.which("node")
    if node is None:
        raise SeebenchError(
            "the fix scenario's npm analyzers need Node.js: install it (Debian: apt-get install "
            "nodejs npm)"
        )
    return os.path.realpath(node)


def package_dir(name: str, root: Path | None = None) -> Path:
    return (root or tools_dir()) / "node_modules" / name


def installed_version(name: str, root: Path | None = None) -> str | None:
    """The version of npm package ``name`` in the tools folder, or ``None``."""
    manifest = package_dir(name, root) / "package.json"
    try:
        value = json.loads(manifest.read_text(encoding="utf-8")).get("version")
    except (OSError, ValueError, AttributeError):
        return None
    return value if isinstance(value, str) else None


def check_npm_tools(names: tuple[str, ...], root: Path | None = None) -> None:
    """Raise one clear line unless each of ``names`` is installed at its pinned version."""
    for name in names:
        found = installed_version(name, root)
        if found != NPM_PACKAGES[name]:
            state = "not installed" if found is None else f"at {found}"
            raise SeebenchError(
                f"{name} {NPM_PACKAGES[name]} is {state} in {root or tools_dir()}: {INSTALL_HINT}"
            )


@cache
def pylint_version() -> str:
    """The installed pylint's version; an error when pylint is missing."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("pylint")
    except PackageNotFoundError:
        raise SeebenchError("pylint is not installed: pip install 'seebench[copilot]'") from None


def check_pylint() -> None:
    """Raise one clear line unless the pinned pylint is installed."""
    found = pylint_version()
    if found != PYLINT_VERSION:
        raise SeebenchError(
            f"pylint {PYLINT_VERSION} is pinned, {found} is installed: "
            f"pip install 'pylint=={PYLINT_VERSION}'"
        )


def install_tools(root: Path | None = None, npm: str | None = None) -> Path:
    """Install the pinned npm analyzers into ``root`` (the tools folder by default)."""
    root = root or tools_dir()
    npm = npm or shutil.which("npm")
    if npm is None:
        raise SeebenchError("npm is not on PATH (Debian: apt-get install nodejs npm)")
    root.mkdir(parents=True, exist_ok=True)
    manifest = {
        "name": "seebench-copilot-fix-tools",
        "private": True,
        "version": "1.0.0",
        "dependencies": dict(NPM_PACKAGES),
    }
    (root / "package.json").write_text(json.dumps(manifest, indent=1) + "\n", encoding="utf-8")
    command = [npm, "install", "--no-audit", "--no-fund", "--ignore-scripts", "--save-exact"]
    completed = subprocess.run(
        command, cwd=root, capture_output=True, text=True, timeout=900, check=False
    )
    if completed.returncode != 0:
        tail = (completed.stderr or completed.stdout).strip().splitlines()[-1:] or ["?"]
        raise SeebenchError(f"npm install in {root} failed: {tail[0]}")
    check_npm_tools(tuple(NPM_PACKAGES), root)
    return root
