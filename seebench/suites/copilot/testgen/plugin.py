"""What the test scenario registers (a sub-plugin of :mod:`seebench.suites.copilot.plugin`)."""

from __future__ import annotations

from seebench.hookspecs import (
    RegisterFunction,
    RegisterMetric,
    RegisterScorer,
    RegisterTaskType,
    hookimpl,
)

EMPTY_SCHEMA = {"type": "object", "additionalProperties": False, "properties": {}}
RUN_SCORER = "copilot_test_run"


@hookimpl
def register_task_types(register: RegisterTaskType) -> None:
    register(
        "copilot_test",
        "seebench.suites.copilot.testgen.types:TestgenType",
        description="Write a pytest file for a focal function (Copilot test): run in the "
        "sandbox for pass, focal call, validity and mutants killed.",
    )


@hookimpl
def register_prepare_steps(register: RegisterFunction) -> None:
    register(
        "copilot_test_target",
        "seebench.suites.copilot.testgen.types:test_target",
        description="Function items as test rows (input: the focal file; target: the item).",
        schema=EMPTY_SCHEMA,
    )


@hookimpl
def register_scorers(register: RegisterScorer) -> None:
    from seebench.suites.copilot.testgen.options import OPTIONS

    register(
        "copilot_test_syntax",
        "seebench.suites.copilot.testgen.scorer:TestSyntaxScorer",
        description="1 when the generated test file is non-empty and parses.",
        options={},
    )
    register(
        RUN_SCORER,
        "seebench.suites.copilot.testgen.scorer:GeneratedTestScorer",
        description="Run the generated test appended to the focal file in the sandbox: 1 when "
        "it passes; metadata: validity check, focal call (traced), mutants killed.",
        options=OPTIONS,
    )


@hookimpl
def register_metrics(register: RegisterMetric) -> None:
    register(
        "test_syntax_rate",
        "seebench.suites.codegen.metrics:pass_rate",
        inputs="scores",
        scorer="copilot_test_syntax",
        description="Share of generated test files that parse.",
    )
    for name, function, what in (
        ("test_invokes_rate", "invokes_rate", "tests that call the focal definition (traced)"),
        ("test_success_rate", "success_rate", "tests that pass and call the focal definition"),
        ("mutation_score", "mutation_score", "kept mutants killed (mean per item)"),
    ):
        register(
            name,
            f"seebench.suites.copilot.testgen.metrics:{function}",
            inputs="scores",
            scorer=RUN_SCORER,
            description=f"Share of {what}.",
        )
