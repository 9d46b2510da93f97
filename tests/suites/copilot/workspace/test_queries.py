"""The query set's loader: every error names file, line and key; gold checked against trees."""

from __future__ import annotations

import json

import pytest

from seebench.errors import SeebenchError
from seebench.suites.copilot.repos.staging import read_facts
from seebench.suites.copilot.workspace.queries import (
    WORKSPACE_LIST,
    check_gold,
    load_queries,
    workspace_file_list,
)
from tests.suites.copilot.workspace.repos import FILES, QUERIES, write_queries


def test_the_shipped_set_is_large_and_varied():
    queries = load_queries()
    languages = {row["repo"]: row["language"] for row in read_facts().values()}
    assert len(queries) >= 60
    assert len({q.repo for q in queries}) >= 6
    assert {languages[q.repo] for q in queries} == {"python", "javascript", "typescript"}
    assert {q.kind for q in queries} == {"where", "how", "which"}


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            {"gold": [{"file": "a.py", "lines": [5, 2], "symbol": "f"}]},
            ":2 (query 'tiny-2').gold[0].lines",
        ),
        ({"colour": "red"}, "unknown ['colour']"),
        ({"kind": "why"}, ".kind: 'why'"),
        ({"commit": "abc"}, ".commit: expected 40 hex"),
        ({"keywords": [[]]}, ".keywords[0]"),
        ({"id": "tiny-1"}, "'tiny-1' listed twice"),
    ],
)
def test_bad_queries_are_one_clear_error(tmp_path, change, message):
    path = write_queries(tmp_path / "q.jsonl", [QUERIES[0], {**QUERIES[1], **change}])
    with pytest.raises(SeebenchError) as error:
        load_queries(path)
    assert str(path) in str(error.value) and message in str(error.value)


def test_a_line_that_is_not_json_is_named(tmp_path):
    path = tmp_path / "q.jsonl"
    path.write_text(json.dumps(QUERIES[0]) + "\n{oops\n")
    with pytest.raises(SeebenchError, match=r"q\.jsonl:2: not JSON"):
        load_queries(path)


def test_gold_ranges_are_checked_against_the_tree(tmp_path):
    for name, text in FILES.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    good = load_queries(write_queries(tmp_path / "q.jsonl"))
    assert all(check_gold(q, tmp_path) == [] for q in good)
    moved = {**QUERIES[0], "gold": [{"file": "tiny/store.py", "lines": [1, 4], "symbol": "save"}]}
    beyond = {**QUERIES[1], "gold": [{"file": "web/retry.js", "lines": [3, 99], "symbol": "x"}]}
    gone = {**QUERIES[2], "gold": [{"file": "src/gone.ts", "lines": [1, 2], "symbol": "x"}]}
    bad = load_queries(write_queries(tmp_path / "bad.jsonl", [moved, beyond, gone]))
    problems = [check_gold(q, tmp_path) for q in bad]
    assert "does not contain save" in problems[0][0]
    assert "ends after the file's 21 lines" in problems[1][0]
    assert "src/gone.ts is not in the tree" in problems[2][0]


def test_the_shipped_file_list_names_exactly_the_queried_repositories(tmp_path):
    shipped = WORKSPACE_LIST.read_text(encoding="utf-8").splitlines()
    assert shipped == workspace_file_list(load_queries())  # regenerate with the script
    other = {**QUERIES[0], "repo": "nobody/else"}
    with pytest.raises(SeebenchError, match="repository of query 'tiny-1'"):
        workspace_file_list(load_queries(write_queries(tmp_path / "q.jsonl", [other])))
