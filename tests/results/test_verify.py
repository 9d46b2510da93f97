"""verify_result: a result counts only if it and its samples file are intact."""

from __future__ import annotations

import json
import shutil

import pytest

from seebench import EvalConfig, run_eval
from seebench.plugin_manager import build_registry, create_plugin_manager
from seebench.results.io import write_samples
from seebench.results.verify import verify_result
from seebench.tasks.index import build_task_index
from tests.conftest import make_binary_task
from tests.plugins import tmp_tasks_plugin


@pytest.fixture(scope="module")
def pristine(tmp_path_factory):
    """A real result of the majority baseline on a 40-row task, computed once per module."""
    root = tmp_path_factory.mktemp("verify")
    make_binary_task(root / "tasks", "alpha")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("SEEBENCH_TEST_TASK_DIR", str(root / "tasks"))
        patch.setenv("SEEBENCH_HOME", str(root / "home"))
        pm = create_plugin_manager(((tmp_tasks_plugin, "tmp"),), entry_points=False)
        registry = build_registry(pm)
        config = EvalConfig(model="majority", tasks="alpha", output=root / "out", progress=False)
        [outcome] = run_eval(config, registry, build_task_index(registry))
    assert outcome.status == "ok"
    return outcome.result_path.parent


@pytest.fixture
def unit(pristine, tmp_path):
    """A fresh copy of the pristine unit: (result path, samples path)."""
    folder = tmp_path / pristine.parent.name / pristine.name  # <model>/<method>/, as written
    shutil.copytree(pristine, folder)
    return folder / "alpha.json", folder / "alpha.samples.jsonl"


def _rewrite(path, change):
    result = json.loads(path.read_text())
    change(result)
    path.write_text(json.dumps(result))


def test_an_intact_result_is_trusted(unit):
    result_path, samples_path = unit
    check = verify_result(result_path, samples_path)
    assert check.problem is None and check.result["status"] == "ok"
    assert len(check.result["samples_sha256"]) == 64


def test_no_file_is_absent_not_a_problem(tmp_path):
    check = verify_result(tmp_path / "nothing.json")
    assert check.absent


def test_the_run_config_hash_must_match(unit):
    result_path, samples_path = unit
    recorded = json.loads(result_path.read_text())["run"]["config_hash"]
    assert verify_result(result_path, samples_path, recorded).problem is None
    problem = verify_result(result_path, samples_path, "0" * 16).problem
    assert "another run configuration" in problem


CORRUPTIONS = {
    "empty": (lambda r, s: r.write_text(""), "not valid JSON"),
    "truncated json": (lambda r, s: r.write_text(r.read_text()[:100]), "not valid JSON"),
    "an array": (lambda r, s: r.write_text("[]"), "expected a JSON object, found an array"),
    "non-utf8": (lambda r, s: r.write_bytes(b'{"a": "\xff\xfe"}'), "not UTF-8 text"),
    "a directory": (lambda r, s: (r.unlink(), r.mkdir()), "is a directory"),
    "schema": (
        lambda r, s: r.write_text('{"status": "ok", "run": "x", "schema_version": 1}'),
        "does not match the result schema",
    ),
    "other version": (
        lambda r, s: _rewrite(r, lambda d: d.update(schema_version=2)),
        "result schema version 2 by seebench",
    ),
    "no checksum": (
        lambda r, s: _rewrite(r, lambda d: d.pop("samples_sha256")),
        "'samples_sha256' is a required property",
    ),
    "non-numeric metric": (
        lambda r, s: _rewrite(r, lambda d: d["metrics"].update(f1_macro="high")),
        "metrics.f1_macro",
    ),
    "samples missing": (lambda r, s: s.unlink(), "samples file alpha.samples.jsonl is missing"),
    "samples truncated": (lambda r, s: s.write_bytes(s.read_bytes()[:300]), "lines for n = 8"),
    "samples line": (
        lambda r, s: s.write_text(s.read_text().replace("{", "[", 1)),
        "line 1 is not a sample record",
    ),
    "samples edited": (
        lambda r, s: s.write_text(s.read_text().replace('"prediction": "', '"prediction": "x', 1)),
        "has sha256",
    ),
}


@pytest.mark.parametrize("kind", sorted(CORRUPTIONS))
def test_each_kind_of_damage_is_named_in_one_line(unit, kind):
    result_path, samples_path = unit
    damage, expected = CORRUPTIONS[kind]
    damage(result_path, samples_path)
    check = verify_result(result_path, samples_path)
    assert check.result is None
    assert expected in check.problem and "\n" not in check.problem
    assert check.problem.startswith(str(result_path))


def test_write_samples_returns_the_sha256_of_the_file(tmp_path):
    import hashlib

    path = tmp_path / "x.samples.jsonl"
    digest = write_samples(path, [{"id": "a", "prediction": "é"}])
    assert digest == hashlib.sha256(path.read_bytes()).hexdigest()


def test_a_unit_of_several_repeats_has_one_line_per_item_and_repeat(unit):
    """With ``repeats: k`` the samples file holds n x k lines; a result claiming another
    number of repeats than its samples hold is not trusted."""
    result_path, samples_path = unit
    lines = samples_path.read_bytes().splitlines(keepends=True)
    sha = write_samples(samples_path, [json.loads(line) for line in lines * 2])

    def two_repeats(result):
        result["run"]["config"]["repeats"] = 2
        result["samples_sha256"] = sha

    _rewrite(result_path, two_repeats)
    assert verify_result(result_path, samples_path).problem is None
    _rewrite(result_path, lambda result: result["run"]["config"].update(repeats=3))
    problem = verify_result(result_path, samples_path).problem
    assert problem and "x 3 repeats" in problem


def test_write_samples_scrubs_every_record_of_secrets(tmp_path, monkeypatch):
    key = "sk-live-0123456789abcdef0123"
    monkeypatch.setenv("STANDIN_API_KEY", key)
    path = tmp_path / "task.samples.jsonl"
    records = [{"id": str(n), "prediction": f"echo {key}", "meta": {"url": key}} for n in range(3)]
    write_samples(path, records)
    text = path.read_text()
    assert key not in text and text.count("***") == 6
