"""The four analyzers of part 1, run over a whole repository copy instead of one file alone.

Versions and settings are part 1's (:mod:`seebench.suites.copilot.fix.analyzers`), so the
two rules differ only in what the analyzer sees. The repository's files of the analyzer's
language (:mod:`.tree`) are copied into ``__repo__/`` of the sandbox's work directory, the
edited file replacing the original, and the analyzer runs once over all of them:

- **pylint**: one linter over every file, the import path cut to the standard library, the
  repository root and (when its environment is ready) the environment's site-packages;
- **pyright**: a ``pyrightconfig.json`` at the repository root including the whole tree, the
  environment's virtualenv when ready, else an empty one (bundled stubs only);
- **eslint**: part 1's flat config over every JavaScript file (explicit list);
- **tsc**: one program of every TypeScript file with part 1's compiler options.

Every file's diagnostics are kept, keyed by repository-relative path.
"""

from __future__ import annotations

import hashlib
import json
import sys
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from seebench.sandbox import Limits, SandboxRequest
from seebench.suites.copilot.fix import tools
from seebench.suites.copilot.fix.analyzers import (
    ESLINT_CONFIG,
    PYRIGHT_CONFIG,
    TSC_OPTIONS,
    Analyzer,
    AnalyzerError,
    Diagnostic,
    analyzer,
)

ROOT = "__repo__"
PYRIGHT_EXCLUDE = ["**/node_modules", "**/__pycache__", "**/.*"]


@dataclass(frozen=True)
class EnvPaths:
    """What of a repository's environment the analyzer gets: Python import folders
    (site-packages), a virtualenv root for pyright, the host folders to mount, and a note
    (``"none: <why>"`` when no environment is used)."""

    key: str = "none"
    python_paths: tuple[str, ...] = ()
    venv: str | None = None
    mounts: tuple[str, ...] = ()
    note: str = "none"


def _driver(name: str) -> str:
    package = resources.files("seebench.suites.copilot.repo_fix.drivers")
    return (package / name).read_text("utf-8")


def _hash(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _node(script: str, memory_mb: int) -> list[str]:
    return [tools.node_executable(), f"--max-old-space-size={memory_mb * 3 // 4}", script]


def _relative(path: str) -> str | None:
    marker = f"/{ROOT}/"
    return path.split(marker, 1)[1] if marker in path else None


class RepoAnalyzer:
    """Part 1's analyzer ``name`` in repository mode."""

    #: CPU seconds: a start-up allowance plus this much per analysed file
    startup_cpu_s = 60.0
    cpu_per_file_s = 3.0
    memory_mb = 3072

    def __init__(self, name: str) -> None:
        self.tool: Analyzer = analyzer(name)
        self.name = name

    def settings(self) -> dict[str, Any]:
        """What repository mode adds to part 1's identity."""
        extra: dict[str, Any] = {"scope": "repository"}
        if self.name == "pylint":
            extra["driver"] = _hash(_driver("repo_pylint_driver.py"))
        elif self.name == "tsc":
            extra["driver"] = _hash(_driver("repo_tsc_driver.js"))
        elif self.name == "pyright":
            extra["exclude"] = PYRIGHT_EXCLUDE
        return extra

    def identity(self) -> dict[str, Any]:
        return {**self.tool.identity(), "repository_mode": self.settings()}

    def identity_hash(self) -> str:
        return hashlib.sha256(json.dumps(self.identity(), sort_keys=True).encode()).hexdigest()[:16]

    def check_installed(self) -> None:
        self.tool.check_installed()

    def mounts(self, env: EnvPaths) -> tuple[str, ...]:
        return (*self.tool.mounts(), *env.mounts)

    def limits(self, files: int) -> Limits:
        cpu = self.startup_cpu_s + self.cpu_per_file_s * files
        return Limits(
            cpu_s=cpu,
            wall_s=4 * cpu + 120,
            memory_mb=self.memory_mb,
            address_space_mb=self.memory_mb + 2048 if self.tool.npm else None,
            processes=64,
            disk_mb=512,
            output_bytes=32 * 1024 * 1024,
        )

    def request(self, files: dict[str, str], env: EnvPaths) -> SandboxRequest:
        """The sandbox run analysing the repository ``files`` (relative path -> text)."""
        tree: dict[str, str | bytes] = {f"{ROOT}/{path}": text for path, text in files.items()}
        listing = "\n".join(files) + "\n"
        limits = self.limits(len(files))
        if self.name == "pylint":
            tree |= {
                "repo_pylint_driver.py": _driver("repo_pylint_driver.py"),
                "files.txt": listing,
            }
            argv = [sys.executable, "-I", "repo_pylint_driver.py", ROOT]
            for folder in env.python_paths:
                argv += ["--path", folder]
            return SandboxRequest(files=tree, command=argv, limits=limits)
        if self.name == "pyright":
            config: dict[str, Any] = {**PYRIGHT_CONFIG, "include": ["."]}
            config["exclude"] = PYRIGHT_EXCLUDE
            if env.venv:
                config["venvPath"], config["venv"] = env.venv.rsplit("/", 1)
            else:
                config["venvPath"] = ".."
                tree["env/lib/python3.12/site-packages/README"] = ""
            tree[f"{ROOT}/pyrightconfig.json"] = json.dumps(config)
            script = str(tools.package_dir("pyright") / "index.js")
            argv = [*_node(script, self.memory_mb), "--outputjson", "-p", ROOT]
            return SandboxRequest(files=tree, command=argv, limits=limits)
        if self.name == "eslint":
            package_json = json.dumps(str(tools.tools_dir() / "package.json"))
            tree["eslint.config.mjs"] = ESLINT_CONFIG.format(package_json=package_json)
            script = str(tools.package_dir("eslint") / "bin" / "eslint.js")
            argv = [*_node(script, self.memory_mb), "--format", "json"]
            argv += ["--no-warn-ignored", "-c", "eslint.config.mjs"]
            argv += [f"{ROOT}/{path}" for path in files]
            return SandboxRequest(files=tree, command=argv, limits=limits)
        if self.name == "tsc":
            tree |= {
                "repo_tsc_driver.js": _driver("repo_tsc_driver.js"),
                "tsc_options.json": json.dumps(TSC_OPTIONS),
                "files.txt": listing,
            }
            typescript = str(tools.package_dir("typescript"))
            node = _node("repo_tsc_driver.js", self.memory_mb)
            return SandboxRequest(files=tree, command=[*node, typescript, ROOT], limits=limits)
        raise AnalyzerError(f"no repository mode for analyzer {self.name!r}")

    def parse(self, stdout: str, names: list[str]) -> dict[str, list[Diagnostic]]:
        """Every file's diagnostics (each of ``names`` present, possibly empty)."""
        out: dict[str, list[Diagnostic]] = {name: [] for name in names}
        if self.name in ("pylint", "tsc"):
            data = _load(stdout, "{")
            if not isinstance(data, dict):
                raise AnalyzerError(f"{self.name} output is not an object")
            for name, entries in data.items():
                if isinstance(entries, dict):
                    raise AnalyzerError(f"{self.name} failed on {name}: {entries.get('error')}")
                out[name] = [self._diagnostic(entry) for entry in entries]
        elif self.name == "pyright":
            data = _load(stdout, "{")
            diagnostics = data.get("generalDiagnostics") if isinstance(data, dict) else None
            if not isinstance(diagnostics, list):
                raise AnalyzerError(f"pyright output has no diagnostics list: {stdout[:200]!r}")
            for item in diagnostics:
                name = _relative(str(item.get("file", "")))
                if item.get("severity") != "error" or name is None:
                    continue
                start = item.get("range", {}).get("start", {})
                out.setdefault(name, []).append(
                    Diagnostic(
                        str(item.get("rule", "")),
                        str(item.get("message", "")),
                        int(start.get("line", 0)) + 1,
                        int(start.get("character", 0)) + 1,
                    )
                )
        else:
            data = _load(stdout, "[")
            if not isinstance(data, list):
                raise AnalyzerError("eslint output is not a list")
            for entry in data:
                name = _relative(str(entry.get("filePath", "")))
                if name is None:
                    raise AnalyzerError(f"eslint reported on an unknown file {entry!r:.100}")
                out[name] = [
                    Diagnostic(
                        str(m.get("ruleId") or ("parse-error" if m.get("fatal") else "")),
                        str(m.get("message", "")),
                        int(m.get("line") or 0),
                        int(m.get("column") or 1),
                    )
                    for m in entry.get("messages", [])
                ]
        return out

    def _diagnostic(self, entry: dict[str, Any]) -> Diagnostic:
        if self.name == "pylint":
            return Diagnostic(
                entry["symbol"], entry["message"], int(entry["line"]), int(entry["column"]) + 1
            )
        return Diagnostic(
            f"TS{entry['code']}", str(entry["message"]), int(entry["line"]), int(entry["column"])
        )


def _load(stdout: str, opener: str) -> Any:
    start = stdout.find(opener)
    try:
        return json.loads(stdout[start:] if start >= 0 else stdout)
    except ValueError as exc:
        raise AnalyzerError(f"analyzer printed no JSON ({exc}): {stdout[:200]!r}") from None


@cache
def repo_analyzer(name: str) -> RepoAnalyzer:
    """Part 1's analyzer ``name`` (pylint, pyright, eslint, tsc) in repository mode."""
    return RepoAnalyzer(name)
