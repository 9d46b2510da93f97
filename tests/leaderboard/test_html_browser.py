"""The static leaderboard page in a real headless Chromium: sorting a table by a column.

Needs the Debian packages ``chromium`` and ``chromium-driver`` and the ``selenium`` package.
Without them the test is skipped, unless ``SEEBENCH_REQUIRE_BROWSER=1`` (set in CI).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from seebench.leaderboard.html import export_html
from seebench.stats import ComparisonReport
from tests.browser import headless_chromium

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory):
    """A headless Chromium driven by Selenium, using the system chromedriver only."""
    yield from headless_chromium(tmp_path_factory.mktemp("chromium-profile"))


def _column(driver, table_id: str, index: int) -> list[str]:
    return driver.execute_script(
        "return Array.from(document.querySelectorAll(`#${arguments[0]} tbody tr`))"
        ".map(r => r.cells[arguments[1]].dataset.value ?? r.cells[arguments[1]].textContent.trim());",
        table_id,
        index,
    )


def _header(driver, table_id: str, label: str):
    from selenium.webdriver.common.by import By

    headers = driver.find_elements(By.CSS_SELECTOR, f"#{table_id} thead th")
    index = [h.text.strip() for h in headers].index(label)
    return headers[index], index


def test_sorting_the_ranking_by_a_column(
    browser, tiny_report: ComparisonReport, tmp_path: Path
) -> None:
    [page] = export_html(tiny_report, tmp_path)
    browser.get(page.as_uri())
    assert browser.title == "tiny"
    models_by_rank = list(tiny_report.models)
    sd_header, sd_index = _header(browser, "ranking", tiny_report.spread_label)
    model_header, model_index = _header(browser, "ranking", "Model")
    assert _column(browser, "ranking", model_index) == models_by_rank

    sd_header.click()
    assert sd_header.get_attribute("aria-sort") == "ascending"
    by_sd = sorted(tiny_report.rows, key=lambda r: r.spread)
    assert _column(browser, "ranking", model_index) == [r.model for r in by_sd]
    sd_values = [float(v) for v in _column(browser, "ranking", sd_index)]
    assert sd_values == sorted(sd_values)

    sd_header.click()
    assert sd_header.get_attribute("aria-sort") == "descending"
    assert _column(browser, "ranking", model_index) == [r.model for r in reversed(by_sd)]

    model_header.click()
    assert _column(browser, "ranking", model_index) == sorted(models_by_rank, key=str.lower)
    assert sd_header.get_attribute("aria-sort") is None


def test_page_shows_the_figures(browser, tiny_report: ComparisonReport, tmp_path: Path) -> None:
    [page] = export_html(tiny_report, tmp_path)
    browser.get(page.as_uri())
    sizes = browser.execute_script(
        "return Array.from(document.querySelectorAll('figure svg'))"
        ".map(s => s.getBoundingClientRect().width);"
    )
    assert len(sizes) == 3 and all(width > 100 for width in sizes)
