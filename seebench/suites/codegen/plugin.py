"""The codegen suite as one plugin: code generation judged by tests run in the sandbox
(HumanEval). Everything it needs lives in :mod:`seebench.suites.codegen`; disabling this
plugin (``SEEBENCH_DISABLE_PLUGINS=codegen``) removes the suite as a whole.

Registration imports nothing heavy: every object is given as a ``"module:name"`` reference.
"""

from __future__ import annotations

from seebench.hookspecs import (
    RegisterFunction,
    RegisterMethod,
    RegisterMetric,
    RegisterModel,
    RegisterScorer,
    RegisterSuite,
    RegisterTaskDir,
    RegisterTaskType,
    hookimpl,
)
from seebench.tasks.configs import task_config_dir
from seebench.tasks.types import CODE

CODE_TARGET_SCHEMA = {
    "type": "object",
    "additionalProperties": False,
    "properties": {
        "entry_point": {"type": "string"},
        "tests": {"type": "string"},
        "reference": {"type": ["string", "null"]},
        "column": {"type": "string"},
    },
}


@hookimpl
def register_task_types(register: RegisterTaskType) -> None:
    register(
        "code",
        "seebench.suites.codegen.types:CodeType",
        description="Code for the input, judged by running tests (target: entry point, tests, "
        "reference solution).",
    )


@hookimpl
def register_task_dirs(register: RegisterTaskDir) -> None:
    register(task_config_dir("codegen"), suite="codegen")


@hookimpl
def register_suites(register: RegisterSuite) -> None:
    register(
        "codegen",
        description="Code generation judged by running tests in the sandbox (HumanEval).",
        task_families={"humaneval": "code generation"},
    )


@hookimpl
def register_prepare_steps(register: RegisterFunction) -> None:
    register(
        "code_target",
        "seebench.suites.codegen.types:code_target",
        description="Pack a code task's entry point, tests and reference solution into its target.",
        schema=CODE_TARGET_SCHEMA,
    )


@hookimpl
def register_scorers(register: RegisterScorer) -> None:
    from seebench.scoring.python_tests import OPTIONS

    register(
        "python_tests",
        "seebench.scoring.python_tests:PythonTestsScorer",
        description="Run prompt + completion + the item's tests in the sandbox: 1 passed, "
        "0 failed, unscored without a sandbox (--unsafe-host-exec: rlimits only).",
        options=OPTIONS,
    )


@hookimpl
def register_metrics(register: RegisterMetric) -> None:
    register(
        "pass_rate",
        "seebench.suites.codegen.metrics:pass_rate",
        inputs="scores",
        description="Share of scored samples that passed their tests (unscored ones left out).",
    )


@hookimpl
def register_methods(register: RegisterMethod) -> None:
    register(
        "reference",
        "seebench.suites.codegen.reference:ReferenceMethod",
        description="Answer each item with its reference solution (checks a code task end to end).",
        target_kinds=(CODE,),
        options={},
    )


@hookimpl
def register_models(register: RegisterModel) -> None:
    register(
        "reference",
        "seebench.suites.codegen.reference:resolve_reference",
        description="The reference solutions of code tasks (a rule, not a language model).",
        default_method="reference",
    )
