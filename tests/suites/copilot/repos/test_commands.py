"""``seebench copilot envs``: selection, shards and the table."""

from __future__ import annotations

import json

from click.testing import CliRunner

from seebench.cli.main import build_cli
from seebench.suites.copilot.repos import commands

from .conftest import TINY_PYTHON, staged


def _repos(tmp_path):
    return [
        staged(tmp_path, TINY_PYTHON, name=f"owner{i}/repo{i}", whole_tree=i != 2) for i in range(5)
    ]


def test_shards_split_the_repositories_without_overlap(tmp_path):
    repos = _repos(tmp_path)
    shards = [commands.select_repos(repos, None, f"{i}/2") for i in (1, 2)]
    assert [len(s) for s in shards] == [3, 2]
    assert sorted(r.slug for s in shards for r in s) == sorted(r.slug for r in repos)
    assert [r.repo for r in commands.select_repos(repos, "owner[13]/*", None)] == [
        "owner1/repo1",
        "owner3/repo3",
    ]
    assert [r.repo for r in commands.select_repos(repos, "repo4", None)] == ["owner4/repo4"]


def test_the_table_lists_every_repository_with_its_status(tmp_path, monkeypatch):
    monkeypatch.setattr(commands, "staged_repositories", lambda: _repos(tmp_path))
    out = tmp_path / "table.json"
    result = CliRunner().invoke(
        build_cli(), ["copilot", "envs", "--shard", "1/2", "--json", str(out)]
    )
    assert result.exit_code == 0, result.output
    rows = json.loads(out.read_text())
    assert [(r["repository"], r["status"]) for r in rows] == [
        ("owner0/repo0", "excluded"),
        ("owner2/repo2", "excluded"),
        ("owner4/repo4", "excluded"),
    ]
    assert rows[1]["reason"] == "only the cases' files are staged"
    assert "not built: run seebench copilot envs --build" in result.output
    assert "3 repositories (2 whole trees): 0 ready, 0 failed, 3 excluded" in result.output


def test_a_bad_shard_is_one_clear_line(tmp_path, monkeypatch):
    monkeypatch.setattr(commands, "staged_repositories", lambda: _repos(tmp_path))
    result = CliRunner().invoke(build_cli(), ["copilot", "envs", "--shard", "3/2"])
    assert result.exit_code != 0
    assert "--shard '3/2'" in result.output and "Traceback" not in result.output
