"""What the generate scenario registers (a sub-plugin of :mod:`seebench.suites.copilot.plugin`)."""

from __future__ import annotations

from seebench.hookspecs import (
    RegisterFunction,
    RegisterMetric,
    RegisterScorer,
    RegisterTaskType,
    hookimpl,
)

EMPTY_SCHEMA = {"type": "object", "additionalProperties": False, "properties": {}}


@hookimpl
def register_task_types(register: RegisterTaskType) -> None:
    register(
        "copilot_generate",
        "seebench.suites.copilot.generate.types:GenerateType",
        description="Write a function body into its file (Copilot generate): judged by a "
        "parser and the item's hidden tests in the sandbox.",
    )


@hookimpl
def register_data_readers(register: RegisterFunction) -> None:
    register(
        "realhumaneval_tasks",
        "seebench.suites.copilot.generate.items:read_realhumaneval_tasks",
        description="RealHumanEval's task files (a file set of JSON objects) as function items.",
    )


@hookimpl
def register_prepare_steps(register: RegisterFunction) -> None:
    register(
        "humaneval_items",
        "seebench.suites.copilot.generate.items:humaneval_items",
        description="HumanEval rows as function items (placeholder body, solution, tests).",
        schema=EMPTY_SCHEMA,
    )
    register(
        "copilot_generate_target",
        "seebench.suites.copilot.generate.types:generate_target",
        description="Function items as generate rows (input: the file; target: the item).",
        schema=EMPTY_SCHEMA,
    )


@hookimpl
def register_scorers(register: RegisterScorer) -> None:
    from seebench.scoring.python_tests import OPTIONS
    from seebench.suites.copilot.generate.compat import COMPAT_OPTION

    register(
        "copilot_generate_syntax",
        "seebench.suites.copilot.generate.scorers:GeneratedSyntaxScorer",
        description="1 when the file with the generated code in place parses (tree-sitter).",
        options={},
    )
    register(
        "copilot_generate_tests",
        "seebench.suites.copilot.generate.scorers:GeneratedTestsScorer",
        description="Run the file with the generated code in place and the item's hidden "
        "tests in the sandbox: 1 passed, 0 failed, unscored without a sandbox.",
        options={**OPTIONS, "compat": COMPAT_OPTION},
    )


@hookimpl
def register_metrics(register: RegisterMetric) -> None:
    register(
        "generate_syntax_rate",
        "seebench.suites.codegen.metrics:pass_rate",
        inputs="scores",
        scorer="copilot_generate_syntax",
        description="Share of answers whose file parses once they are in place (tree-sitter).",
    )
