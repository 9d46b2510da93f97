"""``seebench study`` without the seebench-study distribution says how to install it."""

from __future__ import annotations

import importlib.util

import click
from click.testing import CliRunner

from seebench import plugin_manager
from seebench.cli import study_hint


def _group() -> click.Group:
    group = click.Group()
    plugin_manager.get_plugin_manager().hook.register_commands(cli=group)
    return group


def test_study_without_the_distribution_names_the_install_command(monkeypatch) -> None:
    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util,
        "find_spec",
        lambda name, *a: None if name == "seebench_study" else real(name, *a),
    )
    monkeypatch.setenv("SEEBENCH_DISABLE_PLUGINS", "study")
    plugin_manager.reset()
    result = CliRunner().invoke(_group(), ["study", "serve", "realhumaneval", "--port", "1"])
    assert result.exit_code != 0
    assert "pip install -e plugins/seebench-study" in str(result.exception)
    assert str(result.exception) == study_hint.INSTALL_HINT


def test_the_hint_stays_away_when_the_study_app_is_importable(monkeypatch) -> None:
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: object())
    group = click.Group()
    study_hint.register_commands(cli=group)
    assert "study" not in group.commands
