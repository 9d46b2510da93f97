"""Run files: ``seebench eval --config run.yaml``, validated, overridden by flags, stored."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
import yaml

from seebench.errors import SeebenchError
from seebench.runner.run_config import (
    RunFileError,
    load_run_file,
    run_file_defaults,
    run_file_problems,
)
from tests.conftest import make_binary_task

EVAL_PARAMS = {
    "model",
    "tasks",
    "output",
    "seed",
    "limit",
    "include_paths",
    "no_progress",
    "log_to",
}


def write(path: Path, text: str) -> Path:
    path.write_text(textwrap.dedent(text).lstrip())
    return path


@pytest.mark.parametrize(
    ("body", "key"),
    [
        ("model: majority\noptionz: {}\n", "optionz"),
        ("model: majority\nlimit: many\n", "limit"),
        ("model: majority\nlimit: 0\n", "limit"),
        ("models: [majority, 3]\n", "models[1]"),
        ("model: majority\ntasks: []\n", "tasks"),
        ("model: majority\nmax_cost: -1\n", "max_cost"),
        ("model: majority\nmodels: [random]\n", "models"),
    ],
)
def test_each_problem_is_one_line_naming_file_and_key(tmp_path, body, key):
    path = write(tmp_path / "run.yaml", body)
    with pytest.raises(RunFileError) as caught:
        load_run_file(path)
    lines = str(caught.value).splitlines()
    assert lines and all(line.startswith(f"{path}: ") for line in lines)
    assert any(line.startswith(f"{path}: {key}: ") for line in lines), lines


def test_a_misspelt_key_gets_a_suggestion(tmp_path):
    problems = run_file_problems({"model": "m", "sead": 1}, "run.yaml")
    assert problems == ["run.yaml: sead: unknown key 'sead' (did you mean 'seed'?)"]


def test_duplicate_keys_and_a_non_mapping_are_errors(tmp_path):
    with pytest.raises(SeebenchError, match="seed"):
        load_run_file(write(tmp_path / "dup.yaml", "seed: 1\nseed: 2\n"))
    assert run_file_problems(["a"], "x.yaml") == ["x.yaml: <root>: expected a mapping of options"]


def test_defaults_join_lists_and_resolve_paths_from_the_file(tmp_path):
    path = tmp_path / "conf" / "run.yaml"
    document = {
        "models": ["a", "b"],
        "tasks": ["t1", "t2"],
        "output": "res",
        "include_paths": ["tasks"],
        "progress": False,
        "log_to": ["wandb", "mlflow"],
        "options": {"shots": 2},
    }
    defaults = run_file_defaults(document, path, EVAL_PARAMS)
    assert defaults == {
        "model": "a,b",
        "tasks": "t1,t2",
        "output": tmp_path / "conf" / "res",
        "include_paths": [tmp_path / "conf" / "tasks"],
        "no_progress": True,
        "log_to": "wandb,mlflow",
    }


def test_a_key_the_command_lacks_is_named(tmp_path):
    with pytest.raises(RunFileError, match=r"run.yaml: executor: 'seebench eval' has no such"):
        run_file_defaults({"executor": "ray"}, tmp_path / "run.yaml", EVAL_PARAMS)


def _eval(args: list[str], capsys) -> tuple[int, str, str]:
    from seebench.cli.main import main

    with pytest.raises(SystemExit) as done:
        main(["eval", *args])
    captured = capsys.readouterr()
    return int(done.value.code or 0), captured.out, captured.err


@pytest.fixture
def task_env(tmp_path, monkeypatch):
    make_binary_task(tmp_path / "tasks", "good_task")
    monkeypatch.setenv("SEEBENCH_PLUGINS", "tests.plugins.tmp_tasks_plugin")
    monkeypatch.setenv("SEEBENCH_TEST_TASK_DIR", str(tmp_path / "tasks"))
    return tmp_path


def test_eval_runs_from_a_run_file_and_flags_override_it(task_env, capsys):
    run_file = write(
        task_env / "run.yaml",
        """
        model: majority
        tasks: [good_task]
        output: results
        seed: 3
        bootstrap: 0
        progress: false
        options: {}
        """,
    )
    code, out, err = _eval(["--config", str(run_file), "--seed", "7"], capsys)
    assert code == 0, err
    result_dir = task_env / "results"
    assert (result_dir / "majority" / "baseline" / "good_task.json").is_file()
    stored = list((result_dir / "runs").glob("*.yaml"))
    assert len(stored) == 1
    resolved = yaml.safe_load(stored[0].read_text())
    assert resolved["seed"] == 7 and resolved["sources"]["seed"] == "command line"
    assert resolved["model"] == "majority" and resolved["sources"]["model"] == "run file"
    assert resolved["bootstrap"] == 0 and resolved["run_file"] == str(run_file)
    result = yaml.safe_load((result_dir / "majority" / "baseline" / "good_task.json").read_text())
    assert result["run"]["seed"] == 7


def test_eval_with_a_bad_run_file_runs_nothing(task_env, capsys):
    run_file = write(task_env / "run.yaml", "model: majority\ntasks: good_task\nlimitt: 3\n")
    code, _, err = _eval(["--config", str(run_file), "--output", str(task_env / "o")], capsys)
    assert code == 1
    assert err.strip().splitlines() == [
        f"error: {run_file}: limitt: unknown key 'limitt' (did you mean 'limit'?)"
    ]
    assert not (task_env / "o").exists()


def test_run_file_options_merge_with_dash_o(task_env, capsys):
    run_file = write(
        task_env / "run.yaml",
        """
        model: tfidf-xgboost
        tasks: good_task
        options: {max_depth: 2, jobs: 1}
        """,
    )
    out = task_env / "o"
    args = ["--config", str(run_file), "--output", str(out), "--no-progress", "-o", "max_depth=3"]
    code, _, err = _eval([*args, "--bootstrap", "0"], capsys)
    assert code == 0, err
    resolved = yaml.safe_load(next((out / "runs").glob("*.yaml")).read_text())
    assert resolved["method_options"] == {"max_depth": 3, "jobs": 1}


def test_the_stored_configuration_never_holds_a_secret(tmp_path, monkeypatch):
    from seebench.runner.config import EvalConfig
    from seebench.runner.run_config import store_resolved_config

    monkeypatch.setenv("MY_SERVICE_API_KEY", "sk-run-file-secret-000000")
    config = EvalConfig(
        model="openai:m",
        tasks="t",
        output=tmp_path,
        method_options={"base_url": "http://user:sk-run-file-secret-000000@127.0.0.1/v1"},
    )
    path = store_resolved_config(config, tmp_path, {"model": "run file"}, tmp_path / "run.yaml")
    text = path.read_text()
    assert path.parent == tmp_path / "runs" and "sk-run-file-secret" not in text
    stored = yaml.safe_load(text)
    assert stored["model"] == "openai:m" and stored["sources"] == {"model": "run file"}
    assert stored["run_file"] == str(tmp_path / "run.yaml")


def test_the_record_names_the_left_out_plugins_the_run_would_have_included(tmp_path):
    """A run made while a plugin failed to load says so in its record (issue 43)."""
    from seebench.runner.config import EvalConfig
    from seebench.runner.run_config import store_resolved_config

    config = EvalConfig(model="majority", tasks="all", output=tmp_path)
    missing = [{"plugin": "broken", "distribution": "broken-severity", "tasks": ["broken_title"]}]
    path = store_resolved_config(config, tmp_path, missing_plugins=missing)
    assert yaml.safe_load(path.read_text())["missing_plugins"] == missing
    plain = store_resolved_config(config, tmp_path / "other", missing_plugins=[])
    assert "missing_plugins" not in yaml.safe_load(plain.read_text())


def test_run_session_asks_the_registry_for_the_left_out_plugins(tmp_path, monkeypatch):
    from seebench.cli import run_options
    from seebench.plugin_manager import get_registry
    from seebench.runner.config import EvalConfig

    registry = get_registry()
    problem = {"plugin": "broken", "distribution": "broken-severity", "suites": ["sev"]}
    monkeypatch.setattr(registry, "plugin_problems", [problem])
    for selector, expected in (("sev,other", [problem]), ("other", None)):
        out = tmp_path / selector
        config = EvalConfig(model="majority", tasks=selector, output=out)
        with run_options.run_session(config, run_options.RunExtras()):
            pass
        record = yaml.safe_load(next((out / "runs").glob("*.yaml")).read_text())
        assert record.get("missing_plugins") == expected
