"""The server's pages through Starlette's test client: every part of the issue's item 1."""

from __future__ import annotations

import re

import pytest

from seebench.plugin_manager import get_registry
from seebench.view.server import build_app
from seebench.view.site import Site
from tests.view.conftest import DIFF, FIX_ID, SCRIPT_REPLY, unit_of


@pytest.fixture
def site(catalog) -> Site:
    return Site(catalog, get_registry())


@pytest.fixture
def client(site):
    from starlette.testclient import TestClient

    return TestClient(build_app(site), base_url="http://127.0.0.1")


def test_runs_table_lists_every_unit_with_its_figures(client, catalog) -> None:
    page = client.get("/index.html")
    assert page.status_code == 200
    assert "default-src 'none'" in page.headers["content-security-policy"]
    assert page.headers["x-content-type-options"] == "nosniff"
    rows = re.findall(
        r'<tr data-suite="([^"]*)" data-model="([^"]*)" data-status="([^"]*)"', page.text
    )
    assert len(rows) == len(catalog.list()) == 11
    assert ("copilot", "alpha", "ok") in rows
    unit = unit_of(catalog, "alpha", "issue_type")
    assert f"unit/{unit.uid}/page-1.html" in page.text
    assert unit.result["run"]["config_hash"] in page.text
    assert "seebench.builtin.demo seebench==" in page.text  # the plugin versions it ran with
    ci = unit.result["metric_info"]["accuracy"]["ci95"]
    assert f"[{ci[0]:.4f}, {ci[1]:.4f}]" in page.text


def test_a_task_page_shows_every_field_and_pages(client, catalog) -> None:
    unit = unit_of(catalog, "alpha", "issue_type")
    page = client.get(f"/unit/{unit.uid}/page-1.html")
    assert page.status_code == 200
    assert "60 of 60 samples" in page.text and "page 1 of 3" in page.text
    for key in ("input", "raw", "prediction", "gold"):
        assert f'data-key="{key}"' in page.text
    page3 = client.get(f"/unit/{unit.uid}/page-3.html")
    assert 'id="sample-59"' in page3.text and 'id="sample-0"' not in page3.text


def test_a_reply_with_script_is_text(client, catalog) -> None:
    unit = unit_of(catalog, "alpha", "issue_type")
    for url in (f"/unit/{unit.uid}/page-1.html", f"/unit/{unit.uid}/sample-2.html"):
        text = client.get(url).text
        assert "<script>document.title" not in text
        assert "&lt;script&gt;document.title=&#34;pwned&#34;&lt;/script&gt;" in text
        assert "<img src=x" not in text
        assert text.count("<script>") == 1  # the page's own
    assert SCRIPT_REPLY not in client.get(f"/unit/{unit.uid}/page-1.html?q=pwned").text


def test_filters_search_wrong_label_and_score(client, catalog) -> None:
    unit = unit_of(catalog, "beta", "issue_type")
    records = [__import__("json").loads(x) for x in unit.samples_path.read_text().splitlines()]
    wrong = sum(r["score"] < 1 for r in records)
    text = client.get(f"/unit/{unit.uid}/page-1.html?wrong=1").text
    assert f"{wrong} of 60 samples" in text
    assert "wrong=1" in text  # kept on the pager links
    text = client.get(f"/unit/{unit.uid}/page-1.html?q=issue+7:").text
    assert "1 of 60 samples" in text and 'id="sample-7"' in text
    labelled = sum("bug" in (r["gold"], r["prediction"]) for r in records)
    assert f"{labelled} of 60" in client.get(f"/unit/{unit.uid}/page-1.html?label=bug").text
    right = sum(r["score"] == 1 for r in records)
    assert f"{right} of 60" in client.get(f"/unit/{unit.uid}/page-1.html?min=1").text
    assert "0 of 60" in client.get(f"/unit/{unit.uid}/page-1.html?min=abc&q=nothing-like-it").text


def test_a_fix_sample_shows_diff_analyzer_output_and_verdict(client, catalog) -> None:
    unit = unit_of(catalog, "alpha", "copilot_fix", "scenario")
    text = client.get(f"/unit/{unit.uid}/sample-0.html").text
    assert FIX_ID in text and "scorer copilot_fix" in text
    assert '<span class="add">+    total = 0\n</span>' in text
    assert '<span class="del">-    l = 0\n</span>' in text
    assert "warnings_before: 2" in text  # the verdict's metadata, as key: value lines
    assert "pylint" in text and "analysis.json" in text  # the analyzer output, inline
    invalid = client.get(f"/unit/{unit.uid}/page-1.html?invalid=1").text
    assert "1 of 2 samples" in invalid and "no python answer" in invalid
    assert DIFF.splitlines()[0] in text


def test_artifacts_are_served_as_text_and_only_from_the_unit(client, catalog) -> None:
    unit = unit_of(catalog, "alpha", "copilot_fix", "scenario")
    name = f"copilot_fix/{FIX_ID}-1a2b3c4d/diff.patch"
    got = client.get(f"/unit/{unit.uid}/artifact.txt", params={"path": name})
    assert got.status_code == 200 and got.text == DIFF
    assert got.headers["content-type"].startswith("text/plain")
    assert "sandbox" in got.headers["content-security-policy"]
    for bad in ("../copilot_fix.json", "../../../../etc/passwd", "/etc/passwd", "%2e%2e/x"):
        assert client.get(f"/unit/{unit.uid}/artifact.txt", params={"path": bad}).status_code == 404


def test_repeats_link_to_each_other(client, catalog) -> None:
    unit = unit_of(catalog, "alpha", "humaneval", "sampling")
    text = client.get(f"/unit/{unit.uid}/sample-0.html").text
    assert "repeat 1:" in text and "repeat 2:" in text


def test_compare_view_puts_disagreements_first(client, catalog) -> None:
    a, b = unit_of(catalog, "alpha", "sentiment"), unit_of(catalog, "beta", "sentiment")
    unit_page = client.get(f"/unit/{a.uid}/page-1.html").text
    assert f"compare/{a.uid}/{b.uid}/page-1.html" in unit_page
    text = client.get(f"/compare/{a.uid}/{b.uid}/page-1.html").text
    flags = re.findall(r'data-disagree="(\d)"', text)
    assert flags and flags == sorted(flags, reverse=True) and "1" in flags
    assert 'id="diff-ci"' in text
    other = unit_of(catalog, "alpha", "issue_type")
    assert "different tasks" in client.get(f"/compare/{a.uid}/{other.uid}/page-1.html").text


def test_leaderboard_links_to_the_tasks(client, catalog) -> None:
    text = client.get("/leaderboard.html").text
    assert 'id="ranking"' in text, text[-2000:]
    unit = unit_of(catalog, "alpha", "sentiment")
    assert f"unit/{unit.uid}/page-1.html" in text
    assert "<svg" in text


def test_unknown_pages_and_foreign_hosts(client) -> None:
    assert client.get("/unit/nope/page-1.html").status_code == 404
    assert client.get("/unit/nope/sample-1.html").status_code == 404
    assert client.get("/../../etc/passwd").status_code == 404
    assert client.get("/index.html", headers={"host": "evil.example"}).status_code == 400


def test_task_groups_on_the_runs_table_and_leaderboard(catalog) -> None:
    from starlette.testclient import TestClient

    from seebench.scoring.groups import collect_groups

    registry = get_registry()
    site = Site(catalog, registry, groups=collect_groups(registry))
    client = TestClient(build_app(site), base_url="http://127.0.0.1")
    runs = client.get("/index.html").text
    # the fixture's issue_type, sentiment and review_type are SELU's multi-class tasks
    rows = re.findall(r'<tr data-model="alpha/zero-shot"><td>([^<]*)</td>', runs)
    assert [r.strip("\u00a0") for r in rows] == ["selu", "selu_multiclass"]
    alpha = [
        unit_of(catalog, "alpha", t).result["metrics"]["accuracy"]
        for t in ("issue_type", "sentiment", "review_type")
    ]
    assert f"{sum(alpha) / 3:.4f}" in runs
    assert 'id="group-scores"' in client.get("/leaderboard.html").text


def test_a_prompt_kept_by_the_method_is_shown_as_sent(tmp_path) -> None:
    from starlette.testclient import TestClient

    from seebench.view.catalog import Catalog
    from seebench.view.synthetic import write_unit

    messages = [
        {"role": "system", "content": "Classify the issue."},
        {"role": "user", "content": "Issue: <b>crash</b>"},
    ]
    record = {
        "id": "a",
        "input_hash": "a",
        "prediction": "bug",
        "gold": "bug",
        "score": 1.0,
        "raw": "bug",
        "extra": {"cached": False, "prompt": messages},
    }
    write_unit(tmp_path, "m", "zero-shot", "t", [record])
    catalog = Catalog([tmp_path])
    [unit] = catalog.refresh()
    text = (
        TestClient(build_app(Site(catalog)), base_url="http://localhost")
        .get(f"/unit/{unit.uid}/sample-0.html")
        .text
    )
    assert "[system]\nClassify the issue.\n\n[user]\nIssue: &lt;b&gt;crash&lt;/b&gt;" in text
    assert text.index('data-key="prompt"') < text.index('data-key="raw"')


def test_task_page_lists_the_units_of_a_task(client, catalog) -> None:
    text = client.get("/task/sentiment.html").text
    for model in ("alpha", "beta", "gamma"):
        unit = unit_of(catalog, model, "sentiment")
        assert f"unit/{unit.uid}/page-1.html" in text
    a, b = unit_of(catalog, "alpha", "sentiment"), unit_of(catalog, "beta", "sentiment")
    assert f"compare/{a.uid}/{b.uid}/page-1.html" in text
    assert "No unit of this task" in client.get("/task/nope.html").text
    assert 'href="task/sentiment.html"' in client.get("/leaderboard.html").text
