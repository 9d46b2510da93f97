"""The Copilot scenarios suite as one plugin (doc, fix, generate, test; see
:mod:`seebench.suites.copilot`). Disabling this plugin (``SEEBENCH_DISABLE_PLUGINS=copilot``)
removes the suite as a whole.

Each scenario subpackage has a ``registration`` module whose functions carry the names of the
hooks they feed (``register_task_types(register)``...); this plugin calls them in order, so a
scenario is added by listing it in :data:`SCENARIOS`. Registration imports nothing heavy.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from functools import cache
from importlib import resources
from pathlib import Path
from types import ModuleType

from seebench.hookspecs import hookimpl

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


@cache
def _registrations() -> tuple[ModuleType, ...]:
    return tuple(
        importlib.import_module(f"seebench.suites.copilot.{name}.registration")
        for name in SCENARIOS
    )


def _each(hook: str, register: Callable[..., None]) -> None:
    for module in _registrations():
        function = getattr(module, hook, None)
        if function is not None:
            function(register)


def suite_dir() -> Path:
    """The folder of the copilot suite package (task YAMLs in ``tasks/``)."""
    return Path(str(resources.files("seebench.suites.copilot")))


@hookimpl
def register_suites(register) -> None:
    register(
        "copilot",
        description="Copilot scenarios (doc, fix, generate, test) judged by parsers, "
        "analyzers and tests in the sandbox.",
        task_families={},
    )
    register(
        "copilot_repo",
        description="Copilot scenarios inside real repositories: generate, test and fix judged "
        "by each repository's own test suite and analyzers, and workspace retrieval.",
        task_families={},
    )


@hookimpl
def register_task_dirs(register) -> None:
    register(suite_dir() / "tasks", suite="copilot")
    register(suite_dir() / "repo_tasks", suite="copilot_repo")


@hookimpl
def register_task_types(register) -> None:
    _each("register_task_types", register)


@hookimpl
def register_scorers(register) -> None:
    _each("register_scorers", register)


@hookimpl
def register_metrics(register) -> None:
    _each("register_metrics", register)


@hookimpl
def register_prepare_steps(register) -> None:
    _each("register_prepare_steps", register)


@hookimpl
def register_data_readers(register) -> None:
    _each("register_data_readers", register)


@hookimpl
def register_methods(register) -> None:
    for rule in ("null", "oracle"):
        register(
            rule,
            f"seebench.suites.copilot.scenario:{rule}_method",
            description=f"Answer each Copilot scenario item with its {rule} answer.",
            options={},
        )
    _each("register_methods", register)


@hookimpl
def register_models(register) -> None:
    from seebench.suites.copilot.scenario import REFERENCE_RULES

    for rule, what in REFERENCE_RULES.items():
        register(
            rule,
            "seebench.suites.copilot.scenario:resolve_rule",
            description=f"Copilot scenarios' {rule} rule: {what} (not a language model).",
            default_method=rule,
        )
    _each("register_models", register)


@hookimpl
def register_commands(cli) -> None:
    _each("register_commands", cli)
