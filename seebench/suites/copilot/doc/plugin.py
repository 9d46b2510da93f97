"""What the doc scenario registers (a sub-plugin of :mod:`seebench.suites.copilot.plugin`): the
``copilot_doc`` task type, the ``copilot_doc`` scorer, the ``doc_*_rate`` metrics and the
``copilot_doc`` data reader. Nothing heavy is imported here."""

from __future__ import annotations

from seebench.hookspecs import (
    RegisterFunction,
    RegisterMetric,
    RegisterScorer,
    RegisterTaskType,
    hookimpl,
)
from seebench.suites.copilot.doc.metrics import CHECK_METRICS
from seebench.suites.copilot.languages import GRAMMARS

LANGUAGES = sorted(set(GRAMMARS) - {"tsx"})
TYPE_SCHEMA = {
    "properties": {
        "language": {
            "enum": LANGUAGES,
            "description": "the language of the task's cases (answers are parsed as it)",
        }
    },
    "required": ["language"],
}


@hookimpl
def register_task_types(register: RegisterTaskType) -> None:
    register(
        "copilot_doc",
        "seebench.suites.copilot.doc.types:DocType",
        description="Document one function of a real file (Copilot harness doc scenario): "
        "the answer is the function with a doc comment, judged inside the whole file.",
        schema=TYPE_SCHEMA,
    )


@hookimpl
def register_scorers(register: RegisterScorer) -> None:
    from seebench.suites.copilot.doc.options import OPTIONS

    register(
        "copilot_doc",
        "seebench.suites.copilot.doc.scorer:DocScorer",
        description="Insert the documented function into its file; tree-sitter checks syntax "
        "and the doc comment's place, description, parameters, return and unchanged code.",
        options=OPTIONS,
    )


@hookimpl
def register_metrics(register: RegisterMetric) -> None:
    for name, (_, what) in CHECK_METRICS.items():
        register(
            name,
            f"seebench.suites.copilot.doc.metrics:{name}",
            inputs="scores",
            scorer="copilot_doc",
            task_types=("copilot_doc",),
            description=f"Share of scored doc answers where {what}.",
        )


@hookimpl
def register_data_readers(register: RegisterFunction) -> None:
    register(
        "copilot_doc",
        "seebench.suites.copilot.doc.cases:read_doc_cases",
        description="Copilot harness doc cases (a file set of case JSONs and their source "
        "files); option language: keep one language's cases.",
    )
