"""A headless Chromium for browser tests, driven by Selenium with the system chromedriver only
(no download). Missing pieces skip the test, or fail it under SEEBENCH_REQUIRE_BROWSER=1."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

BROWSER_FLAGS = (
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
)


def _find(name: str) -> str | None:
    found = shutil.which(name)
    if found:
        return found
    fallback = Path("/usr/bin") / name
    return str(fallback) if fallback.exists() else None


def headless_chromium(profile: Path, extra_flags: Sequence[str] = ()) -> Iterator[Any]:
    """Yield a Selenium driver for a headless Chromium using ``profile`` (for a fixture)."""
    chromium, driver_path = _find("chromium"), _find("chromedriver")
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.options import Options
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        webdriver = None
    if webdriver is None or chromium is None or driver_path is None:
        missing = (
            "selenium" if webdriver is None else "chromium" if chromium is None else "chromedriver"
        )
        if os.environ.get("SEEBENCH_REQUIRE_BROWSER") == "1":
            pytest.fail(f"SEEBENCH_REQUIRE_BROWSER=1 but {missing} is not installed")
        pytest.skip(f"{missing} is not installed")
    previous = os.environ.get("SE_OFFLINE")
    os.environ["SE_OFFLINE"] = "true"  # Selenium Manager must not download anything
    options = Options()
    options.binary_location = chromium
    for flag in (*BROWSER_FLAGS, *extra_flags, f"--user-data-dir={profile}"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(driver_path), options=options)
    try:
        yield driver
    finally:
        driver.quit()
        if previous is None:
            os.environ.pop("SE_OFFLINE", None)
        else:
            os.environ["SE_OFFLINE"] = previous
