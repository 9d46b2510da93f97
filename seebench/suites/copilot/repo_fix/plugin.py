"""The repository-level fix scenario's registrations, called by the ``copilot`` suite plugin
(a sub-plugin of :mod:`seebench.suites.copilot.plugin`). Nothing heavy is imported here."""

from __future__ import annotations

from seebench.hookspecs import (
    RegisterFunction,
    RegisterMethod,
    RegisterMetric,
    RegisterModel,
    RegisterScorer,
    RegisterTaskType,
    hookimpl,
)

#: metric name -> (higher is better, description)
METRICS = {
    "repo_fix_rate": (
        True,
        "Share of fixes that parse and strictly reduce the analyzer's warnings over the whole "
        "repository (the paper's rule at repository level).",
    ),
    "repo_fix_file_rate": (
        True,
        "Part 1's rule on the same edits: parses and strictly fewer warnings on the file alone.",
    ),
    "repo_fix_disagreement_rate": (
        False,
        "Share of edits on which the file-level and repository-level rules disagree.",
    ),
    "repo_fix_file_only_rate": (
        False,
        "Share of edits fixed on the file alone but not over the repository.",
    ),
    "repo_fix_repo_only_rate": (
        False,
        "Share of edits fixed over the repository but not on the file alone.",
    ),
    "repo_fix_target_rate": (
        True,
        "Among items whose warning the unchanged repository reports: share of fixes that "
        "parse and leave no warning of the case's rule at the target's place there.",
    ),
    "repo_fix_syntax_rate": (True, "Share of edited files that parse."),
    "repo_fix_new_warning_rate": (
        False,
        "Share of edits that bring a warning anywhere in the repository that was not there.",
    ),
    "repo_fix_suppressed_rate": (
        False,
        "Share of edits that add an analyzer directive (noqa, type: ignore, eslint-disable, "
        "@ts-ignore...) instead of fixing (verdict tampered, never a fix).",
    ),
    "repo_fix_reproduced_rate": (
        True,
        "Share of items whose warning is reported in the unchanged repository too.",
    ),
}


@hookimpl
def register_task_types(register: RegisterTaskType) -> None:
    register(
        "copilot_repo_fix",
        "seebench.suites.copilot.repo_fix.types:RepoFixType",
        description="Fix a static analyzer's warning in a file of a real repository; the "
        "analyzer over the whole repository judges, next to part 1's file-alone rule.",
    )


@hookimpl
def register_scorers(register: RegisterScorer) -> None:
    from seebench.suites.copilot.fix.options import OPTIONS  # part 1's scorer's options

    register(
        "copilot_repo_fix",
        "seebench.suites.copilot.repo_fix.scorer:RepoFixScorer",
        description="Analyse the repository with the edited file in the sandbox as the "
        "unchanged one: 1 when it parses and the repository has strictly fewer warnings; "
        "part 1's file-alone verdicts and the disagreement in metadata.",
        options=OPTIONS,
    )


@hookimpl
def register_metrics(register: RegisterMetric) -> None:
    for name, (higher, description) in METRICS.items():
        register(
            name,
            f"seebench.suites.copilot.repo_fix.metrics:{name}",
            inputs="scores",
            scorer="copilot_repo_fix",
            task_types=("copilot_repo_fix",),
            higher_is_better=higher,
            description=description,
        )


@hookimpl
def register_prepare_steps(register: RegisterFunction) -> None:
    register(
        "copilot_repo_fix_items",
        "seebench.suites.copilot.repo_fix.types:copilot_repo_fix_items",
        description="Part 1's reproducing fix cases (whole repositories only, from the "
        "copilot_repo_fix reader), with the repository's identity in each target.",
        schema={"type": "object", "additionalProperties": False, "properties": {}},
    )


@hookimpl
def register_data_readers(register: RegisterFunction) -> None:
    register(
        "copilot_repo_fix",
        "seebench.suites.copilot.repo_fix.types:read_repo_fix_cases",
        description="The Copilot harness's fix cases of one analyzer whose repository is "
        "staged as a whole tree, each with its file and its repository tar's checksum.",
    )


@hookimpl
def register_methods(register: RegisterMethod) -> None:
    from seebench.suites.copilot.repo_fix.reference import TASK_TYPES

    register(
        "comment_line",
        "seebench.suites.copilot.repo_fix.reference:comment_line_method",
        description="Comment out the flagged line (a naive rule-based fix; reference edits "
        "for the fix scenarios).",
        task_types=TASK_TYPES,
        options={},
    )


@hookimpl
def register_models(register: RegisterModel) -> None:
    register(
        "comment_line",
        "seebench.suites.copilot.repo_fix.reference:resolve",
        description="Fix scenarios' comment_line rule: the flagged line commented out (not a "
        "language model).",
        default_method="comment_line",
    )
