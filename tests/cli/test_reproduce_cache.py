"""``seebench reproduce --run`` asks the model again: replies are cached in its scratch
folder, never read from the response cache that made the published results."""

from __future__ import annotations

import os
from types import SimpleNamespace

from seebench.cli import leaderboard as cli
from seebench.home import seebench_home
from seebench.leaderboard.board_file import BoardRun
from seebench.models.cache import RESPONSE_CACHE_VARIABLE, ResponseCache, responses_dir


def test_a_rerun_caches_replies_in_its_scratch_folder(tmp_path, monkeypatch):
    monkeypatch.delenv(RESPONSE_CACHE_VARIABLE, raising=False)
    stored = responses_dir()
    assert stored == seebench_home() / "cache" / "responses"
    seen = []

    def fake_eval(name, args):
        seen.append((name, responses_dir(), ResponseCache().root, os.environ.copy()))
        return {}

    monkeypatch.setattr(cli, "_timed_eval", fake_eval)
    scratch = tmp_path / "scratch"
    (scratch / "responses").mkdir(parents=True)
    (scratch / "responses" / "left-over.json").write_text("{}")
    board = SimpleNamespace(runs=[BoardRun("smol", ("openai:m",), ("alpha",))], results=tmp_path)
    assert cli._rerun(board, [], scratch, (), ()) == []
    ((name, during, root, env),) = seen
    assert name == "smol" and during == root == scratch / "responses"
    assert env[RESPONSE_CACHE_VARIABLE] == str(scratch / "responses")  # workers inherit it
    assert not (scratch / "responses" / "left-over.json").exists()  # starts empty
    assert responses_dir() == stored and RESPONSE_CACHE_VARIABLE not in os.environ
