"""JavaScript environments: runner detection from package.json, and a node --test repository
built and run end to end (per-test outcomes, a change, coverage per test file)."""

from __future__ import annotations

from seebench.suites.copilot.repos.node_env import detect_runner, script_settings
from seebench.suites.copilot.repos.testrun import run_tests

CALC = "test/calc.test.js"
FIXED = "function add(a, b) {\n  return a + b;\n}\n\nfunction half(a) {\n  return a / 2;\n}\n\nmodule.exports = { add, half };\n"


def test_the_runner_and_its_options_come_from_the_test_script():
    package = {
        "scripts": {
            "test": "npm run lint && npm run unit",
            "unit": "cross-env TZ=UTC mocha "
            "--require ts-node/register 'test/**/*.spec.ts' --reporter dot --exit",
            "lint": "eslint .",
        },
        "devDependencies": {"mocha": "^10"},
    }
    settings = script_settings(package)
    assert settings["runner"] == "mocha"
    assert settings["options"] == ["--require", "ts-node/register"]
    assert settings["specs"] == ["test/**/*.spec.ts"]
    assert settings["env"] == {"TZ": "UTC"}
    jest = script_settings(
        {
            "scripts": {
                "test": "node --experimental-vm-modules node_modules/.bin/jest --coverage -c jest.json"
            }
        }
    )
    assert (jest["runner"], jest["options"], jest["node_options"]) == (
        "jest",
        ["-c", "jest.json"],
        ["--experimental-vm-modules"],
    )
    assert detect_runner({"scripts": {"test": "ava"}, "devDependencies": {"ava": "1"}})[
        2
    ].startswith("test runner ava is not supported")
    assert "no supported test runner" in detect_runner({"scripts": {"test": "gulp test"}})[2]
    assert detect_runner({"devDependencies": {"jest": "29"}})[0] == "jest"
    nyc = script_settings({"scripts": {"test": "nyc --reporter=lcov mocha --recursive tests"}})
    assert (nyc["runner"], nyc["node_options"], nyc["specs"]) == ("mocha", [], ["tests"])
    partial_first = {"scripts": {"test": "TZ=UTC jest test/tz.test --coverage=false && jest"}}
    assert script_settings(partial_first)["specs"] == []  # the whole suite, not the first step


def test_baseline_outcomes_use_file_and_title_path(node_env):
    repo, env = node_env
    assert env.runner == "node-test"
    assert env.passing == {f"{CALC}::calc > adds", "test/other.test.js::truth"}
    assert env.failing == {f"{CALC}::calc > halves"}


def test_a_change_and_selected_test_files(node_env):
    repo, env = node_env
    run = run_tests(env, changes={"lib/calc.js": FIXED}, tests=[f"{CALC}::calc > halves"])
    assert run.verdict == "passed"
    assert run.outcomes == {f"{CALC}::calc > adds": "passed", f"{CALC}::calc > halves": "passed"}


def test_coverage_attributes_lines_to_the_tests_of_the_file_that_ran_them(node_env):
    repo, env = node_env
    run = run_tests(env, coverage=True)
    lines = run.coverage["lib/calc.js"]
    both = {f"{CALC}::calc > adds", f"{CALC}::calc > halves"}
    assert lines[2] == both  # return a + b: run by calc.test.js, whose tests are both ids
    assert lines[6] == both
    assert "test/other.test.js::truth" not in set().union(*lines.values())


WASM = "const memory = new WebAssembly.Memory({ initial: 1 });\n"


def test_webassembly_works_under_the_sandbox_address_space_limit(node_env):
    """V8's trap-handler Wasm memory reserves more address space than the run's RLIMIT_AS;
    the driver turns the trap handler off, so code that instantiates Wasm (undici's parser,
    behind node's fetch: node-cron's jest exited 1 with every test passing) still runs."""
    repo, env = node_env
    run = run_tests(env, changes={"lib/calc.js": WASM + FIXED}, tests=[CALC])
    assert run.verdict == "passed", run.reason
    assert run.outcomes == {f"{CALC}::calc > adds": "passed", f"{CALC}::calc > halves": "passed"}
