"""The study suite as one plugin: ``seebench study`` serves a human study of coding
assistants (RealHumanEval) and exports and analyses its telemetry. Everything lives in :mod:`seebench_study`; disable it with
``SEEBENCH_DISABLE_PLUGINS=study``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from seebench.api import RegisterDataFile, hookimpl

if TYPE_CHECKING:
    import click


@hookimpl
def register_data_files(register: RegisterDataFile) -> None:
    from seebench_study import data_files

    register(
        "realhumaneval-chat",
        data_files.RELEASED_CHAT_SHA256,
        file_name=data_files.RELEASED_CHAT_NAME,
        description="The released RealHumanEval chat log (study analyze --released-chat).",
    )


@hookimpl
def register_commands(cli: click.Group) -> None:
    from seebench_study.analysis_cli import add_commands
    from seebench_study.cli import study_group

    add_commands(study_group)  # export, analyze, replay
    cli.add_command(study_group)
