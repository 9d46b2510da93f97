"""Viewer pages of the first-hour findings: the Label filter offers gold labels only."""

from __future__ import annotations

import re

from seebench.plugin_manager import get_registry
from seebench.view.catalog import Catalog
from seebench.view.site import Site
from seebench.view.synthetic import classification_records, write_unit


def _site(root) -> tuple[Site, Catalog]:
    catalog = Catalog([root])
    catalog.refresh()
    return Site(catalog, get_registry()), catalog


def _unit(catalog: Catalog, task: str):
    [unit] = [u for u in catalog.list() if u.task == task]
    return unit


def test_a_code_tasks_label_filter_lists_no_predictions(tmp_path):
    code = [
        {
            "id": f"HumanEval/{i}",
            "prediction": f"    return {i}",  # short code: it would pass for a label
            "gold": {"tests": "def check(f): assert f() == 1", "entry_point": "f"},
            "score": float(i == 1),
        }
        for i in range(4)
    ]
    write_unit(tmp_path, "m", "zero-shot", "humaneval", code, task_type="generate")
    write_unit(tmp_path, "m", "zero-shot", "issues", classification_records(30, 0.5, seed=3))
    site, catalog = _site(tmp_path)
    page = site.unit_page(_unit(catalog, "humaneval").uid)
    assert 'id="f-label"' not in page and "return 1</option>" not in page
    page = site.unit_page(_unit(catalog, "issues").uid)
    options = re.findall(r'<select name="label" id="f-label">(.*?)</select>', page)[0]
    assert sorted(re.findall(r"<option>([^<]*)</option>", options)) == [
        "bug",
        "feature",
        "question",
    ]


def test_task_pages_are_reachable_and_limit_runs_flagged(tmp_path):
    import json

    path = write_unit(tmp_path, "m", "zero-shot", "issues", classification_records(30, 0.5))
    result = json.loads(path.read_text())
    result["run"] = {**result.get("run", {}), "limit": 30}
    path.write_text(json.dumps(result))
    site, catalog = _site(tmp_path)
    runs = site.runs_page()
    assert 'href="task/issues.html"' in runs
    assert "--limit 30</div>" in runs
    unit = _unit(catalog, "issues")
    assert 'id="task-link" href="../../task/issues.html"' in site.unit_page(unit.uid)
    assert f"unit/{unit.uid}/page-1.html" in site.task_page("issues")


def test_a_traceback_in_scorer_metadata_keeps_its_lines(tmp_path):
    import html

    traceback = 'Traceback (most recent call last):\n  File "test.py", line 3\nAssertionError'
    record = {
        "id": "HumanEval/0",
        "prediction": "    return 0",
        "gold": {"entry_point": "f"},
        "score": 0.0,
        "scores": {"python_tests": {"value": 0.0, "metadata": {"stderr": traceback, "rc": 1}}},
    }
    write_unit(tmp_path, "m", "zero-shot", "humaneval", [record], task_type="generate")
    site, catalog = _site(tmp_path)
    page = html.unescape(site.unit_page(_unit(catalog, "humaneval").uid))
    assert 'stderr: |\n  Traceback (most recent call last):\n    File "test.py", line 3\n' in page
    assert "\\n" not in page.split('data-scorer="python_tests"')[1]


def test_the_per_sample_test_log_is_linked(tmp_path):
    import json

    log = "python_tests/HumanEval_0-1a2b3c4d.json"
    record = {
        "id": "HumanEval/0",
        "prediction": "    return 0",
        "gold": {"entry_point": "f"},
        "score": 0.0,
        "scores": {"python_tests": {"value": 0.0, "metadata": {"verdict": "fail", "log": log}}},
    }
    body = json.dumps({"program": "def f():\n    return 0", "stdout": "", "exit_code": 1})
    write_unit(
        tmp_path,
        "m",
        "zero-shot",
        "humaneval",
        [record],
        task_type="generate",
        artifacts={log: body},
    )
    site, catalog = _site(tmp_path)
    page = site.sample_page(_unit(catalog, "humaneval").uid, 0)
    assert f'data-name="{log}"' in page


def test_search_matches_are_highlighted_and_stay_escaped(tmp_path):
    from seebench.view.index import SampleFilter
    from seebench.view.render import highlight

    assert str(highlight("a <b>Crash</b> crash", "crash")) == (
        "a &lt;b&gt;<mark>Crash</mark>&lt;/b&gt; <mark>crash</mark>"
    )
    write_unit(tmp_path, "m", "zero-shot", "issues", classification_records(30, 0.5))
    site, catalog = _site(tmp_path)
    page = site.unit_page(_unit(catalog, "issues").uid, 1, SampleFilter(query="Issue 7:"))
    assert "<mark>Issue 7:</mark>" in page
