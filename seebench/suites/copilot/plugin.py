"""The Copilot scenarios suite as one plugin (doc, fix, generate, test; see
:mod:`seebench.suites.copilot`). Disabling this plugin (``SEEBENCH_DISABLE_PLUGINS=copilot``)
removes the suite as a whole.

Each scenario subpackage has its own ``plugin`` module with ``@hookimpl`` functions; this
plugin declares them as sub-plugins (:data:`SEEBENCH_SUBPLUGINS`), which the plugin manager
registers right after it (named ``seebench.builtin.copilot.<scenario>``) and disables with
it, so a scenario is added by listing it in :data:`SCENARIOS` and a misspelt hook name in a
scenario is caught like anywhere else. Registration imports nothing heavy.
"""

from __future__ import annotations

from pathlib import Path

from seebench.hookspecs import (
    RegisterMethod,
    RegisterModel,
    RegisterSuite,
    RegisterTaskDir,
    hookimpl,
)
from seebench.tasks.configs import task_config_dir
from seebench.tasks.yaml_loader import safe_load

#: the suite's task groups (by scenario, and by language weighted by test size)
GROUPS_FILE = Path(__file__).with_name("groups.yaml")

#: the scenario subpackages of ``seebench.suites.copilot``, in registration order
SCENARIOS: tuple[str, ...] = (
    "doc",
    "fix",
    "generate",
    "testgen",
    "repos",
    "repo_generate",
    "repo_testgen",
    "repo_fix",
    "workspace",
)

#: the scenarios' plugin modules, registered by the plugin manager after this one
SEEBENCH_SUBPLUGINS: tuple[str, ...] = tuple(
    f"seebench.suites.copilot.{name}.plugin" for name in SCENARIOS
)


@hookimpl
def register_suites(register: RegisterSuite) -> None:
    register(
        "copilot",
        description="Copilot scenarios (doc, fix, generate, test) judged by parsers, "
        "analyzers and tests in the sandbox.",
        task_families={},
        task_groups=safe_load(GROUPS_FILE.read_text(encoding="utf-8")),
    )
    register(
        "copilot_repo",
        description="Copilot scenarios inside real repositories: generate, test and fix judged "
        "by each repository's own test suite and analyzers, and workspace retrieval.",
        task_families={},
    )


@hookimpl
def register_task_dirs(register: RegisterTaskDir) -> None:
    register(task_config_dir("copilot"), suite="copilot")
    register(task_config_dir("copilot_repo"), suite="copilot_repo")


@hookimpl
def register_methods(register: RegisterMethod) -> None:
    for rule in ("null", "oracle"):
        register(
            rule,
            f"seebench.suites.copilot.scenario:{rule}_method",
            description=f"Answer each Copilot scenario item with its {rule} answer.",
            options={},
        )


@hookimpl
def register_models(register: RegisterModel) -> None:
    from seebench.suites.copilot.scenario import REFERENCE_RULES

    for rule, what in REFERENCE_RULES.items():
        register(
            rule,
            "seebench.suites.copilot.scenario:resolve_rule",
            description=f"Copilot scenarios' {rule} rule: {what} (not a language model).",
            default_method=rule,
        )
