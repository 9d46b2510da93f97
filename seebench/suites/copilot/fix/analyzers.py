"""The four analyzers of the fix scenario: how each is run in the sandbox and read back.

Every analyzer gets a batch of files, each in its own folder of the sandbox's work directory
(``f0/six.py``, ``f1/logger.js``...), so no file sees another: each is analysed alone, with
nothing of its repository around it. Settings (the same for the original and the edited file):

- **pylint** ``--errors-only`` (every rule of the data is an error-category message), no rc
  file, the standard library only on the import path;
- **pyright** its default ``standard`` mode, Python 3.12 on Linux, an empty environment (only
  the bundled typeshed stubs);
- **eslint** 9 with ``@eslint/js``'s ``recommended`` rules, browser and Node globals, latest
  ECMAScript as modules, inline ``eslint-disable`` comments honoured;
- **tsc** (the TypeScript API) ``strict``, ES2022, no emit, no ``@types`` packages.
"""

from __future__ import annotations

import hashlib
import json
import sys
from dataclasses import asdict, dataclass
from functools import cache
from importlib import resources
from pathlib import PurePosixPath
from typing import Any

from seebench.sandbox import Limits, SandboxRequest
from seebench.suites.copilot.fix import tools

PYRIGHT_CONFIG = {
    "pythonVersion": "3.12",
    "pythonPlatform": "Linux",
    "venvPath": ".",
    "venv": "env",
}
#: an empty virtual environment: pyright then resolves imports from its bundled stubs only
PYRIGHT_EMPTY_ENV = "env/lib/python3.12/site-packages/README"
TSC_OPTIONS = {
    "strict": True,
    "noEmit": True,
    "target": "es2022",
    "module": "esnext",
    "moduleResolution": "bundler",
    "skipLibCheck": True,
    "types": [],
    "jsx": "preserve",
}
ESLINT_CONFIG = """import {{ createRequire }} from "node:module";
const require = createRequire({package_json});
const js = require("@eslint/js");
const globals = require("globals");
export default [
  js.configs.recommended,
  {{
    languageOptions: {{
      ecmaVersion: "latest",
      sourceType: "module",
      globals: {{ ...globals.browser, ...globals.node }},
    }},
    linterOptions: {{ reportUnusedDisableDirectives: "off" }},
  }},
];
"""


@dataclass(frozen=True)
class Diagnostic:
    """One warning: the analyzer's rule id, its message and where it is (1-based)."""

    rule: str
    message: str
    line: int
    column: int = 1

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: Any) -> Diagnostic:
        """Rebuild a diagnostic from :meth:`as_dict` (``ValueError`` on anything else)."""
        if not isinstance(data, dict):
            raise ValueError(f"not a diagnostic: {data!r:.80}")
        rule, message = data.get("rule"), data.get("message")
        line, column = data.get("line"), data.get("column", 1)
        if not isinstance(rule, str) or not isinstance(message, str):
            raise ValueError(f"diagnostic without rule or message: {data!r:.80}")
        if not isinstance(line, int) or not isinstance(column, int) or line < 0:
            raise ValueError(f"diagnostic with a bad position: {data!r:.80}")
        return cls(rule, message, line, column)


class AnalyzerError(Exception):
    """The analyzer's output could not be read (one line)."""


def _driver(name: str) -> str:
    return (resources.files("seebench.suites.copilot.fix.drivers") / name).read_text("utf-8")


def folder_name(position: int, file_name: str) -> str:
    """Where file ``position`` of a batch lies in the work dir: its own folder, its own name."""
    return f"f{position}/{PurePosixPath(file_name).name}"


class Analyzer:
    """One analyzer: its name, the language it reads, how a batch runs and is read back."""

    name = ""
    language = ""
    npm: tuple[str, ...] = ()
    batch_size = 20
    #: CPU seconds allowed per file of a batch (on top of a fixed start-up allowance)
    cpu_per_file_s = 6.0
    startup_cpu_s = 20.0
    memory_mb = 1536

    def settings(self) -> Any:
        """The configuration that decides its warnings (part of its identity)."""
        raise NotImplementedError

    def versions(self) -> dict[str, str]:
        return {name: tools.NPM_PACKAGES[name] for name in self.npm}

    def identity(self) -> dict[str, Any]:
        """Everything that changes what it reports: versions and settings."""
        return {"analyzer": self.name, "versions": self.versions(), "settings": self.settings()}

    def identity_hash(self) -> str:
        blob = json.dumps(self.identity(), sort_keys=True).encode()
        return hashlib.sha256(blob).hexdigest()[:16]

    def check_installed(self) -> None:
        """Raise one clear line when a tool it needs is missing."""
        tools.check_npm_tools(self.npm)
        tools.node_executable()

    def mounts(self) -> tuple[str, ...]:
        """Host folders the sandbox must show (read-only)."""
        return (str(tools.tools_dir()),) if self.npm else ()

    def limits(self, files: int) -> Limits:
        cpu = self.startup_cpu_s + self.cpu_per_file_s * files
        return Limits(
            cpu_s=cpu,
            wall_s=6 * cpu + 60,  # a backstop: a busy machine stretches wall time
            memory_mb=self.memory_mb,
            address_space_mb=self.memory_mb + 2048 if self.npm else None,
            processes=64,
            disk_mb=256,
            output_bytes=16 * 1024 * 1024,
        )

    def request(self, batch: dict[str, str]) -> SandboxRequest:
        """The sandbox run that analyses ``batch`` (work-dir path -> content)."""
        raise NotImplementedError

    def parse(self, stdout: str, names: list[str]) -> dict[str, list[Diagnostic]]:
        """The diagnostics of each of ``names`` in the analyzer's output."""
        raise NotImplementedError

    def _node(self, script: str, heap_mb: int | None = None) -> list[str]:
        heap = heap_mb or self.memory_mb * 3 // 4
        return [tools.node_executable(), f"--max-old-space-size={heap}", script]


def _load_json(stdout: str, what: str, opener: str = "{") -> Any:
    """The JSON document an analyzer printed (anything before its first ``opener`` skipped)."""
    start = stdout.find(opener)
    try:
        return json.loads(stdout[start:] if start >= 0 else stdout)
    except ValueError as exc:
        raise AnalyzerError(f"{what} printed no JSON ({exc}): {stdout[:200]!r}") from None


def _per_file(data: Any, names: list[str], what: str) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise AnalyzerError(f"{what} output is not an object")
    missing = [n for n in names if n not in data]
    if missing:
        raise AnalyzerError(f"{what} output has no entry for {missing[0]}")
    for name in names:
        entry = data[name]
        if isinstance(entry, dict) and "error" in entry:
            raise AnalyzerError(f"{what} failed on {name}: {entry['error']}")
        if not isinstance(entry, list):
            raise AnalyzerError(f"{what} output for {name} is not a list")
    return data


class Pylint(Analyzer):
    name = "pylint"
    language = "python"
    #: each process rebuilds the syntax trees of the standard-library modules its files use,
    #: so larger batches share more of them: the 88 pylint files of a fresh home's
    #: copilot_fix_pylint took 197 CPU-s in batches of 5 and 157 in batches of 22 (the same
    #: diagnostics; two of one file in the other order)
    batch_size = 22
    cpu_per_file_s = 40.0  # pylint's inference takes tens of seconds on a large module

    def settings(self) -> Any:
        return {"driver": _hash(_driver("pylint_driver.py"))}

    def versions(self) -> dict[str, str]:
        return {"pylint": tools.pylint_version(), "python": sys.version.split()[0]}

    def check_installed(self) -> None:
        tools.check_pylint()

    def request(self, batch: dict[str, str]) -> SandboxRequest:
        files = {**batch, "pylint_driver.py": _driver("pylint_driver.py")}
        argv = [sys.executable, "-I", "pylint_driver.py", *batch]
        return SandboxRequest(files=files, command=argv, limits=self.limits(len(batch)))

    def parse(self, stdout: str, names: list[str]) -> dict[str, list[Diagnostic]]:
        """Each file's diagnostics in position order: pylint's own order of the messages
        at one position depends on what the process inferred before (the batch)."""
        data = _per_file(_load_json(stdout, "pylint"), names, "pylint")
        return {
            name: sorted(
                (
                    Diagnostic(m["symbol"], m["message"], int(m["line"]), int(m["column"]) + 1)
                    for m in data[name]
                ),
                key=lambda d: (d.line, d.column, d.rule, d.message),
            )
            for name in names
        }


class Pyright(Analyzer):
    name = "pyright"
    language = "python"
    npm = ("pyright",)
    #: each process loads the bundled typeshed stubs again: the 139 pyright files of a fresh
    #: home's copilot_fix_pyright took 85 CPU-s in batches of 20 and 60 in batches of 70
    #: (the same diagnostics)
    batch_size = 70
    cpu_per_file_s = 4.0

    def settings(self) -> Any:
        return PYRIGHT_CONFIG

    def request(self, batch: dict[str, str]) -> SandboxRequest:
        config = {**PYRIGHT_CONFIG, "include": list(batch)}
        files = {**batch, "pyrightconfig.json": json.dumps(config), PYRIGHT_EMPTY_ENV: ""}
        script = str(tools.package_dir("pyright") / "index.js")
        argv = [*self._node(script), "--outputjson", "-p", "pyrightconfig.json"]
        return SandboxRequest(files=files, command=argv, limits=self.limits(len(batch)))

    def parse(self, stdout: str, names: list[str]) -> dict[str, list[Diagnostic]]:
        data = _load_json(stdout, "pyright")
        diagnostics = data.get("generalDiagnostics") if isinstance(data, dict) else None
        if not isinstance(diagnostics, list):
            raise AnalyzerError(f"pyright output has no diagnostics list: {stdout[:200]!r}")
        out: dict[str, list[Diagnostic]] = {name: [] for name in names}
        for item in diagnostics:
            if item.get("severity") != "error":
                continue
            path = str(item.get("file", ""))
            name = next((n for n in names if path.endswith("/" + n)), None)
            if name is None:
                raise AnalyzerError(f"pyright reported on an unknown file {path!r}")
            start = item.get("range", {}).get("start", {})
            out[name].append(
                Diagnostic(
                    str(item.get("rule", "")),
                    str(item.get("message", "")),
                    int(start.get("line", 0)) + 1,
                    int(start.get("character", 0)) + 1,
                )
            )
        return out


class Eslint(Analyzer):
    name = "eslint"
    language = "javascript"
    npm = ("eslint", "@eslint/js", "globals")
    batch_size = 80
    cpu_per_file_s = 2.0

    def settings(self) -> Any:
        return {"config": _hash(ESLINT_CONFIG)}

    def request(self, batch: dict[str, str]) -> SandboxRequest:
        package_json = json.dumps(str(tools.tools_dir() / "package.json"))
        files = {**batch, "eslint.config.mjs": ESLINT_CONFIG.format(package_json=package_json)}
        script = str(tools.package_dir("eslint") / "bin" / "eslint.js")
        argv = [*self._node(script), "--format", "json", "--no-warn-ignored", "-c"]
        argv += ["eslint.config.mjs", *batch]
        return SandboxRequest(files=files, command=argv, limits=self.limits(len(batch)))

    def parse(self, stdout: str, names: list[str]) -> dict[str, list[Diagnostic]]:
        data = _load_json(stdout, "eslint", opener="[")
        if not isinstance(data, list):
            raise AnalyzerError("eslint output is not a list")
        out: dict[str, list[Diagnostic]] = {}
        for entry in data:
            path = str(entry.get("filePath", ""))
            name = next((n for n in names if path.endswith("/" + n)), None)
            if name is None:
                raise AnalyzerError(f"eslint reported on an unknown file {path!r}")
            out[name] = [
                Diagnostic(
                    str(m.get("ruleId") or ("parse-error" if m.get("fatal") else "")),
                    str(m.get("message", "")),
                    int(m.get("line") or 0),
                    int(m.get("column") or 1),
                )
                for m in entry.get("messages", [])
            ]
        missing = [n for n in names if n not in out]
        if missing:
            raise AnalyzerError(f"eslint output has no entry for {missing[0]}")
        return out


class Tsc(Analyzer):
    name = "tsc"
    language = "typescript"
    npm = ("typescript",)
    batch_size = 40
    cpu_per_file_s = 4.0

    def settings(self) -> Any:
        return {"options": TSC_OPTIONS, "driver": _hash(_driver("tsc_driver.js"))}

    def request(self, batch: dict[str, str]) -> SandboxRequest:
        files = {
            **batch,
            "tsc_driver.js": _driver("tsc_driver.js"),
            "tsc_options.json": json.dumps(TSC_OPTIONS),
        }
        typescript = str(tools.package_dir("typescript"))
        argv = [*self._node("tsc_driver.js"), typescript, *batch]
        return SandboxRequest(files=files, command=argv, limits=self.limits(len(batch)))

    def parse(self, stdout: str, names: list[str]) -> dict[str, list[Diagnostic]]:
        data = _per_file(_load_json(stdout, "tsc"), names, "tsc")
        return {
            name: [
                Diagnostic(f"TS{d['code']}", str(d["message"]), int(d["line"]), int(d["column"]))
                for d in data[name]
            ]
            for name in names
        }


def _hash(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:16]


ANALYZERS: dict[str, type[Analyzer]] = {a.name: a for a in (Pylint, Pyright, Eslint, Tsc)}


@cache
def analyzer(name: str) -> Analyzer:
    """The analyzer called ``name`` (pylint, pyright, eslint, tsc)."""
    try:
        return ANALYZERS[name]()
    except KeyError:
        from seebench.errors import SeebenchError

        known = ", ".join(ANALYZERS)
        raise SeebenchError(f"unknown analyzer {name!r}; known: {known}") from None
