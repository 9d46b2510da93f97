"""Strict YAML loading: duplicate keys, syntax errors and include: merging."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from seebench.errors import TaskSpecError
from seebench.tasks import yaml_loader
from seebench.tasks.yaml_loader import deep_merge, format_path, load_task_document, load_yaml_strict


def test_duplicate_top_level_key_is_reported_with_both_lines(tmp_path):
    path = tmp_path / "t.yaml"
    path.write_text("name: a\nsuite: s\nname: b\n")
    with pytest.raises(TaskSpecError) as info:
        load_yaml_strict(path)
    (problem,) = info.value.problems
    assert problem == f"{path}:3: name: duplicate key 'name' (first defined at line 1)"


def test_duplicate_nested_key_names_the_key_path(tmp_path):
    path = tmp_path / "t.yaml"
    path.write_text("data:\n  sources:\n    - url: x\n      format: csv\n      format: tsv\n")
    with pytest.raises(TaskSpecError) as info:
        load_yaml_strict(path)
    assert "data.sources[0].format: duplicate key 'format'" in info.value.problems[0]


def test_every_duplicate_is_reported(tmp_path):
    path = tmp_path / "t.yaml"
    path.write_text("a: 1\na: 2\nb: {c: 1, c: 2}\n")
    with pytest.raises(TaskSpecError) as info:
        load_yaml_strict(path)
    assert len(info.value.problems) == 2


def test_syntax_error_is_one_line_with_position(tmp_path):
    path = tmp_path / "t.yaml"
    path.write_text("name: [unclosed\n")
    with pytest.raises(TaskSpecError) as info:
        load_yaml_strict(path)
    (problem,) = info.value.problems
    assert problem.startswith(f"{path}: YAML syntax error: line ")
    assert "\n" not in problem


def test_include_merges_base_and_task_wins(tmp_path):
    (tmp_path / "_base.yaml").write_text("suite: s\nversion: 1\ntags: {family: f, activity: a}\n")
    task = tmp_path / "t.yaml"
    task.write_text("include: _base.yaml\nname: t\ntags: {activity: b}\n")
    document = load_task_document(task)
    assert document == {
        "suite": "s",
        "version": 1,
        "tags": {"family": "f", "activity": "b"},
        "name": "t",
    }


def test_circular_include_is_an_error(tmp_path):
    (tmp_path / "a.yaml").write_text("include: b.yaml\n")
    (tmp_path / "b.yaml").write_text("include: a.yaml\n")
    with pytest.raises(TaskSpecError, match="circular include"):
        load_task_document(tmp_path / "a.yaml")


def test_missing_include_names_the_file(tmp_path):
    task = tmp_path / "t.yaml"
    task.write_text("include: nope.yaml\nname: t\n")
    with pytest.raises(TaskSpecError, match="included file 'nope.yaml' not found"):
        load_task_document(task)


def test_deep_merge_replaces_lists():
    assert deep_merge({"a": [1, 2], "b": {"c": 1}}, {"a": [3], "b": {"d": 2}}) == {
        "a": [3],
        "b": {"c": 1, "d": 2},
    }


def test_format_path():
    assert format_path(["data", "sources", 0, "sha256"]) == "data.sources[0].sha256"
    assert format_path([]) == "<root>"


def _load_both(path, monkeypatch) -> tuple[object, object]:
    """What ``load_yaml_strict`` gives for ``path``, and what its full path alone gives (the
    composer, key walk and constructor), each a value or the problems it raised."""

    def attempt():
        try:
            return load_yaml_strict(path)
        except TaskSpecError as exc:
            return ("error", exc.problems)

    loaded = attempt()
    yaml_loader._load_cached.cache_clear()
    with monkeypatch.context() as patched:
        patched.setattr(yaml_loader, "_load_plain", lambda text: yaml_loader._NOT_PLAIN)
        full = attempt()
    yaml_loader._load_cached.cache_clear()
    return loaded, full


def _same(a: object, b: object) -> bool:
    """Equal, NaN equal to NaN, key order and types alike."""
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return list(a) == list(b) and all(_same(a[k], b[k]) for k in a)  # type: ignore[index]
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(map(_same, a, b))  # type: ignore[arg-type]
    return a == b


@pytest.mark.parametrize(
    "text",
    [
        "name: t\nversion: 1\nratio: 0.5\nflag: yes\nnothing: ~\nday: 2024-01-31\n",
        "when: 2001-12-14t21:59:43.10-05:00\nhex: 0x1f\nbig: 1e3\ninf: .inf\nnan: .nan\n",
        "quoted: '3'\ndouble: \"true\"\nblock: |\n  two\n  lines\nfolded: >\n  one\n  line\n",
        "nested: {a: {b: [c, {d: e}, [1, 2]]}, empty: {}, none: []}\n",
        "'quoted key': 1\n\"other\": 2\n? explicit\n: value\nbare:\n",
        "labels:\n  - {name: fix, synonyms: [bugfix]}\n  - name: feature\n    value: 2\n",
        # anything unusual takes the full path: the same value or the same problems
        "a: &x [1, 2]\nb: *x\n",
        "<<: {a: 1}\nb: 2\n",
        "a: !!str 1\n",
        "a: 1\na: 2\n",
        "1: one\n",
        "[a]: b\n",
        "- a\n- b\n",
        "a: b\n---\nc: d\n",
        "a: [unclosed\n",
        "a: 2024-13-45\n",
        "",
        "x: " + "[" * 60 + "]" * 60 + "\n",
    ],
)
def test_the_one_pass_reading_gives_what_the_full_path_gives(tmp_path, monkeypatch, text):
    path = tmp_path / "t.yaml"
    path.write_text(text)
    loaded, full = _load_both(path, monkeypatch)
    assert _same(loaded, full), (loaded, full)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    document=st.dictionaries(
        st.text(min_size=1, max_size=8),
        st.recursive(
            st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=12),
            lambda children: (
                st.lists(children, max_size=4)
                | st.dictionaries(st.text(min_size=1, max_size=6), children, max_size=4)
            ),
            max_leaves=12,
        ),
        max_size=6,
    ),
    flow=st.sampled_from([None, True, False]),
)
def test_random_documents_read_the_same_either_way(tmp_path, monkeypatch, document, flow):
    path = tmp_path / "t.yaml"
    path.write_text(yaml.safe_dump(document, default_flow_style=flow, allow_unicode=True))
    loaded, full = _load_both(path, monkeypatch)
    assert _same(loaded, full), (loaded, full)


BASE = "suite: s\nversion: 1\nlabels: [{name: a}, {name: b}]\ndata: {sources: [{path: d.csv}]}\n"


def test_a_shared_base_is_read_once_and_never_shared_between_tasks(tmp_path, monkeypatch):
    common = tmp_path / "common"
    common.mkdir()
    (common / "_base.yaml").write_text(BASE)
    (common / "_mid.yaml").write_text("include: _base.yaml\ntags: {family: f}\n")
    for folder, include in ((tmp_path, "common/_base.yaml"), (common, "_mid.yaml")):
        for name in ("one", "two", "three"):
            (folder / f"{name}.yaml").write_text(f"include: {include}\nname: {name}\n")
    tasks = [folder / f"{n}.yaml" for folder in (tmp_path, common) for n in ("one", "two", "three")]
    alone = [load_task_document(task) for task in tasks]
    reads: list[str] = []
    real = yaml_loader.load_yaml_strict
    monkeypatch.setattr(yaml_loader, "load_yaml_strict", lambda p: reads.append(p.name) or real(p))
    with yaml_loader.shared_includes():
        files: list[list[Path]] = [[] for _ in tasks]
        shared = [load_task_document(task, files=f) for task, f in zip(tasks, files, strict=True)]
    assert shared == alone
    assert reads.count("_base.yaml") == 2  # once per including folder
    assert reads.count("_mid.yaml") == 1
    assert files[4] == [common / "two.yaml", common / "_mid.yaml", common / "_base.yaml"]
    assert shared[1]["data"]["sources"] == [{"path": "common/d.csv"}]  # rebased for its folder
    assert shared[4]["data"]["sources"] == [{"path": "d.csv"}]
    shared[0]["labels"].append({"name": "c"})
    shared[3]["data"]["sources"][0]["path"] = "changed"
    assert shared[1]["labels"] == [{"name": "a"}, {"name": "b"}]
    assert shared[4]["data"]["sources"] == [{"path": "d.csv"}]


@pytest.mark.parametrize(
    "extra",
    [
        "released: 2024-01-02\n",  # a date: JSON cannot keep it
        "weights: [1.0, 1, true, null, -0.0, 1e300]\n",  # types JSON keeps (1.0 stays a float)
        "options: {'1': one, x: {y: [a, {z: 2}]}}\n",
    ],
)
def test_a_shared_base_s_copies_keep_every_value_and_type(tmp_path, extra):
    (tmp_path / "_base.yaml").write_text(BASE + extra)
    tasks = []
    for name in ("one", "two"):
        (tmp_path / f"{name}.yaml").write_text(f"include: _base.yaml\nname: {name}\n")
        tasks.append(tmp_path / f"{name}.yaml")
    alone = [load_task_document(task) for task in tasks]
    with yaml_loader.shared_includes():
        shared = [load_task_document(task) for task in tasks]
    assert shared == alone
    assert [repr(d) for d in shared] == [repr(d) for d in alone]  # types too (1.0, True)
    shared[0]["labels"][0]["name"] = "changed"
    assert shared[1]["labels"][0]["name"] == "a"


def test_a_failing_include_is_reported_for_every_task_that_includes_it(tmp_path):
    (tmp_path / "_base.yaml").write_text("include: _gone.yaml\n")
    for name in ("one", "two"):
        (tmp_path / f"{name}.yaml").write_text(f"include: _base.yaml\nname: {name}\n")
    with yaml_loader.shared_includes():
        for name in ("one", "two"):
            with pytest.raises(TaskSpecError, match="included file '_gone.yaml' not found"):
                load_task_document(tmp_path / f"{name}.yaml")


def test_safe_load_reads_what_the_pure_python_loader_reads():
    import yaml

    from seebench.tasks.yaml_loader import safe_load

    text = "base: &b {metric: f1_macro, tasks: [a, b]}\nnext:\n  <<: *b\n  when: 2026-11-29\n  x: 1.5e3\n"
    assert safe_load(text) == yaml.safe_load(text)
    with pytest.raises(yaml.YAMLError):
        safe_load("a: [unclosed")


def test_safe_dump_writes_what_the_pure_python_dumper_writes():
    import yaml

    from seebench.tasks.yaml_loader import safe_dump

    data = {"tasks": ["sentiment", "bug_report"], "options": {"k": 3, "ratio": 0.5, "é": None}}
    assert safe_dump(data) == yaml.safe_dump(data, sort_keys=False, allow_unicode=True)
