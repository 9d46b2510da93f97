"""The study app in a real headless Chromium where trust and trouble matter: a forged
submit, an untouched survey, a model that is down, a completion model's ghost text and
copying a selection from a chat answer (two tabs of one session: test_browser_protocol.py).

Needs ``chromium``, ``chromium-driver`` and ``selenium`` (skipped without them unless
``SEEBENCH_REQUIRE_BROWSER=1``).
"""

from __future__ import annotations

import pytest
from seebench_study.analysis.events import read_events as read_log
from seebench_study.analysis.report import analyze
from seebench_study.app import UNAVAILABLE
from seebench_study.store import read_events

from seebench_study_tests.conftest import write_test_study
from seebench_study_tests.fake_model import CHAT_CODE, FIM_MIDDLE
from seebench_study_tests.test_browser import PASTE, SLIDE, Player, browser  # noqa: F401

pytestmark = pytest.mark.browser


def _fresh(browser, base_url: str) -> Player:  # noqa: F811
    browser.get(base_url + "/static/study.css")
    browser.execute_script("localStorage.clear()")
    return Player(browser, base_url)


def _session(browser) -> str:  # noqa: F811
    return browser.execute_script("return document.body.dataset.session")


def _saved(player: Player) -> None:
    """Wait until this tab's queue is empty: every event it logged is acknowledged."""
    player.wait.until(lambda d: d.execute_script("return window.studyTelemetry().pending()") == 0)


FORGE = """
const done = arguments[arguments.length - 1];
const session = document.body.dataset.session;
const event = (seq, type, data) => ({schema: 1, session, tab: 'forger', seq, type,
  task: 'sum_product', client_time: Date.now(), data});
fetch('api/events', {method: 'POST', headers: {'Content-Type': 'application/json'},
  body: JSON.stringify({session, events: [
    event(0, 'submit', {code: 'pass', passed: true, output: ''}),
    event(1, 'task_finished', {outcome: 'passed'})]})})
  .then((r) => r.json()).then(done);
"""


def test_a_forged_submit_from_the_page_is_not_counted(
    browser,  # noqa: F811
    serve,
    fake_model,
    rhe_tasks,
    tmp_path,
):
    study = serve(write_test_study(tmp_path, fake_model.base_url, conditions=("none",)))
    player = _fresh(browser, study.base_url)
    player.start("F1")
    reply = browser.execute_async_script(FORGE)
    assert reply["acked"] == [] and len(reply["rejected"]) == 2
    _saved(player)
    events = [e for e in read_events(study.db) if e["session"] == _session(browser)]
    assert not any(e["type"] in ("submit", "task_finished") for e in events)
    analysis = analyze(read_log(study.db), resamples=100, exclude=())
    assert analysis.participants["tasks_completed"].sum() == 0


def test_an_untouched_survey_is_not_accepted(
    browser,  # noqa: F811
    serve,
    fake_model,
    rhe_tasks,
    tmp_path,
):
    study = serve(write_test_study(tmp_path, fake_model.base_url, conditions=("chat",)))
    player = _fresh(browser, study.base_url)
    player.start("S1")
    for _ in range(2):  # skip the tutorial and the task (skip_after_minutes is 0)
        title = player.find("#task-title").text
        player.visible("#skip").click()
        player.wait.until(
            lambda d, t=title: (
                not d.find_element(player.By.ID, "task").is_displayed()
                or player.find("#task-title").text != t
            )
        )
    player.visible("#q-helpfulness")
    assert player.find(".scale-value").text == "not answered"
    player.find("#survey-submit").click()
    assert "Please answer" in player.visible("#survey-error").text
    _saved(player)
    events = [e for e in read_events(study.db) if e["session"] == _session(browser)]
    assert not any(e["data"].get("survey") == "post" for e in events)
    assert player.find("#survey").is_displayed()
    browser.execute_script(SLIDE, player.find("#q-helpfulness"), 2)
    player.find("#survey-submit").click()
    player.visible("#end-code")
    _saved(player)
    events = [e for e in read_events(study.db) if e["session"] == _session(browser)]
    answers = [e["data"]["answer"] for e in events if e["data"].get("item") == "helpfulness"]
    assert answers == [2]


def test_a_model_that_is_down(
    browser,  # noqa: F811
    serve,
    fake_model,
    rhe_tasks,
    tmp_path,
):
    study = serve(write_test_study(tmp_path, fake_model.base_url, conditions=("chat",)))
    player = _fresh(browser, study.base_url)
    player.start("D1")
    fake_model.down = True
    player.find("#chat-input").send_keys("help?", player.Keys.ENTER)  # Enter sends
    message = player.visible("#chat-log .msg.error").text
    assert message == UNAVAILABLE and "fake" not in message
    assert player.find("#chat-input").get_attribute("value") == ""
    _saved(player)
    events = [e for e in read_events(study.db) if e["session"] == _session(browser)]
    (error,) = [e for e in events if e["type"] == "model_error"]
    assert error["tab"] == "server" and error["data"]["service"] == "chat"
    browser.get(f"{study.base_url}/admin?token={study.token}")
    rows = browser.execute_script(
        "return Array.from(document.querySelectorAll('#progress tbody tr'))"
        ".map(r => Array.from(r.cells).map(c => c.textContent))"
    )
    headers = browser.execute_script(
        "return Array.from(document.querySelectorAll('#progress th')).map(c => c.textContent)"
    )
    assert rows[0][headers.index("model errors")] == "1"


def test_a_completion_model_condition_shows_ghost_text(
    browser,  # noqa: F811
    serve,
    fake_model,
    rhe_tasks,
    tmp_path,
):
    study = serve(write_test_study(tmp_path, fake_model.base_url, conditions=("fim",)))
    player = _fresh(browser, study.base_url)
    assert player.start("C1") == "autocomplete"
    player.end_of_first_line()
    player.type_in_editor(player.Keys.ENTER, "    ")
    player.type_in_editor(player.Keys.CONTROL, player.Keys.ENTER)
    assert player.visible(".cm-ghost").text == FIM_MIDDLE
    player.type_in_editor(player.Keys.TAB)
    assert FIM_MIDDLE in player.code()
    assert fake_model.bodies[-1]["prompt"].startswith("<PRE> def sum_product")
    _saved(player)
    events = [e for e in read_events(study.db) if e["session"] == _session(browser)]
    shown = [e["data"]["suggestion"] for e in events if e["type"] == "suggestion_shown"]
    accepted = [e["data"]["suggestion"] for e in events if e["type"] == "suggestion_accepted"]
    assert shown == accepted == [FIM_MIDDLE]


SELECT = """
const range = document.createRange();
range.selectNodeContents(arguments[0]);
const selection = document.getSelection();
selection.removeAllRanges();
selection.addRange(range);
"""


def test_copying_a_selection_from_a_chat_answer_is_allowed_and_logged(
    browser,  # noqa: F811
    serve,
    fake_model,
    rhe_tasks,
    tmp_path,
):
    from selenium.webdriver.common.action_chains import ActionChains

    study = serve(write_test_study(tmp_path, fake_model.base_url, conditions=("chat",)))
    player = _fresh(browser, study.base_url)
    player.start("X1")
    player.find("#chat-input").send_keys("sum and product?", player.Keys.ENTER)
    code = player.visible("#chat-log .msg.assistant pre")
    browser.execute_script(SELECT, code)
    ActionChains(browser).key_down(player.Keys.CONTROL).send_keys("c").key_up(
        player.Keys.CONTROL
    ).perform()
    player.find("#editor .cm-content").click()
    player.type_in_editor(player.Keys.CONTROL, "a")
    browser.execute_script(PASTE, player.find("#editor .cm-content"), CHAT_CODE)
    assert player.code().strip() == CHAT_CODE  # pasting the copied selection is allowed
    _saved(player)
    events = [e for e in read_events(study.db) if e["session"] == _session(browser)]
    (copied,) = [e["data"] for e in events if e["type"] == "chat_copy_code"]
    assert copied["how"] == "selection" and copied["code"] == CHAT_CODE
    assert copied["message_id"].startswith("m-") and copied["message_id"] != "m-unknown"
    (pasted,) = [e["data"] for e in events if e["type"] == "paste"]
    assert pasted == {"length": len(CHAT_CODE), "blocked": False, "source": "app"}
    (message,) = [e["data"] for e in events if e["type"] == "chat_user_message"]
    assert message["text"] == "sum and product?" and "def sum_product" in message["code"]


def test_declining_is_final_after_a_reload_and_hints_follow_the_condition(
    browser,  # noqa: F811
    serve,
    fake_model,
    rhe_tasks,
    tmp_path,
):
    study = serve(write_test_study(tmp_path, fake_model.base_url, conditions=("ac",)))
    player = _fresh(browser, study.base_url)
    browser.get(f"{study.base_url}/?participant=N1")
    player.visible("#consent-decline").click()
    player.wait.until(lambda d: "You declined" in player.find("#consent").text)
    _saved(player)
    browser.refresh()
    player.wait.until(lambda d: "You declined" in player.find("#consent").text)
    assert not browser.find_elements(player.By.ID, "consent-accept")
    player = _fresh(browser, study.base_url)
    player.start("N2")
    assert "Tab accepts" in player.find("#hints").text
    assert player.find("#task-title").text == "Tutorial task (not timed)"
