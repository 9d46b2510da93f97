"""The fix scenario's registrations, called by the ``copilot`` suite plugin
(a sub-plugin of :mod:`seebench.suites.copilot.plugin`). Nothing heavy is imported here."""

from __future__ import annotations

from typing import TYPE_CHECKING

from seebench.hookspecs import (
    RegisterFunction,
    RegisterMetric,
    RegisterScorer,
    RegisterTaskType,
    hookimpl,
)

if TYPE_CHECKING:
    import click


METRICS = {
    "fix_rate": (
        "fix_rate",
        True,
        "Share of fixes that parse and strictly reduce the "
        "analyzer's warnings (the paper's fix rate).",
    ),
    "fix_target_rate": (
        "fix_target_rate",
        True,
        "Share of fixes that parse and leave no "
        "warning of the case's rule at the target's diff-mapped place.",
    ),
    "fix_syntax_rate": ("fix_syntax_rate", True, "Share of edited files that parse."),
    "fix_new_warning_rate": (
        "fix_new_warning_rate",
        False,
        "Share of analysed edits that introduce a warning the original file did not have.",
    ),
    "fix_suppressed_rate": (
        "fix_suppressed_rate",
        False,
        "Share of analysed edits that add an analyzer directive (noqa, type: ignore, "
        "eslint-disable, @ts-ignore...) instead of fixing (verdict tampered, never a fix).",
    ),
}


@hookimpl
def register_task_types(register: RegisterTaskType) -> None:
    register(
        "copilot_fix",
        "seebench.suites.copilot.fix.types:FixType",
        description="Fix a static analyzer's warning in a whole file (Copilot harness fix); "
        "the analyzer in the sandbox judges the edited file.",
    )


@hookimpl
def register_scorers(register: RegisterScorer) -> None:
    from seebench.suites.copilot.fix.options import OPTIONS

    register(
        "copilot_fix",
        "seebench.suites.copilot.fix.scorer:FixScorer",
        description="Analyse the edited file in the sandbox as the original: 1 when it parses "
        "and has strictly fewer warnings; target, syntax and new-warning verdicts in metadata.",
        options=OPTIONS,
    )


@hookimpl
def register_metrics(register: RegisterMetric) -> None:
    for name, (function, higher, description) in METRICS.items():
        register(
            name,
            f"seebench.suites.copilot.fix.metrics:{function}",
            inputs="scores",
            scorer="copilot_fix",
            task_types=("copilot_fix",),
            higher_is_better=higher,
            description=description,
        )


@hookimpl
def register_prepare_steps(register: RegisterFunction) -> None:
    register(
        "copilot_fix_reproducible",
        "seebench.suites.copilot.fix.types:copilot_fix_reproducible",
        description="Keep the fix cases whose warning reproduces on the whole file alone "
        "(the analyzer in the sandbox); build their prompt input and target.",
        schema={"type": "object", "additionalProperties": False, "properties": {}},
    )


@hookimpl
def register_data_readers(register: RegisterFunction) -> None:
    register(
        "copilot_fix",
        "seebench.suites.copilot.fix.cases:read_fix_cases",
        description="The Copilot harness's fix cases of one analyzer, each with its whole file "
        "from the repository archive at the case's commit.",
    )


@hookimpl
def register_commands(cli: click.Group) -> None:
    from seebench.suites.copilot.fix.commands import add_commands

    add_commands(cli)
