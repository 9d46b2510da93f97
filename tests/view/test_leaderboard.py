"""The viewer's leaderboard says whom it leaves out and why, and never ranks --limit runs."""

from __future__ import annotations

import html
import json

from seebench.plugin_manager import get_registry
from seebench.view.catalog import Catalog
from seebench.view.leaderboard import build_report, score_table
from seebench.view.synthetic import classification_records, write_unit
from tests.view.conftest import make_results


def _site_report(root):
    catalog = Catalog([root])
    catalog.refresh()
    return build_report(score_table(catalog.list(), ()), get_registry())


def test_models_without_every_task_are_named(tmp_path):
    report = _site_report(make_results(tmp_path / "results"))
    assert set(report.models) == {"alpha/zero-shot", "beta/zero-shot", "gamma/zero-shot"}
    left_out = [n for n in report.notes if n.startswith("left out model")]
    assert any(n.startswith("left out model alpha/scenario: scores on 1 of") for n in left_out)
    assert any(n.startswith("left out model alpha/sampling: scores on 1 of") for n in left_out)


def test_a_limit_run_is_left_out_and_named(tmp_path):
    root = make_results(tmp_path / "results")
    for task in ("issue_type", "sentiment", "review_type"):
        path = write_unit(root, "delta", "zero-shot", task, classification_records(60, 0.99))
        result = json.loads(path.read_text())
        result["run"] = {**result.get("run", {}), "limit": 60}
        path.write_text(json.dumps(result))
    report = _site_report(root)
    assert "delta/zero-shot" not in report.models
    assert "left out delta/zero-shot on sentiment (--limit 60): a subset of the items" in " ".join(
        report.notes
    )


def test_the_page_shows_the_notes(tmp_path):
    from starlette.testclient import TestClient

    from seebench.view.server import build_app
    from seebench.view.site import Site

    catalog = Catalog([make_results(tmp_path / "results")])
    catalog.refresh()
    client = TestClient(build_app(Site(catalog, get_registry())), base_url="http://127.0.0.1")
    text = html.unescape(client.get("/leaderboard.html").text)
    assert "left out model alpha/scenario: scores on 1 of" in text


def test_the_leaderboard_uses_compares_defaults(tmp_path):
    from seebench.stats import Settings

    assert _site_report(make_results(tmp_path / "results")).settings == Settings()


def test_the_server_computes_the_leaderboard_in_the_background(tmp_path, monkeypatch):
    import threading

    from seebench.view.site import Site

    catalog = Catalog([make_results(tmp_path / "results")])
    catalog.refresh()
    site = Site(catalog, get_registry())
    release = threading.Event()
    real = site.board_context

    def slow() -> dict:
        release.wait(60)
        return real()

    monkeypatch.setattr(site, "board_context", slow)
    site.start_leaderboard()
    waiting = site.leaderboard_page()
    assert 'id="leaderboard-computing"' in waiting
    assert '<meta http-equiv="refresh" content="2">' in waiting
    release.set()
    site._warming.join(120)
    ready = site.leaderboard_page()
    assert 'id="ranking"' in ready and "leaderboard-computing" not in ready
