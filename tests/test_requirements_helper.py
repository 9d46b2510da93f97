"""tests/requirements.py: a missing system tool skips with the reason, fails where required,
and a tool meant to be hidden that is found anyway fails."""

from __future__ import annotations

import pytest

from tests.requirements import EXPECT_MISSING_ENV, need, requires


@pytest.fixture
def no_requirements(monkeypatch):
    for name in ("BROWSER", "SANDBOX", "WORDNET", "NODE"):
        monkeypatch.delenv(f"SEEBENCH_REQUIRE_{name}", raising=False)
    monkeypatch.delenv(EXPECT_MISSING_ENV, raising=False)


def test_a_missing_tool_skips_with_the_reason(monkeypatch, tmp_path, no_requirements):
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(pytest.skip.Exception, match="node, npm not on PATH"):
        need("npm")


def test_a_missing_tool_fails_where_it_is_required(monkeypatch, tmp_path, no_requirements):
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.setenv("SEEBENCH_REQUIRE_NODE", "1")
    with pytest.raises(pytest.fail.Exception, match="SEEBENCH_REQUIRE_NODE=1 but node"):
        need("node")


def test_wordnet_is_looked_for_where_seebench_reads_it(monkeypatch, tmp_path, no_requirements):
    monkeypatch.setenv("SEEBENCH_WORDNET_DIR", str(tmp_path))
    with pytest.raises(pytest.skip.Exception, match=f"WordNet 3.0 not in {tmp_path}"):
        need("wordnet")


def test_a_tool_meant_to_be_hidden_but_found_fails(monkeypatch, tmp_path, no_requirements):
    node = tmp_path / "node"
    node.write_text("#!/bin/sh\n")
    node.chmod(0o755)
    monkeypatch.setenv("PATH", str(tmp_path))
    need("node")  # found: the test would run
    monkeypatch.setenv(EXPECT_MISSING_ENV, "wordnet,node")
    with pytest.raises(pytest.fail.Exception, match="hides node, but it was found"):
        need("node")


def test_an_unknown_tool_is_refused():
    with pytest.raises(ValueError, match="unknown tool"):
        requires("chromiun")
