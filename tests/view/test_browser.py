"""The viewer in a real headless Chromium: navigation, filters, the compare view, a reply
holding ``<script>`` shown as text, and the exported site opened from ``file://``.

Needs ``chromium``, ``chromium-driver`` and ``selenium``; skipped without them unless
``SEEBENCH_REQUIRE_BROWSER=1`` (set in CI). With ``SEEBENCH_VIEW_SCREENSHOTS=DIR`` the tests
also save the screenshots used in ``docs/view.md`` there.
"""

from __future__ import annotations

import os
import socket
import threading
import time
from pathlib import Path

import pytest

from seebench.plugin_manager import get_registry
from seebench.view.catalog import Catalog
from seebench.view.export import export_site
from seebench.view.server import build_app
from seebench.view.site import Site
from tests.browser import headless_chromium
from tests.view.conftest import SCRIPT_REPLY, make_results, unit_of

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory):
    yield from headless_chromium(
        tmp_path_factory.mktemp("chromium-profile"), ("--window-size=1400,1000",)
    )


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory):
    """The viewer over the test results on a free 127.0.0.1 port, in a thread."""
    import uvicorn

    results = make_results(tmp_path_factory.mktemp("view") / "results")
    catalog = Catalog([results])
    catalog.refresh()
    site = Site(catalog, get_registry())
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = uvicorn.Server(
        uvicorn.Config(build_app(site), host="127.0.0.1", port=port, log_level="warning")
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.05)
    assert server.started
    yield f"http://127.0.0.1:{port}", catalog, site
    server.should_exit = True
    thread.join(timeout=10)


def _shot(driver, name: str) -> None:
    folder = os.environ.get("SEEBENCH_VIEW_SCREENSHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        driver.save_screenshot(str(Path(folder) / f"view_{name}.png"))


def _visible_rows(driver) -> list[str]:
    return driver.execute_script(
        "return Array.from(document.querySelectorAll('#runs tbody tr'))"
        ".filter(r => !r.hidden)"
        ".map(r => r.dataset.model + '/' + r.cells[0].querySelector('a').textContent.trim());"
    )


def test_runs_table_filters_and_navigation(browser, served) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.select import Select
    from selenium.webdriver.support.ui import WebDriverWait

    base, catalog, _ = served
    browser.get(f"{base}/")
    assert browser.title.startswith("Runs")
    assert len(_visible_rows(browser)) == 11
    _shot(browser, "runs")
    Select(browser.find_element(By.ID, "f-model")).select_by_visible_text("beta")
    assert sorted(_visible_rows(browser)) == [
        "beta/issue_type",
        "beta/review_type",
        "beta/sentiment",
    ]
    Select(browser.find_element(By.ID, "f-suite")).select_by_visible_text("copilot")
    assert _visible_rows(browser) == []
    Select(browser.find_element(By.ID, "f-model")).select_by_visible_text("all")
    assert _visible_rows(browser) == ["alpha/copilot_fix"]
    browser.find_element(By.LINK_TEXT, "copilot_fix").click()
    WebDriverWait(browser, 20).until(lambda d: "/unit/" in d.current_url)
    assert "copilot_fix" in browser.find_element(By.TAG_NAME, "h1").text


def test_task_pages_are_reached_from_the_runs_table_and_a_unit(browser, served) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    base, catalog, _ = served
    browser.get(f"{base}/")
    row = browser.find_element(By.CSS_SELECTOR, '#runs tr[data-model="beta"] .task-link')
    row.click()
    WebDriverWait(browser, 20).until(lambda d: "/task/" in d.current_url)
    assert browser.current_url.endswith("/task/issue_type.html")
    _shot(browser, "task")
    units = browser.execute_script(
        "return Array.from(document.querySelectorAll('main a')).map(a => a.getAttribute('href'))"
        ".filter(h => h.includes('unit/'));"
    )
    assert {u.split("/")[-2] for u in units} >= {
        unit_of(catalog, m, "issue_type").uid for m in ("alpha", "beta", "gamma")
    }
    unit = unit_of(catalog, "gamma", "sentiment")
    browser.get(f"{base}/unit/{unit.uid}/page-1.html")
    browser.find_element(By.ID, "task-link").click()
    WebDriverWait(browser, 20).until(lambda d: d.current_url.endswith("/task/sentiment.html"))


def test_the_label_filter_offers_gold_labels_only(browser, served) -> None:
    from selenium.webdriver.common.by import By

    base, catalog, _ = served
    unit = unit_of(catalog, "beta", "issue_type")
    browser.get(f"{base}/unit/{unit.uid}/page-1.html")
    options = [o.text for o in browser.find_elements(By.CSS_SELECTOR, "#f-label option")]
    assert sorted(options) == ["any", "bug", "feature", "question"]
    _shot(browser, "unit")
    code = unit_of(catalog, "alpha", "humaneval", method="sampling")
    browser.get(f"{base}/unit/{code.uid}/page-1.html")
    labels = [o.text for o in browser.find_elements(By.CSS_SELECTOR, "#f-label option")]
    assert labels == ["any", "x"]  # this fixture's gold is 'x'; tests/view/test_site.py has code


def test_sample_filters_in_the_browser(browser, served) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    base, catalog, _ = served
    unit = unit_of(catalog, "beta", "issue_type")
    browser.get(f"{base}/unit/{unit.uid}/page-1.html")
    browser.find_element(By.ID, "f-wrong").click()
    browser.find_element(By.ID, "f-apply").click()
    WebDriverWait(browser, 20).until(lambda d: "wrong=1" in d.current_url)
    scores = browser.execute_script(
        "return Array.from(document.querySelectorAll('.sample')).map(s => s.className);"
    )
    assert scores and all("bad" in c for c in scores)
    assert "wrong=1" in browser.current_url
    browser.find_element(By.ID, "f-q").send_keys("Issue 7:")
    browser.find_element(By.ID, "f-apply").click()
    WebDriverWait(browser, 20).until(lambda d: "q=Issue" in d.current_url)
    count = browser.find_element(By.ID, "match-count").text
    assert count.endswith("of 60 samples") and int(count.split()[0]) <= 1
    browser.get(f"{base}/unit/{unit.uid}/page-1.html?q=Issue%207%3A")  # the search alone
    marks = browser.execute_script(
        "return Array.from(document.querySelectorAll('.sample mark')).map(m => m.textContent);"
    )
    assert marks and set(marks) == {"Issue 7:"}  # the matches, highlighted


def test_script_in_a_reply_stays_text(browser, served) -> None:
    base, catalog, _ = served
    unit = unit_of(catalog, "alpha", "issue_type")
    browser.get(f"{base}/unit/{unit.uid}/sample-2.html")
    assert browser.title != "pwned"
    texts = browser.execute_script(
        "return Array.from(document.querySelectorAll('[data-key=raw] pre')).map(p => p.textContent);"
    )
    assert texts == [SCRIPT_REPLY]
    assert (
        browser.execute_script("return document.querySelectorAll('main script, main img').length")
        == 0
    )


def test_fix_sample_and_compare_view(browser, served) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    base, catalog, _ = served
    fix = unit_of(catalog, "alpha", "copilot_fix", "scenario")
    browser.get(f"{base}/unit/{fix.uid}/sample-0.html")
    added = browser.find_elements(By.CSS_SELECTOR, ".diff .add")
    assert added and "total = 0" in added[0].text
    browser.execute_script(
        "document.querySelector('[data-scorer]').scrollIntoView({block: 'start'});"
    )
    _shot(browser, "fix_sample")
    a = unit_of(catalog, "alpha", "sentiment")
    browser.get(f"{base}/unit/{a.uid}/page-1.html")
    browser.find_element(By.PARTIAL_LINK_TEXT, "gamma/zero-shot").click()
    WebDriverWait(browser, 20).until(lambda d: "/compare/" in d.current_url)
    assert "alpha/zero-shot vs gamma/zero-shot" in browser.find_element(By.TAG_NAME, "h1").text
    flags = browser.execute_script(
        "return Array.from(document.querySelectorAll('#items tbody tr')).map(r => r.dataset.disagree);"
    )
    assert flags == sorted(flags, reverse=True) and flags[0] == "1"
    assert browser.find_element(By.ID, "diff-ci").text.startswith("[")
    _shot(browser, "compare")


def test_exported_site_opens_from_disk(browser, served, tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By

    _, catalog, _ = served
    site = Site(catalog, get_registry(), mode="export")
    export_site(site, tmp_path / "site")
    browser.get((tmp_path / "site" / "index.html").as_uri())
    assert len(_visible_rows(browser)) == 11
    browser.find_element(By.LINK_TEXT, "copilot_fix").click()
    assert browser.current_url.startswith("file://")
    assert browser.find_elements(By.CSS_SELECTOR, ".diff .add")
    browser.find_element(By.ID, "nav-leaderboard").click()
    assert browser.find_element(By.ID, "ranking").is_displayed()
    _shot(browser, "leaderboard_export")
    browser.find_element(By.CSS_SELECTOR, "#per-task td:first-child a").click()
    assert browser.find_element(By.ID, "task-units").is_displayed()  # the task's page
    browser.find_element(By.CSS_SELECTOR, "#task-units td:first-child a").click()
    assert browser.find_element(By.ID, "pager").is_displayed()


def test_sample_table_sorts_and_a_sample_steps_through_its_list(browser, served) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    base, catalog, _ = served
    unit = unit_of(catalog, "beta", "issue_type")
    browser.get(f"{base}/unit/{unit.uid}/page-1.html?wrong=1")
    browser.find_element(By.CSS_SELECTOR, '#sample-table a[data-sort="id"]').click()
    WebDriverWait(browser, 20).until(lambda d: "sort=id" in d.current_url)
    browser.find_element(By.CSS_SELECTOR, '#sample-table a[data-sort="id"]').click()
    WebDriverWait(browser, 20).until(lambda d: "desc=1" in d.current_url)
    ids = browser.execute_script(
        "return Array.from(document.querySelectorAll('#sample-table tbody tr td:nth-child(2) code'))"
        ".map(c => c.textContent);"
    )
    assert ids and ids == sorted(ids, reverse=True)
    assert all("wrong=1" in h for h in _row_links(browser))  # the filter is kept
    _shot(browser, "sample_table")
    browser.find_element(By.CSS_SELECTOR, "#sample-table tbody tr a").click()
    WebDriverWait(browser, 20).until(lambda d: "/sample-" in d.current_url)
    assert browser.find_element(By.ID, "steps").text.startswith("sample 1 of ")
    browser.find_element(By.ID, "next-sample").click()
    WebDriverWait(browser, 20).until(
        lambda d: d.find_element(By.ID, "steps").text.startswith("sample 2")
    )
    shown = browser.find_element(By.CSS_SELECTOR, ".sample h3 code").text
    assert shown == ids[1]
    browser.find_element(By.ID, "prev-sample").click()
    WebDriverWait(browser, 20).until(
        lambda d: d.find_element(By.ID, "steps").text.startswith("sample 1")
    )
    assert browser.find_element(By.CSS_SELECTOR, ".sample h3 code").text == ids[0]


def _row_links(driver) -> list[str]:
    return driver.execute_script(
        "return Array.from(document.querySelectorAll('#sample-table tbody a'))"
        ".map(a => a.getAttribute('href'));"
    )


def test_exported_table_searches_filters_and_sorts_without_a_server(browser, tmp_path) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    from seebench.view.inputs import InputLookup
    from seebench.view.synthetic import write_unit
    from tests.view.test_inputs import INPUTS, _records, _table

    results = tmp_path / "results"
    write_unit(results, "majority", "baseline", "issues", _records())
    catalog = Catalog([results])
    catalog.refresh()
    site = Site(catalog, get_registry(), mode="export", inputs=InputLookup(_table))
    export_site(site, tmp_path / "site")
    [unit] = catalog.list()
    browser.get((tmp_path / "site" / "unit" / unit.uid / "page-1.html").as_uri())
    assert "the app crashes when saving file 0" in browser.find_element(By.ID, "sample-table").text
    browser.find_element(By.ID, "f-q").send_keys("CRASHES")
    browser.find_element(By.ID, "f-apply").click()  # the unit page hands over to its table
    WebDriverWait(browser, 20).until(lambda d: d.current_url.split("#")[0].endswith("table.html"))
    WebDriverWait(browser, 20).until(
        lambda d: d.find_element(By.ID, "match-count").text == "3 of 9 samples"
    )
    marks = browser.execute_script(
        "return Array.from(document.querySelectorAll('#sample-table mark')).map(m => m.textContent);"
    )
    assert marks == ["crashes"] * 3
    browser.find_element(By.ID, "f-wrong").click()
    browser.find_element(By.ID, "f-apply").click()
    WebDriverWait(browser, 20).until(
        lambda d: d.find_element(By.ID, "match-count").text == "2 of 9 samples"
    )
    _shot(browser, "export_table")
    browser.get(
        (tmp_path / "site" / "unit" / unit.uid / "table.html").as_uri() + "#sort=score&desc=1"
    )
    WebDriverWait(browser, 20).until(
        lambda d: d.find_element(By.ID, "match-count").text == "9 of 9 samples"
    )
    scores = browser.execute_script(
        "return Array.from(document.querySelectorAll('#sample-table tbody tr td:last-child'))"
        ".map(c => c.textContent);"
    )
    assert scores == sorted(scores, reverse=True) and scores[0] == "1.0000"
    browser.find_element(By.CSS_SELECTOR, '#sample-table a[data-sort="id"]').click()
    WebDriverWait(browser, 20).until(lambda d: "sort=id" in d.current_url)
    first = browser.find_element(By.CSS_SELECTOR, "#sample-table tbody tr a")
    assert first.text == "1"
    first.click()  # the sample's card on its page, with its looked-up input
    assert browser.current_url.endswith("page-1.html#sample-0")
    assert INPUTS[0] in browser.find_element(By.ID, "sample-0").text
    browser.find_element(By.CSS_SELECTOR, "#sample-0 .next-sample").click()
    assert browser.current_url.endswith("#sample-1")


def test_reliability_diagram_and_unscored_count(browser, tmp_path) -> None:
    import json

    from selenium.webdriver.common.by import By

    from seebench.view.synthetic import classification_records, write_unit
    from tests.view.test_rows import BINS

    results = tmp_path / "results"
    path = write_unit(
        results,
        "smollm2",
        "loglik",
        "issues",
        classification_records(20, 0.7),
        info={"loglik": {"ece": 0.0625, "reliability": BINS}},
    )
    result = json.loads(path.read_text())
    result["unscored"] = {"count": 2, "reasons": {"infra_error": 2}}
    path.write_text(json.dumps(result))
    catalog = Catalog([results])
    catalog.refresh()
    export_site(Site(catalog, get_registry(), mode="export"), tmp_path / "site")
    [unit] = catalog.list()
    browser.get((tmp_path / "site" / "unit" / unit.uid / "page-1.html").as_uri())
    bars = browser.find_elements(By.CSS_SELECTOR, "#reliability rect.bin")
    assert len(bars) == 3 and all(b.size["height"] > 0 for b in bars)
    assert browser.find_element(By.ID, "ece").text == "0.0625"
    assert browser.find_element(By.ID, "unscored").text.startswith("2 of 20 samples unscored")
    browser.execute_script(
        "document.getElementById('unscored').scrollIntoView(); window.scrollBy(0, -60);"
    )
    _shot(browser, "reliability")
    browser.get((tmp_path / "site" / "index.html").as_uri())
    assert browser.find_element(By.CSS_SELECTOR, "#runs td.unscored").text == "2"
