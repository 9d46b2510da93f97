"""What repository-level test generation registers (a sub-plugin of :mod:`seebench.suites.copilot.plugin`).
Nothing heavy is imported here."""

from __future__ import annotations

from seebench.hookspecs import (
    RegisterFunction,
    RegisterMetric,
    RegisterScorer,
    RegisterTaskType,
    hookimpl,
)

SCORER = "copilot_repo_test"
TYPE = "copilot_repo_test"
METRICS = {
    "repo_test_success_rate": (
        "seebench.suites.copilot.testgen.metrics:success_rate",
        True,
        "Share of generated tests that run, pass and invoke the focal method (traced).",
    ),
    "repo_test_pass_rate": (
        "seebench.suites.copilot.repo_testgen.metrics:pass_rate",
        True,
        "Share of generated tests that pass in the repository.",
    ),
    "repo_test_invokes_rate": (
        "seebench.suites.copilot.testgen.metrics:invokes_rate",
        True,
        "Share of generated tests that call the focal method (traced).",
    ),
    "repo_test_excluded": (
        "seebench.suites.copilot.repo_testgen.metrics:excluded",
        False,
        "Items excluded because their repository environment is not ready here (a count).",
    ),
    "repo_test_invalid": (
        "seebench.suites.copilot.repo_testgen.metrics:invalid",
        False,
        "Items whose validity check failed (a trivial test placed the same way; a count).",
    ),
    "repo_test_tampered": (
        "seebench.suites.copilot.repo_testgen.metrics:tampered",
        False,
        "Generated tests that touched the test infrastructure or forged the run (scored 0; "
        "a count).",
    ),
}


@hookimpl
def register_task_types(register: RegisterTaskType) -> None:
    register(
        TYPE,
        "seebench.suites.copilot.repo_testgen.types:RepoTestType",
        description="Write a unit test for a method of a real repository (Copilot harness "
        "test_gen); run there: validity check, pass, focal call traced.",
    )


@hookimpl
def register_data_readers(register: RegisterFunction) -> None:
    register(
        "copilot_repo_test",
        "seebench.suites.copilot.repo_testgen.cases:read_repo_test_cases",
        description="The Copilot harness's test_gen cases of one language (a seeded number per "
        "repository), each with its focal file from the repository archive.",
    )


@hookimpl
def register_prepare_steps(register: RegisterFunction) -> None:
    register(
        "copilot_repo_test_items",
        "seebench.suites.copilot.repo_testgen.types:repo_test_items",
        description="Test_gen cases as rows: the prompt (focal file excerpt, placement) and "
        "the case as target.",
        schema={"type": "object", "additionalProperties": False, "properties": {}},
    )


@hookimpl
def register_scorers(register: RegisterScorer) -> None:
    from seebench.suites.copilot.repo_testgen.options import OPTIONS

    register(
        SCORER,
        "seebench.suites.copilot.repo_testgen.scorer:RepoTestScorer",
        description="Place the generated test in its repository and run it there: 1 when it "
        "runs, passes and invokes the focal method; excluded/invalid items unscored.",
        options=OPTIONS,
    )


@hookimpl
def register_metrics(register: RegisterMetric) -> None:
    for name, (function, higher, description) in METRICS.items():
        register(
            name,
            function,
            inputs="scores",
            scorer=SCORER,
            task_types=(TYPE,),
            higher_is_better=higher,
            description=description,
        )
