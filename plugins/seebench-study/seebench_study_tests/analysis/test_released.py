"""The released RealHumanEval chat log: parsing, the cache, and the paper's counts."""

from __future__ import annotations

import shutil

import click
import pytest
from click.testing import CliRunner
from seebench_study.analysis.released import (
    cache_released_chat,
    read_released_chat,
    released_chat_path,
)
from seebench_study.analysis.released_metrics import released_chat_summary
from seebench_study.analysis_cli import add_commands

from seebench.errors import SeebenchError

from .conftest import SHARED_CHAT

HEADER = "request,response,copy_events,logprobs,programmer_id,timestamp,model,task_name\n"


def _row(pid, model, task, user, copies="[]"):
    request = str([{"content": user, "role": "user"}]).replace('"', '""')
    return f'"{request}","```\nx = 1\n```","{copies}",{{}},{pid},0.0,{model},{task}\n'


def test_small_log_counts_and_bad_rows(tmp_path):
    path = tmp_path / "chat.csv"
    copy = str([{"type": "copy_button", "copied": "x = 1\n"}]).replace('"', '""')
    path.write_text(
        HEADER
        + _row(1, "GPT-3.5 (chat)", "a", "hello", copy)
        + _row(1, "GPT-3.5 (chat)", "a", "hi")
        + _row(2, "CodeLlama7b (chat)", "b", "abc")
        + _row(3, "GPT-4o (chat)", "b", "not in the paper")
        + '"not a list","r","[]",{},4,0.0,GPT-3.5 (chat),c\n',
        encoding="utf-8",
    )
    messages, problems = read_released_chat(path)
    assert len(messages) == 4
    assert problems == [f"{path}: data row 5: request: not a Python literal list"]
    summary = released_chat_summary(messages)
    assert summary["messages"] == 3
    assert summary["messages_per_task"] == 1.5
    assert summary["chars_per_message"] == pytest.approx(10 / 3)
    assert summary["copy_rate"]["any copy event"]["per_message"] == pytest.approx(1 / 3)
    assert summary["copy_rate"]["any copy event"]["mean_over_participants"] == pytest.approx(0.25)
    assert summary["copy_rate"]["copied text inside a code block"]["per_message"] == pytest.approx(
        1 / 3
    )


def test_missing_columns_are_named(tmp_path):
    path = tmp_path / "chat.csv"
    path.write_text("request,response\n", encoding="utf-8")
    with pytest.raises(SeebenchError, match="copy_events, programmer_id"):
        read_released_chat(path)


def test_not_in_cache_says_how_to_get_it(tmp_path, monkeypatch):
    monkeypatch.setenv("SEEBENCH_HOME", str(tmp_path))
    with pytest.raises(SeebenchError, match="--data PATH"):
        released_chat_path()
    other = tmp_path / "chat_data.csv"
    other.write_text(HEADER, encoding="utf-8")
    with pytest.raises(SeebenchError, match="not the released RealHumanEval chat log"):
        cache_released_chat(tmp_path)


needs_mirror = pytest.mark.skipif(not SHARED_CHAT.is_file(), reason="no ../shared/data mirror")


@needs_mirror
def test_reproduces_the_papers_counts(tmp_path, monkeypatch):
    monkeypatch.setenv("SEEBENCH_HOME", str(tmp_path))
    shutil.copy(SHARED_CHAT, tmp_path / "chat_data.csv")
    cached = cache_released_chat(tmp_path / "chat_data.csv")
    assert released_chat_path() == cached
    messages, problems = read_released_chat(cached)
    assert problems == [] and len(messages) == 1055
    summary = released_chat_summary(messages)
    assert summary["messages"] == 775
    assert summary["tasks_with_messages"] == 274
    assert round(summary["messages_per_task"], 2) == 2.83
    assert round(summary["chars_per_message"], 1) == 100.9  # the paper prints 100.8 (truncated)
    rates = summary["copy_rate"]
    assert round(rates["any copy event"]["per_message"], 3) == 0.332  # not the paper's 0.296
    assert round(rates["any copy event"]["mean_over_participants"], 3) == 0.306


@needs_mirror
def test_cli_prints_the_reproduced_counts(tmp_path, monkeypatch):
    monkeypatch.setenv("SEEBENCH_HOME", str(tmp_path))

    @click.group()
    def study() -> None:
        """study"""

    add_commands(study)
    args = [
        "analyze",
        "--released-chat",
        "--data",
        str(SHARED_CHAT.parent),
        "--figures",
        str(tmp_path / "f"),
    ]
    result = CliRunner().invoke(study, args)
    assert result.exit_code == 0, result.output
    assert "775 messages (paper: 775)" in result.output
    assert "2.83 (paper: 2.8)" in result.output
    assert (tmp_path / "f" / "released_chat_messages.png").is_file()
    again = CliRunner().invoke(study, ["analyze", "--released-chat"])  # now from the cache
    assert again.exit_code == 0 and "775 messages" in again.output
