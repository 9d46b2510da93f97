"""The annotation suite (Ahmed et al., MSR 2025) as one plugin: the ``ratings`` task type, its
data step, metrics, the ``annotate`` method and the ``seebench agreement`` command.

Tasks: ``task_configs/annotation/``; code: ``seebench/suites/annotation/``; docs:
``docs/tasks/annotation.md``. Registration imports nothing heavy.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from seebench.hookspecs import (
    RegisterFunction,
    RegisterMethod,
    RegisterMetric,
    RegisterSuite,
    RegisterTaskDir,
    RegisterTaskType,
    hookimpl,
)
from seebench.tasks.configs import task_config_dir

if TYPE_CHECKING:
    import click


@hookimpl
def register_task_dirs(register: RegisterTaskDir) -> None:
    register(task_config_dir("annotation"), suite="annotation")


@hookimpl
def register_suites(register: RegisterSuite) -> None:
    register(
        "annotation",
        description="Ten multi-rater annotation tasks: agreement of humans and models as raters "
        "(Ahmed et al., MSR 2025).",
    )


@hookimpl
def register_task_types(register: RegisterTaskType) -> None:
    from seebench.suites.annotation.task_type import RATINGS_TASK_SCHEMA

    register(
        "ratings",
        "seebench.suites.annotation.task_type:RatingsType",
        description="An item rated by several people on a declared scale and level of measurement.",
        schema=RATINGS_TASK_SCHEMA,
    )


@hookimpl
def register_prepare_steps(register: RegisterFunction) -> None:
    from seebench.suites.annotation.task_config import RATINGS_STEP_SCHEMA

    register(
        "annotation_ratings",
        "seebench.suites.annotation.rows:ratings_rows",
        description="Multi-rater sources (long, wide_form, sparse_wide, rater_slots or joined "
        "layout) to one row per item with its ratings, scale and level.",
        schema=RATINGS_STEP_SCHEMA,
    )


@hookimpl
def register_metrics(register: RegisterMetric) -> None:
    register(
        "alpha_human_model",
        "seebench.suites.annotation.metrics:alpha_human_model",
        description="Mean Krippendorff's alpha between the model and each human rater "
        "(the task's level of measurement).",
        task_types=("ratings",),
    )
    register(
        "majority_agreement",
        "seebench.suites.annotation.metrics:majority_agreement",
        description="Share of items with a human majority where the model gives that answer.",
        task_types=("ratings",),
    )


@hookimpl
def register_methods(register: RegisterMethod) -> None:
    register(
        "annotate",
        "seebench.suites.annotation.method:AnnotateMethod",
        description="The model rates each item as one more rater (one example per answer, "
        "confidence from logprobs).",
        task_types=("ratings",),
    )


@hookimpl
def register_commands(cli: click.Group) -> None:
    from seebench.suites.annotation.cli import agreement_command

    cli.add_command(agreement_command)
