"""Python repository environments: a venv from the repository's own manifests, built by uv.

What is installed: the project's dependencies with its test extras (``test``, ``tests``,
``testing``, ``dev``, where declared), the ``requirements*.txt`` and ``requirements/*.txt``
files (documentation ones left out), ``tox.ini``'s ``[testenv]`` dependencies, PEP 735 and
poetry dev groups of those names, plus pytest, coverage, pip, setuptools and wheel (a pin of
a pytest too old for Python 3.11 is overridden: :data:`OVERRIDES`). The project is
installed from a copy of its tree only so its build backend resolves its metadata, then
uninstalled: test runs import the COPY of the tree that a run changes, found through
``PYTHONPATH`` (the folders that hold the project's top-level packages: ``src/``,
``lib/``, the root...).

Versions: ``uv pip install --exclude-newer`` the later of the commit time and
:data:`PYTHON_RELEASED` (nothing older than Python 3.11 can be expected to support it; it is
the only interpreter here). Attempts, the first that installs wins: dated with the project's
metadata, dated without it, then both without a date bound; the record says which.
"""

from __future__ import annotations

import configparser
import json
import re
import shutil
import sys
import tomllib
from datetime import datetime
from pathlib import Path
from typing import TypedDict
from urllib.parse import unquote, urlparse

from seebench import safe_files
from seebench.errors import SeebenchError
from seebench.suites.copilot.repos.build_jail import last_meaningful_line, run_build

PYTHON_RELEASED = datetime.fromisoformat("2022-10-24T00:00:00+00:00")  # CPython 3.11.0
TEST_EXTRAS = ("test", "tests", "testing", "dev")
#: the files whose content decides the environment (the cache key hashes them)
MANIFEST_NAMES = ("pyproject.toml", "setup.py", "setup.cfg", "tox.ini", "Pipfile")
TOOLS = ("pytest", "coverage")
#: uv ``--override``: a repository pin of an older pytest is replaced (pytest before 7.1
#: does not start on Python 3.11: ``AttributeError: __spec__``, ``lineno missing from alias``),
#: and so are pins of its own dependencies below what pytest 7.1 needs (which changes
#: nothing where pytest 7.1 or later resolves anyway)
OVERRIDES = ("pytest>=7.1", "pluggy>=0.12", "py>=1.8.2", "attrs>=19.2.0")
#: installed with the same date bound (``uv venv --seed`` would take today's versions)
SEED = ("pip", "setuptools", "wheel")
DEFAULT_RUNNER = "pytest"
INSTALL_TIMEOUT_S = 1200.0


def has_manifest(tree: Path) -> bool:
    """Whether ``tree`` declares Python dependencies or a project."""
    return any((tree / name).is_file() for name in MANIFEST_NAMES) or bool(requirement_files(tree))


def requirement_files(tree: Path) -> list[Path]:
    """The repository's requirements files that a test environment needs (not docs')."""
    found = [*tree.glob("*requirements*.txt"), *tree.glob("requirements/*.txt")]
    return sorted(p for p in found if p.is_file() and "doc" not in p.name.lower())


def manifest_files(tree: Path) -> list[Path]:
    """Every file whose content decides the environment."""
    return [tree / name for name in MANIFEST_NAMES if (tree / name).is_file()] + requirement_files(
        tree
    )


def _text(path: Path) -> str:
    """A repository's (or an installed distribution's) text file, bad bytes replaced; a FIFO,
    a device or a file over 64 MiB is refused (:class:`~seebench.safe_files.UnsafeFileError`)."""
    return safe_files.read_text(path, safe_files.TEXT_MAX_BYTES, errors="replace")


def _is_project(tree: Path) -> bool:
    if (tree / "setup.py").is_file():
        return True
    if (tree / "setup.cfg").is_file() and "[metadata]" in _text(tree / "setup.cfg"):
        return True
    return bool(_pyproject(tree).get("project") or _pyproject(tree).get("build-system"))


def _pyproject(tree: Path) -> dict:
    path = tree / "pyproject.toml"
    if not path.is_file():
        return {}
    try:
        return tomllib.loads(safe_files.read_text(path, safe_files.TEXT_MAX_BYTES))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError, OSError):
        return {}


def extra_requirements(tree: Path) -> list[str]:
    """Test requirements outside the project's metadata: tox ``deps``, PEP 735 groups and
    poetry's dev groups (names only: poetry's version syntax is not PEP 508)."""
    found: list[str] = []
    config = _pyproject(tree)
    groups = config.get("dependency-groups", {})
    for name in TEST_EXTRAS:
        found += [item for item in groups.get(name, []) if isinstance(item, str)]
    poetry = config.get("tool", {}).get("poetry", {})
    tables = [poetry.get("dev-dependencies", {})]
    tables += [
        poetry.get("group", {}).get(name, {}).get("dependencies", {}) for name in TEST_EXTRAS
    ]
    for table in tables:
        found += [name for name in table if name.lower() != "python"]
    tox = tree / "tox.ini"
    if tox.is_file():
        parser = configparser.ConfigParser(interpolation=None, strict=False)
        try:
            parser.read_string(_text(tox))
        except configparser.Error:
            parser = configparser.ConfigParser()
        if parser.has_option("testenv", "deps"):
            for line in parser.get("testenv", "deps").splitlines():
                line = line.split("#", 1)[0].strip()
                if line and not line.startswith("-") and "{" not in line and ":" not in line:
                    found.append(line)
    return [item for item in found if not re.match(r"^\.?\.?(\[|$)", item)]


#: requirement lines left out: the project itself (``-e .``, ``.[test]``; handled apart) and
#: version-control sources (only PyPI is reachable)
DROPPED_LINE = re.compile(
    r"^\s*((-e|--editable)\s+)?(\.{1,2}/?(\[[^\]]*\])?\s*(#.*)?$|file:|(git|hg|svn|bzr)\+)"
)


def _clean_requirements(path: Path) -> list[str]:
    """Drop :data:`DROPPED_LINE` lines from a requirements file of the build copy; return
    the dropped ones."""
    lines = _text(path).splitlines()
    dropped = [line.strip() for line in lines if DROPPED_LINE.match(line)]
    kept = [line for line in lines if not DROPPED_LINE.match(line)]
    path.write_text("\n".join(kept) + "\n", encoding="utf-8")
    return [line for line in dropped if not re.match(r"^(-e\s+)?\.", line)]


def uv_executable() -> str:
    """The ``uv`` binary (the ``copilot`` extra installs it)."""
    found = shutil.which("uv") or str(Path(sys.executable).with_name("uv"))
    if not Path(found).is_file():
        raise SeebenchError("uv is not installed: pip install 'seebench[copilot]'")
    return found


class _Jail(TypedDict):
    """The build jail's keyword arguments of :func:`run_build`."""

    writable: list[Path]
    readable: list[Path]
    env: dict[str, str]


def build_python_env(
    tree: Path, env_dir: Path, cache_dir: Path, commit_time: datetime
) -> tuple[dict, str]:
    """Build the venv of ``tree`` in ``env_dir/venv``; return (settings, failure reason).

    ``settings`` (stored in the environment's record) holds ``pythonpath`` (folders of the
    tree, relative, that hold its top-level packages), ``cutoff`` and the installed
    ``versions`` of pytest and coverage. The reason is empty on success."""
    uv = uv_executable()
    venv = env_dir / "venv"
    work = env_dir / "build"
    shutil.rmtree(work, ignore_errors=True)
    shutil.copytree(tree, work, ignore=shutil.ignore_patterns(".seebench-extracted"))
    dropped: list[str] = []
    for path in requirement_files(work):
        dropped += _clean_requirements(path)
    env = {
        "UV_CACHE_DIR": str(cache_dir),
        "UV_PYTHON_DOWNLOADS": "never",
        "UV_NO_PROGRESS": "1",
        "UV_NATIVE_TLS": "1",
    }
    jail: _Jail = {"writable": [env_dir, cache_dir], "readable": [Path(uv)], "env": env}
    base_python = str(
        Path(sys.base_prefix) / "bin" / f"python{sys.version_info[0]}.{sys.version_info[1]}"
    )
    created = run_build([uv, "venv", "--python", base_python, str(venv)], workdir=env_dir, **jail)
    if not created.ok:
        return {}, f"uv venv: {last_meaningful_line(created.output)}"
    requirements: list[str] = []
    for path in requirement_files(work):
        requirements += ["-r", str(path)]
    project = [f"{work}[{','.join(TEST_EXTRAS)}]"] if _is_project(work) else []
    tools = extra_requirements(work) + list(TOOLS) + list(SEED)
    cutoff = max(commit_time, PYTHON_RELEASED)
    overrides = env_dir / "overrides.txt"
    overrides.write_text("\n".join(OVERRIDES) + "\n", encoding="utf-8")
    base = [uv, "pip", "install", "--python", str(venv / "bin" / "python")]
    base += ["--override", str(overrides)]
    dated = ["--exclude-newer", cutoff.strftime("%Y-%m-%dT%H:%M:%SZ")]
    # the first attempt that installs wins: dated with the project's metadata, dated
    # without it (a setup.py that cannot build here), then the same without a date bound
    attempts = [(dated, project), (dated, [])] if project else [(dated, [])]
    attempts += [([], specs) for _, specs in attempts]
    failures: list[str] = []
    for bound, with_project in attempts:
        command = [*base, *bound, *requirements, *with_project, *tools]
        result = run_build(command, workdir=work, timeout_s=INSTALL_TIMEOUT_S, **jail)
        if result.ok:
            break
        failures.append(last_meaningful_line(result.output))
    else:
        return {"failures": failures}, f"uv pip install: {failures[0]}"
    settings: dict = {
        "cutoff": cutoff.isoformat() if bound else "none",
        "project_metadata": bool(with_project),
        "failed_attempts": failures,
        "dropped_requirements": dropped,
        "overrides": list(OVERRIDES),
    }
    top_level = _uninstall_project(venv, work, uv, jail)
    settings["pythonpath"] = package_roots(tree, top_level)
    settings["versions"] = installed_versions(venv, TOOLS)
    shutil.rmtree(work, ignore_errors=True)
    return settings, ""


def _site_packages(venv: Path) -> Path:
    found = sorted((venv / "lib").glob("python3*/site-packages"))
    if not found:
        raise SeebenchError(f"{venv}: no site-packages")
    return found[0]


def _uninstall_project(venv: Path, work: Path, uv: str, jail: _Jail) -> list[str]:
    """Uninstall the distribution installed from the build copy; return its top-level
    module names (from its RECORD)."""
    site = _site_packages(venv)
    for info in site.glob("*.dist-info"):
        direct = info / "direct_url.json"
        try:
            url = json.loads(_text(direct)).get("url", "")
        except (OSError, ValueError, AttributeError, RecursionError):
            continue
        if not url.startswith("file://") or Path(unquote(urlparse(url).path)) != work:
            continue
        names = _top_level(info)
        name = info.name[: -len(".dist-info")].rsplit("-", 1)[0]
        run_build(
            [uv, "pip", "uninstall", "--python", str(venv / "bin" / "python"), name],
            workdir=venv,
            **jail,
        )
        return names
    return []


def _top_level(info: Path) -> list[str]:
    names: set[str] = set()
    record = info / "RECORD"
    if record.is_file():
        for line in _text(record).splitlines():
            path = line.split(",", 1)[0]
            head = path.split("/", 1)[0]
            if head.endswith((".dist-info", ".data")) or head.startswith(("..", "__pycache__")):
                continue
            if "/" in path or head.endswith(".py") or ".cpython-" in head:
                names.add(head.split(".", 1)[0] if "/" not in path else head)
    return sorted(n for n in names if n.isidentifier())


def package_roots(tree: Path, top_level: list[str]) -> list[str]:
    """The folders of ``tree`` (relative; ``""`` is the root) that hold the project's
    top-level packages or modules; the root and ``src`` when nothing is known."""
    roots: list[str] = []
    for name in top_level:
        for candidate in [tree, *sorted(p for p in tree.iterdir() if p.is_dir())]:
            if (candidate / name / "__init__.py").is_file() or (candidate / f"{name}.py").is_file():
                relative = candidate.relative_to(tree).as_posix()
                relative = "" if relative == "." else relative
                if relative not in roots:
                    roots.append(relative)
                break
    if "" not in roots:
        roots.append("")
    if (tree / "src").is_dir() and "src" not in roots and not top_level:
        roots.append("src")
    return roots


def installed_versions(venv: Path, names: tuple[str, ...]) -> dict[str, str]:
    """name -> installed version (from the dist-info folders) of ``names`` in ``venv``."""
    versions: dict[str, str] = {}
    site = _site_packages(venv)
    for name in names:
        for info in site.glob(f"{name}-*.dist-info"):
            versions[name] = info.name[len(name) + 1 : -len(".dist-info")]
    return versions
