"""A headless Chromium for browser tests, driven by Selenium with the system chromedriver only
(no download). Missing pieces skip the test, or fail it under SEEBENCH_REQUIRE_BROWSER=1
(:func:`tests.requirements.need`)."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from tests.requirements import need

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


def headless_chromium(profile: Path, extra_flags: Sequence[str] = ()) -> Iterator[Any]:
    """Yield a Selenium driver for a headless Chromium using ``profile`` (for a fixture)."""
    need("chromium")
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    chromium, driver_path = shutil.which("chromium"), shutil.which("chromedriver")
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
