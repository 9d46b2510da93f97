"""``seebench sandbox check``."""

from __future__ import annotations

import json

from click.testing import CliRunner

from seebench.cli.main import build_cli
from tests.sandbox.conftest import REQUIRE_SANDBOX


def test_check_reports_the_mechanism_and_a_trial_run():
    result = CliRunner().invoke(build_cli(), ["sandbox", "check", "--json"])
    facts = json.loads(result.output)
    assert {"bwrap", "bwrap_version", "user_namespaces", "cgroups_writable"} <= set(facts)
    if facts["mechanism"] is None:
        assert not REQUIRE_SANDBOX, facts["unavailable"]
        assert result.exit_code == 1
    else:
        assert result.exit_code == 0, result.output
        assert facts["trial_run"] == "passed"


def test_check_without_bwrap_says_why_and_exits_1(tmp_path):
    result = CliRunner().invoke(
        build_cli(), ["sandbox", "check", "--bwrap", str(tmp_path / "none")]
    )
    assert result.exit_code == 1
    assert "no bwrap executable found" in result.output
