"""The participant app in a real headless Chromium: one autocomplete and one chat participant
play the RealHumanEval tutorial task and one more, against a fake model server; the events in
the database must match their actions one for one.

Needs ``chromium``, ``chromium-driver`` and ``selenium``; skipped without them unless
``SEEBENCH_REQUIRE_BROWSER=1`` (set in CI). With ``SEEBENCH_STUDY_SCREENSHOTS=DIR`` the test
also saves the screenshots used in ``docs/study.md`` there.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from seebench_study.store import read_events, read_sessions

from seebench_study_tests.conftest import TEST_KEY, write_test_study
from seebench_study_tests.fake_model import CHAT_CODE, COMPLETION
from tests.browser import headless_chromium

pytestmark = pytest.mark.browser

SLIDE = """
const [slider, value] = arguments;
slider.value = value;
slider.dispatchEvent(new Event('input', {bubbles: true}));
"""
PASTE = """
const [target, text] = arguments;
const data = new DataTransfer();
data.setData('text/plain', text);
target.dispatchEvent(new ClipboardEvent('paste', {clipboardData: data, bubbles: true, cancelable: true}));
"""


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory):
    """A headless Chromium driven by Selenium, using the system chromedriver only."""
    for driver in headless_chromium(
        tmp_path_factory.mktemp("chromium-profile"), ("--window-size=1280,860",)
    ):
        driver.set_script_timeout(20)
        yield driver


class Player:
    """Plays one participant in the browser and records the events each action must log."""

    def __init__(self, driver, base_url: str) -> None:
        from selenium.webdriver.common.by import By
        from selenium.webdriver.common.keys import Keys
        from selenium.webdriver.support.ui import WebDriverWait

        self.driver, self.base_url = driver, base_url
        self.By, self.Keys = By, Keys
        self.wait = WebDriverWait(driver, 20)
        self.expected: list[tuple[str, dict]] = []  # (type, fields data must contain)
        self.expected_server: list[tuple[str, dict]] = []  # the server's own events
        self.shots = os.environ.get("SEEBENCH_STUDY_SCREENSHOTS")

    def find(self, css: str):
        return self.driver.find_element(self.By.CSS_SELECTOR, css)

    def visible(self, css: str):
        return self.wait.until(lambda d: (el := self.find(css)) and el.is_displayed() and el)

    def expect(self, type_: str, **fields) -> None:
        self.expected.append((type_, fields))

    def expect_server(self, type_: str, **fields) -> None:
        self.expected_server.append((type_, fields))

    def shot(self, name: str) -> None:
        if self.shots:
            Path(self.shots).mkdir(parents=True, exist_ok=True)
            self.driver.save_screenshot(str(Path(self.shots) / f"study_{name}.png"))

    def start(self, participant: str) -> str:
        """Open the study, consent, pass the screening page and the pre-survey: the
        protocol's steps are the server's events."""
        from selenium.webdriver.support.select import Select

        self.driver.get(f"{self.base_url}/?participant={participant}")
        self.visible("#consent-accept")
        kind = self.driver.execute_script("return document.body.dataset.kind")
        self.expect_server("session_started", kind=kind)
        self.shot("consent")
        self.find("#consent-accept").click()
        self.expect_server("consent", accepted=True)
        self.visible("#q-adult")
        Select(self.find("#q-adult")).select_by_value("yes")
        self.find("#survey-submit").click()
        self.expect_server(
            "survey_answer", survey="pre", item="adult", answer="yes", screened_out=False
        )
        self.visible("#q-experience")
        Select(self.find("#q-experience")).select_by_value("3+")
        self.find("#survey-submit").click()
        self.expect_server("survey_answer", survey="pre", item="experience", answer="3+")
        self.visible("#editor .cm-content")
        self.expect_server("load_task", task="sum_product", index=0, tutorial=True)
        return kind

    def code(self) -> str:
        return self.driver.execute_script("return window.studyEditor.state.doc.toString()")

    def type_in_editor(self, *keys) -> None:
        self.find("#editor .cm-content").send_keys(*keys)

    def end_of_first_line(self) -> None:
        self.find("#editor .cm-content").click()
        self.type_in_editor(self.Keys.CONTROL, self.Keys.HOME)
        self.type_in_editor(self.Keys.END)

    def suggestion(self, accept: bool) -> None:
        self.type_in_editor(self.Keys.CONTROL, self.Keys.ENTER)
        self.visible(".cm-ghost")
        self.expect("suggestion_requested", trigger="hotkey")
        self.expect("suggestion_shown", suggestion=COMPLETION)
        if accept:
            self.shot("autocomplete")
            self.type_in_editor(self.Keys.TAB)
            self.expect("suggestion_accepted", suggestion=COMPLETION)
        else:
            self.type_in_editor(self.Keys.ESCAPE)
            self.expect("suggestion_rejected", reason="escape")
        self.wait.until(lambda d: not d.find_elements(self.By.CSS_SELECTOR, ".cm-ghost"))

    def paste(self, text: str, source: str) -> None:
        self.driver.execute_script(PASTE, self.find("#editor .cm-content"), text)
        self.expect("paste", blocked=source == "external", source=source, length=len(text))

    def execute(self, mode: str, passes: bool) -> None:
        self.find(f"#{mode}").click()
        self.wait.until(
            lambda d: self.find("#output").get_attribute("class") in ("passed", "failed")
        )
        self.expect_server(mode, passed=passes)

    def submit_and_advance(self, task: str, index: int) -> None:
        self.find("#submit").click()
        self.expect_server("submit", passed=True)
        self.expect_server("task_finished", outcome="passed")
        # the tutorial is not counted: the one real task is "Task 1 of 1"
        self.wait.until(lambda d: self.find("#task-title").text == f"Task {index} of 1")
        self.expect_server("load_task", task=task, index=index)

    def skip(self) -> None:
        self.visible("#skip").click()
        self.expect_server("skip")
        self.expect_server("task_finished", outcome="skipped")

    def post_survey_and_finish(self) -> str:
        self.visible("#q-helpfulness")
        self.driver.execute_script(SLIDE, self.find("#q-helpfulness"), 7)
        self.find("#survey-submit").click()
        self.expect_server("survey_answer", survey="post", item="helpfulness", answer=7)
        end_code = self.visible("#end-code").text
        self.expect_server("session_finished", end_code=end_code)
        self.wait.until(lambda d: self.find("#pending").text == "saved")
        self.shot("done")
        return end_code


def _check_events(db: Path, session: str, player: Player) -> None:
    events = [e for e in read_events(db) if e["session"] == session]
    assert [e["seq"] for e in events] == list(range(len(events)))  # nothing lost or doubled
    for source, expected in (("browser", player.expected), ("server", player.expected_server)):
        logged = [
            e
            for e in events
            if e["type"] != "snapshot" and (e["tab"] == "server") == (source == "server")
        ]
        assert [e["type"] for e in logged] == [t for t, _ in expected], source
        for event, (type_, fields) in zip(logged, expected, strict=True):
            for key, value in fields.items():
                assert event["data"][key] == value, (type_, key, event["data"][key], value)


def test_two_participants_play_the_study(
    browser, serve, fake_model, rhe_tasks, sandbox_ready, tmp_path
):
    study = serve(write_test_study(tmp_path, fake_model.base_url))
    players = {}
    for participant in ("P1", "P2"):
        browser.get(study.base_url + "/static/study.css")
        browser.execute_script("localStorage.clear()")
        player = Player(browser, study.base_url)
        kind = player.start(participant)
        session = browser.execute_script("return document.body.dataset.session")
        if kind == "autocomplete":
            player.end_of_first_line()
            player.type_in_editor(player.Keys.ENTER)
            player.suggestion(accept=True)
            assert "return total, product" in player.code()
            player.execute("run", passes=True)
            player.submit_and_advance("even_odd_count", 1)
            player.paste("import os\n", "external")
            assert "import os" not in player.code()
            player.end_of_first_line()
            player.type_in_editor(player.Keys.ENTER, "return 0")
            player.execute("submit", passes=False)
            assert "Not correct" in player.find("#output").text
            player.suggestion(accept=False)
            player.find("#editor .cm-content").send_keys(player.Keys.CONTROL, player.Keys.ENTER)
            player.visible(".cm-ghost")
            player.expect("suggestion_requested", trigger="hotkey")
            player.expect("suggestion_shown", suggestion=COMPLETION)
            player.find("#editor .cm-content").send_keys("x")  # typing rejects it
            player.expect("suggestion_rejected", reason="typing")
        else:
            player.find("#chat-input").send_keys("How do I get the sum and product of a list?")
            player.find("#chat-send").click()
            player.expect("chat_user_message")
            player.visible("button.copy").click()
            player.expect_server(
                "chat_exchange", text="How do I get the sum and product of a list?"
            )
            player.expect("chat_assistant_response")
            player.expect("chat_copy_code", code=CHAT_CODE)
            player.shot("chat")
            browser.refresh()  # a reload resumes the session, its chat and its clipboard
            player.visible("#editor .cm-content")
            assert browser.execute_script("return document.body.dataset.session") == session
            assert CHAT_CODE in player.find("#chat-log .msg.assistant pre").text
            player.find("#editor .cm-content").click()
            player.type_in_editor(player.Keys.CONTROL, "a")
            player.paste(CHAT_CODE, "app")
            assert player.code().strip() == CHAT_CODE
            browser.refresh()
            player.visible("#editor .cm-content")
            assert player.code().strip() == CHAT_CODE  # the code typed so far is kept
            player.execute("run", passes=True)
            player.submit_and_advance("even_odd_count", 1)
        player.skip()
        end_code = player.post_survey_and_finish()
        assert TEST_KEY not in browser.page_source
        players[session] = (kind, player, end_code)

    assert sorted(kind for kind, _, _ in players.values()) == ["autocomplete", "chat"]
    sessions = {row["session"]: row for row in read_sessions(study.db)}
    for session, (kind, player, end_code) in players.items():
        assert sessions[session]["kind"] == kind and sessions[session]["end_code"] == end_code
        _check_events(study.db, session, player)
    dumped = json.dumps(list(read_events(study.db)))
    assert TEST_KEY not in dumped
    assert fake_model.authorization and set(fake_model.authorization) == {f"Bearer {TEST_KEY}"}

    browser.get(f"{study.base_url}/admin?token={study.token}")
    rows = browser.execute_script(
        "return Array.from(document.querySelectorAll('#progress tbody tr'))"
        ".map(r => Array.from(r.cells).map(c => c.textContent))"
    )
    # each passed the tutorial (not counted) and skipped the one counted task
    assert {r[0]: (r[3], r[4], r[5], r[6]) for r in rows} == {
        "ac": ("1", "1", "0", "1"),
        "chat": ("1", "1", "0", "1"),
    }
    player.shot("admin")
    browser.get(f"{study.base_url}/admin?token=wrong")
    assert "admin token missing or wrong" in browser.page_source


def test_pause_triggers_suggestions_snapshots_and_the_session_times_out(
    browser, serve, fake_model, rhe_tasks, sandbox_ready, tmp_path
):
    study = serve(
        write_test_study(
            tmp_path,
            fake_model.base_url,
            conditions=("ac",),
            pause_ms="800",
            snapshot_seconds="1",
            session_minutes="0.2",
            skip_after_minutes="10",
        )
    )
    browser.get(study.base_url + "/static/study.css")
    browser.execute_script("localStorage.clear()")
    player = Player(browser, study.base_url)
    assert player.start("P3") == "autocomplete"
    assert not player.find("#skip").is_displayed()  # only after 10 minutes on a task
    player.end_of_first_line()
    player.type_in_editor(player.Keys.ENTER)
    player.visible(".cm-ghost")  # no key pressed: the pause asked for it
    player.type_in_editor(player.Keys.TAB)
    assert "tutorial" in player.find("#timer").text  # the tutorial is not timed
    player.find("#submit").click()
    player.wait.until(lambda d: player.find("#task-title").text == "Task 1 of 1")
    player.visible("#q-helpfulness")  # 12 s later the session is over
    player.driver.execute_script(SLIDE, player.find("#q-helpfulness"), 3)
    player.find("#survey-submit").click()
    player.visible("#end-code")
    player.wait.until(lambda d: player.find("#pending").text == "saved")
    session = browser.execute_script("return document.body.dataset.session")
    events = [e for e in read_events(study.db) if e["session"] == session]
    assert [e["seq"] for e in events] == list(range(len(events)))
    logged = [e for e in events if e["type"] != "snapshot"]
    types = [e["type"] for e in logged]
    first = types.index("suggestion_requested")
    assert logged[first]["data"]["trigger"] == "auto"
    assert types[first : first + 3] == [
        "suggestion_requested",
        "suggestion_shown",
        "suggestion_accepted",
    ]
    snapshots = [e for e in events if e["type"] == "snapshot"]
    assert len(snapshots) >= 5
    finished = [e["data"]["outcome"] for e in events if e["type"] == "task_finished"]
    assert finished == ["passed", "timeout"]
    assert types[-2:] == ["survey_answer", "session_finished"]
