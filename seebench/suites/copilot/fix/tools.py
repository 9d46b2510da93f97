"""The pinned analyzers of the fix scenario and the tools folder that holds the npm ones.

pylint is a Python dependency (the ``copilot`` extra); pyright, eslint and typescript come
from npm and are installed by ``seebench copilot tools install`` into one folder per machine
(per user): ``$XDG_DATA_HOME/seebench/tools/copilot-fix``, by default
``~/.local/share/seebench/tools/copilot-fix``, shared by every ``SEEBENCH_HOME``
(``SEEBENCH_COPILOT_TOOLS`` overrides the folder; a folder installed under a results home by an
older seebench is still used when the machine folder has none). A missing tool raises
:class:`~seebench.errors.MissingToolError`: the unit is skipped, the line names the command
that installs it. The
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

from seebench import safe_files
from seebench.errors import MissingToolError, SeebenchError

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
INSTALL_COMMAND = "seebench copilot tools install"
INSTALL_HINT = f"install it with '{INSTALL_COMMAND}'"
NODE_HINT = "install Node.js >= 18 and npm (Debian: 'apt-get install nodejs npm')"


def machine_tools_dir() -> Path:
    """The per-machine folder of the npm analyzers (under ``$XDG_DATA_HOME``)."""
    data_home = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(data_home).expanduser() / "seebench" / "tools" / "copilot-fix"


def tools_dir() -> Path:
    """Where the npm analyzers live: ``$SEEBENCH_COPILOT_TOOLS``, else the machine folder
    (:func:`machine_tools_dir`); a results home's own ``tools/copilot-fix`` (where older
    releases installed them) only when the machine folder holds no install."""
    configured = os.environ.get(TOOLS_ENV)
    if configured:
        return Path(configured).expanduser()
    machine = machine_tools_dir()
    if (machine / "package.json").is_file():
        return machine
    from seebench.data.cache import seebench_home

    legacy = seebench_home() / "tools" / "copilot-fix"
    return legacy if (legacy / "package.json").is_file() else machine


def node_executable() -> str:
    """The ``node`` binary (Node.js 18 or later) on ``PATH``."""
    node = shutil.which("node")
    if node is None:
        raise MissingToolError(f"the fix scenario's analyzers need Node.js: {NODE_HINT}")
    return os.path.realpath(node)


def package_dir(name: str, root: Path | None = None) -> Path:
    return (root or tools_dir()) / "node_modules" / name


def installed_version(name: str, root: Path | None = None) -> str | None:
    """The version of npm package ``name`` in the tools folder, or ``None``."""
    manifest = package_dir(name, root) / "package.json"
    try:
        text = safe_files.read_text(manifest, safe_files.TEXT_MAX_BYTES)
        value = json.loads(text).get("version")
    except (OSError, ValueError, AttributeError, RecursionError):
        return None
    return value if isinstance(value, str) else None


def check_npm_tools(names: tuple[str, ...], root: Path | None = None) -> None:
    """Raise one clear line unless each of ``names`` is installed at its pinned version."""
    for name in names:
        found = installed_version(name, root)
        if found != NPM_PACKAGES[name]:
            state = "not installed" if found is None else f"at {found}"
            raise MissingToolError(
                f"{name} {NPM_PACKAGES[name]} is {state} in {root or tools_dir()}: {INSTALL_HINT}"
            )


@cache
def pylint_version() -> str:
    """The installed pylint's version; an error when pylint is missing."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("pylint")
    except PackageNotFoundError:
        raise MissingToolError(
            f"pylint is not installed: install it with \"pip install 'pylint=={PYLINT_VERSION}'\""
        ) from None


def check_pylint() -> None:
    """Raise one clear line unless the pinned pylint is installed."""
    found = pylint_version()
    if found != PYLINT_VERSION:
        raise MissingToolError(
            f"pylint {PYLINT_VERSION} is pinned, {found} is installed: install it with "
            f"\"pip install 'pylint=={PYLINT_VERSION}'\""
        )


def install_tools(root: Path | None = None, npm: str | None = None) -> Path:
    """Install the pinned npm analyzers into ``root``: by default ``$SEEBENCH_COPILOT_TOOLS``
    or the machine folder, never a results home's legacy folder."""
    configured = os.environ.get(TOOLS_ENV)
    root = root or (Path(configured).expanduser() if configured else machine_tools_dir())
    npm = npm or shutil.which("npm")
    if npm is None:
        raise MissingToolError(f"npm is not on PATH: {NODE_HINT}")
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
