"""The study plugin: ``seebench study`` exists, and disappears with the plugin disabled."""

from __future__ import annotations

import json

from click.testing import CliRunner

from seebench import plugin_manager


def _cli():
    import click

    from seebench.cli.main import cli

    # the core commands only: a test that ran build_cli() may have added plugins' to ``cli``
    group = click.Group(commands={k: v for k, v in cli.commands.items() if k != "study"})
    plugin_manager.get_plugin_manager().hook.register_commands(cli=group)
    return group


def test_study_commands_are_registered_and_disable_able(monkeypatch) -> None:
    result = CliRunner().invoke(_cli(), ["study", "schema"])
    assert result.exit_code == 0 and json.loads(result.output)["title"].startswith(
        "seebench study event"
    )
    monkeypatch.setenv("SEEBENCH_DISABLE_PLUGINS", "study")
    plugin_manager.reset()
    assert "study" not in _cli().commands


def test_import_data_names_a_folder_without_the_table(tmp_path) -> None:
    result = CliRunner().invoke(_cli(), ["study", "import-data", "realhumaneval", str(tmp_path)])
    assert result.exit_code != 0
    assert "no file with the sha256" in str(result.exception)


def test_serve_without_the_task_table_says_how_to_import_it() -> None:
    result = CliRunner().invoke(_cli(), ["study", "serve", "realhumaneval", "--no-warm"])
    assert result.exit_code != 0
    message = str(result.exception)
    assert "tasks.source" in message and "seebench study import-data realhumaneval" in message
    assert len(message.splitlines()) == 1


def test_a_bad_study_file_is_named(tmp_path) -> None:
    bad = tmp_path / "mine.yaml"
    bad.write_text("name: [unclosed\n")
    result = CliRunner().invoke(_cli(), ["study", "serve", str(bad), "--no-warm"])
    assert result.exit_code != 0 and str(result.exception).startswith(f"{bad}: cannot read")
