"""What repository-level generate registers (a sub-plugin of :mod:`seebench.suites.copilot.plugin`): the
``copilot_repo_generate`` task type, reader, scorer and metrics. Nothing heavy is imported."""

from __future__ import annotations

from seebench.hookspecs import (
    RegisterFunction,
    RegisterMetric,
    RegisterScorer,
    RegisterTaskType,
    hookimpl,
)

TYPE_SCHEMA = {
    "properties": {
        "language": {
            "enum": ["javascript", "python", "typescript"],
            "description": "the language of the task's methods (answers are parsed as it)",
        }
    },
    "required": ["language"],
}
METRICS = {
    "repo_generate_pass_rate": (
        True,
        "Share of judged answers that parse in place and keep every covering test passing.",
    ),
    "repo_generate_syntax_rate": (True, "Share of judged answers whose file parses in place."),
    "repo_generate_excluded_rate": (
        False,
        "Share of items not judged here (environment not ready, covering test not passing at "
        "baseline, item no longer matching its file).",
    ),
    "repo_generate_tampered": (
        False,
        "How many answers touched the test infrastructure or forged the run (scored 0, "
        "counted apart from failures).",
    ),
}


@hookimpl
def register_task_types(register: RegisterTaskType) -> None:
    register(
        "copilot_repo_generate",
        "seebench.suites.copilot.repo_generate.types:RepoGenerateType",
        description="Write a documented method's body inside its repository (Copilot generate, "
        "repository level): judged by a parser and the tests that covered the method.",
        schema=TYPE_SCHEMA,
    )


@hookimpl
def register_data_readers(register: RegisterFunction) -> None:
    register(
        "copilot_repo_generate",
        "seebench.suites.copilot.repo_generate.items:read_repo_generate_items",
        description="The listed repository methods of one language (option language), each "
        "rebuilt from its staged repository and checked against the list.",
    )


@hookimpl
def register_scorers(register: RegisterScorer) -> None:
    from seebench.suites.copilot.repo_generate.options import OPTIONS

    register(
        "copilot_repo_generate",
        "seebench.suites.copilot.repo_generate.scorer:RepoGenerateScorer",
        description="Put the body in place; 1 when the file parses and every test that covered "
        "the method passes again (sandbox); unscored when the item is excluded here.",
        options=OPTIONS,
    )


@hookimpl
def register_metrics(register: RegisterMetric) -> None:
    for name, (higher, description) in METRICS.items():
        register(
            name,
            f"seebench.suites.copilot.repo_generate.metrics:{name}",
            inputs="scores",
            scorer="copilot_repo_generate",
            task_types=("copilot_repo_generate",),
            higher_is_better=higher,
            description=description,
        )
