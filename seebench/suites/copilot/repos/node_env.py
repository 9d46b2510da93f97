"""JavaScript and TypeScript repository environments: ``node_modules`` from npm.

The repository's ``package.json`` (and ``package-lock.json`` / ``npm-shrinkwrap.json`` when
there is one: ``npm ci``; otherwise ``npm install --before=<commit time>``, so versions are
those published before the commit, then, where the registry's publish times defeat that,
plain ``npm install`` within the declared ranges; ``install`` in the record says which) is
installed in the build jail into the environment
folder, with devDependencies and WITHOUT install scripts (``--ignore-scripts``: no
repository or dependency code runs with the network; a package that needs its postinstall,
a native addon or a downloaded binary, fails its tests and the reason says so).

The runner comes from ``package.json``: the ``test`` script (followed through ``npm run
X``) names jest, mocha, vitest or ``node --test``, or one of the first three is a
dependency. Its options in the script
(``--config``, ``--require``, spec globs...) are kept; watch, coverage and reporter options
are dropped (seebench sets its own). Other runners (ava, tap, tape, karma, gulp...) leave
the environment ``failed`` with the runner's name.
"""

from __future__ import annotations

import json
import re
import shlex
import shutil
from datetime import datetime
from pathlib import Path

from seebench import safe_files
from seebench.errors import SeebenchError
from seebench.suites.copilot.repos.build_jail import last_meaningful_line, run_build

DEFAULT_RUNNER = ""
LOCKFILES = ("package-lock.json", "npm-shrinkwrap.json")
MANIFEST_NAMES = ("package.json", *LOCKFILES, "yarn.lock", "pnpm-lock.yaml")
SUPPORTED = ("jest", "mocha", "vitest")
#: every runner seebench drives (``node-test``: Node's built-in ``node --test``)
RUNNERS = (*SUPPORTED, "node-test")
OTHER_RUNNERS = ("ava", "tap", "tape", "karma", "jasmine", "uvu", "lab", "qunit")
SUPPORTED_TEXT = "jest, mocha, vitest and node --test are"
INSTALL_TIMEOUT_S = 1200.0
#: runner options seebench sets itself, or that would make a run wait or write elsewhere
DROPPED_OPTIONS = re.compile(
    r"^--?(watch\w*|coverage\w*|collectCoverage\w*|reporter\w*|R|json|outputFile|ci|silent|"
    r"verbose|colors?|no-colors?|bail|forbid-only|exit|passWithNoTests|detectOpenHandles|"
    r"forceExit|runInBand|i|maxWorkers|w|run)(=.*)?$"
)
#: options of the dropped ones that take a value in the next argument
VALUED = {
    "--reporter",
    "-R",
    "--reporter-options",
    "--reporter-option",
    "--outputFile",
    "-w",
    "--maxWorkers",
    "--coverageReporters",
    "--coverageDirectory",
}


def manifest_files(tree: Path) -> list[Path]:
    """The files whose content decides the environment."""
    return [tree / name for name in MANIFEST_NAMES if (tree / name).is_file()]


def read_package(tree: Path) -> dict:
    """``package.json`` as a mapping; an error naming the file when it is not one."""
    path = tree / "package.json"
    try:
        data = json.loads(safe_files.read_text(path, safe_files.TEXT_MAX_BYTES))
    except (OSError, ValueError, RecursionError) as error:
        raise SeebenchError(f"{path}: unreadable package.json: {error}") from None
    if not isinstance(data, dict):
        raise SeebenchError(f"{path}: package.json is not an object")
    return data


def _test_command(scripts: dict, name: str = "test", depth: int = 0) -> str:
    """The ``test`` script with ``npm run X`` / ``yarn X`` steps followed (3 levels)."""
    script = scripts.get(name)
    if not isinstance(script, str) or depth > 3:
        return ""
    parts = []
    for step in re.split(r"&&|\|\||;", script):
        step = step.strip()
        match = re.match(r"^(?:npm run(?:-script)?|yarn(?: run)?|pnpm(?: run)?)\s+([\w:.-]+)", step)
        if match and match.group(1) in scripts and match.group(1) != name:
            parts.append(_test_command(scripts, match.group(1), depth + 1))
        else:
            parts.append(step)
    return " && ".join(part for part in parts if part)


#: options that take a value in the next word (so that word is not a spec)
VALUE_OPTIONS = {
    "--require",
    "-r",
    "--ui",
    "-u",
    "--timeout",
    "-t",
    "--slow",
    "-s",
    "--grep",
    "-g",
    "--fgrep",
    "-f",
    "--config",
    "-c",
    "--package",
    "--extension",
    "--file",
    "--ignore",
    "--exclude",
    "--spec",
    "--testPathPattern",
    "--testMatch",
    "--rootDir",
    "--roots",
    "--setupFiles",
    "--testEnvironment",
    "--env",
    "--testTimeout",
    "--selectProjects",
    "--projects",
    "--testNamePattern",
    "--loader",
    "--import",
    "--environment",
    "--dir",
}


def split_arguments(words: list[str]) -> tuple[list[str], list[str]]:
    """(options, specs): specs are the positional words (test files, globs, patterns)."""
    options: list[str] = []
    specs: list[str] = []
    takes_value = False
    for word in words:
        if takes_value:
            options.append(word)
            takes_value = False
        elif word.startswith("-"):
            options.append(word)
            takes_value = word in VALUE_OPTIONS
        else:
            specs.append(word)
    return options, specs


def script_settings(package: dict) -> dict:
    """The runner and how the test script starts it: ``runner``, ``options``, ``specs``,
    ``node_options`` (``node --flag runner``) and ``env`` (``cross-env A=B``, ``A=B runner``);
    ``unsupported`` (one line) when there is no runner seebench can drive."""
    runner, words, unsupported = detect_runner(package)
    settings: dict = {"runner": runner, "node_options": [], "env": {}}
    if unsupported:
        return {**settings, "unsupported": unsupported}
    before, after = words
    # node's own flags only where the step runs node itself (nyc's or c8's options are not)
    runs_node = "node" in before and all(
        w == "node" or "=" in w for w in before[: before.index("node")]
    )
    settings["node_options"] = (
        [w for w in before[before.index("node") + 1 :] if w.startswith("--")] if runs_node else []
    )
    settings["env"] = dict(w.split("=", 1) for w in before if re.match(r"^[A-Z_][A-Z0-9_]*=", w))
    settings["options"], settings["specs"] = split_arguments(runner_options(after))
    return settings


def detect_runner(package: dict) -> tuple[str, tuple[list[str], list[str]], str]:
    """(runner, (words before it, words after it) in its test-script step, reason when
    unsupported)."""
    scripts = package.get("scripts") or {}
    command = _test_command(scripts if isinstance(scripts, dict) else {})
    dependencies = {
        **(package.get("dependencies") or {}),
        **(package.get("devDependencies") or {}),
    }
    # the last step that starts a runner: earlier ones are often partial runs (one time
    # zone, one folder) before the whole suite, or builds and linters
    for step in reversed(re.split(r"&&|\|\||;", command)):
        try:
            words = shlex.split(step)
        except ValueError:
            words = step.split()
        if words[:1] == ["node"] and "--test" in words:
            position = words.index("--test")
            return "node-test", (words[:position], words[position + 1 :]), ""
        for position, word in enumerate(words):
            name = word.rsplit("/", 1)[-1]
            if name in SUPPORTED or name in ("_mocha", "jest-cli", "mocha.js", "jest.js"):
                runner = "mocha" if "mocha" in name else "jest" if "jest" in name else name
                return runner, (words[:position], words[position + 1 :]), ""
    for other in OTHER_RUNNERS:
        if re.search(rf"(^|[\s/]){re.escape(other)}(\s|$)", command):
            return "", ([], []), f"test runner {other} is not supported ({SUPPORTED_TEXT})"
    for runner in SUPPORTED:
        if runner in dependencies:
            return runner, ([], []), ""
    for other in OTHER_RUNNERS:
        if other in dependencies:
            return "", ([], []), f"test runner {other} is not supported ({SUPPORTED_TEXT})"
    shown = command[:80] or "no test script"
    return "", ([], []), f"no supported test runner found ({shown})"


def runner_options(words: list[str]) -> list[str]:
    """The runner's options from the test script, minus :data:`DROPPED_OPTIONS`."""
    kept: list[str] = []
    skip = False
    for word in words:
        if skip:
            skip = False
            continue
        if word in VALUED:
            skip = True
            continue
        if DROPPED_OPTIONS.match(word):
            continue
        kept.append(word)
    return kept


def build_node_env(
    tree: Path, env_dir: Path, cache_dir: Path, commit_time: datetime
) -> tuple[dict, str]:
    """Install ``tree``'s dependencies into ``env_dir/node_modules``; return (settings,
    failure reason). Settings: those of :func:`script_settings`, ``install`` (the npm
    command that worked) and ``script`` (the runner's script under node_modules)."""
    settings = script_settings(read_package(tree))
    runner = settings["runner"]
    if settings.get("unsupported"):
        return settings, settings["unsupported"]
    npm = shutil.which("npm")
    if npm is None:
        return settings, "npm is not on PATH (Debian: apt-get install nodejs npm)"
    work = env_dir / "build"
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    for path in manifest_files(tree):
        shutil.copy2(path, work / path.name)
    lockfile = any((tree / name).is_file() for name in LOCKFILES)
    common = [
        "--ignore-scripts",
        "--no-audit",
        "--no-fund",
        "--include=dev",
        "--cache",
        str(cache_dir),
    ]
    before = ["--before", commit_time.strftime("%Y-%m-%dT%H:%M:%SZ")]
    attempts = [[npm, "ci", *common]] if lockfile else []
    # the date bound needs the registry's publish times; a mirror that reports later times
    # for every version makes it find nothing (ENOVERSIONS), hence the undated fallbacks
    attempts += [
        [npm, "install", *common, *before],
        [npm, "install", *common],
        [npm, "install", *common, "--legacy-peer-deps"],
    ]
    failures = []
    for command in attempts:
        result = run_build(
            command,
            workdir=work,
            writable=[env_dir, cache_dir],
            env={"NODE_ENV": "development", "npm_config_update_notifier": "false"},
            timeout_s=INSTALL_TIMEOUT_S,
        )
        if result.ok:
            settings["install"] = " ".join(
                command[1:2] + [a for a in command[2:] if a.startswith("--l")]
            )
            break
        failures.append(last_meaningful_line(result.output))
        shutil.rmtree(work / "node_modules", ignore_errors=True)
    else:
        return {**settings, "failures": failures}, f"npm: {failures[0]}"
    settings["failed_attempts"] = failures
    shutil.rmtree(env_dir / "node_modules", ignore_errors=True)
    (work / "node_modules").mkdir(exist_ok=True)  # a package without dependencies has none
    (work / "node_modules").rename(env_dir / "node_modules")
    shutil.rmtree(work, ignore_errors=True)
    settings["script"] = "" if runner == "node-test" else runner_path(env_dir, runner)
    if settings["script"] is None:
        return settings, f"{runner} is not installed by the repository's package.json"
    return settings, ""


#: where each runner's command-line script lives in node_modules (first found wins)
RUNNER_SCRIPTS = {
    "jest": ("jest/bin/jest.js", "jest-cli/bin/jest.js"),
    "mocha": ("mocha/bin/mocha.js", "mocha/bin/mocha", "mocha/bin/_mocha"),
    "vitest": ("vitest/vitest.mjs",),
}


def runner_path(env_dir: Path, runner: str) -> str | None:
    """The runner's script in the environment's node_modules (relative to node_modules)."""
    for relative in RUNNER_SCRIPTS.get(runner, ()):
        if (env_dir / "node_modules" / relative).is_file():
            return relative
    return None
