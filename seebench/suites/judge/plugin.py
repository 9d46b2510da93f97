"""The LLM-as-judge suite (tasks: ``task_configs/judge/``; code: ``seebench.suites.judge``).

Registers the two judging task types, the step that joins the released files into items, the
agreement metrics, the judging methods and the ``sim:`` and ``released:`` models. Everything is
given as an import path, so loading the plugin imports nothing heavy.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from seebench.hookspecs import (
    RegisterFunction,
    RegisterMethod,
    RegisterMetric,
    RegisterModel,
    RegisterSuite,
    RegisterTaskDir,
    RegisterTaskType,
    hookimpl,
)
from seebench.suites.judge.options import JUDGE_OPTIONS
from seebench.tasks.configs import task_config_dir

if TYPE_CHECKING:
    import click

_TYPES = "seebench.suites.judge.types"
_METRICS = "seebench.suites.judge.metrics"
_RUNNERS = "seebench.suites.judge.runners"
SCORE = ("judged_score",)
PREFERENCE = ("judged_preference",)


@hookimpl
def register_task_dirs(register: RegisterTaskDir) -> None:
    register(task_config_dir("judge"), suite="judge")


@hookimpl
def register_suites(register: RegisterSuite) -> None:
    register(
        "judge",
        description="LLM-as-a-judge: six judging tasks (code translation, summarization, "
        "generation; scoring and pairwise comparison) with human grades (Wang et al., ISSTA 2025).",
    )


@hookimpl
def register_task_types(register: RegisterTaskType) -> None:
    register(
        "judged_score",
        f"{_TYPES}:JudgedScoreType",
        description="A judge scores a response; gold: the human score and the response's input.",
    )
    register(
        "judged_preference",
        f"{_TYPES}:JudgedPreferenceType",
        description="A judge compares two responses to one input; gold: the human score difference.",
    )


@hookimpl
def register_prepare_steps(register: RegisterFunction) -> None:
    register(
        "judge_join_released",
        "seebench.suites.judge.rows:join_released",
        description="Join the study's responses, human scores and released method scores into items.",
        schema={
            "required": ["variant"],
            "properties": {
                "variant": {"enum": ["scoring", "comparison"]},
                "responses": {"type": "string"},
                "human": {"type": "string"},
            },
        },
    )


_METRIC_DESCRIPTIONS = {
    "judge_pearson": (
        "Pearson's r of judge and human scores, pooled over scored items.",
        SCORE,
        True,
    ),
    "judge_spearman": (
        "Spearman's rho of judge and human scores, pooled over scored items.",
        SCORE,
        True,
    ),
    "judge_kendall": (
        "Kendall's tau-b of judge and human scores, pooled over scored items.",
        SCORE,
        True,
    ),
    "judge_pearson_per_input": (
        "Pearson's r within each input, averaged over inputs.",
        SCORE,
        True,
    ),
    "judge_spearman_per_input": (
        "Spearman's rho within each input, averaged over inputs.",
        SCORE,
        True,
    ),
    "judge_kendall_per_input": (
        "Kendall's tau-b within each input, averaged over inputs.",
        SCORE,
        True,
    ),
    "judge_unscored_rate": (
        "Share of unscored judgments (unreadable or out of scale).",
        SCORE + PREFERENCE,
        False,
    ),
    "preference_accuracy": ("Share of verdicts equal to the human preference.", PREFERENCE, True),
    "preference_accuracy_without_ties": (
        "Verdict accuracy on pairs the humans did not tie.",
        PREFERENCE,
        True,
    ),
    "position_consistency": (
        "Share of pairs whose two orders got opposite verdicts.",
        PREFERENCE,
        True,
    ),
    "position_bias_rate": (
        "Share of pairs where the same position won in both orders.",
        PREFERENCE,
        False,
    ),
}


@hookimpl
def register_metrics(register: RegisterMetric) -> None:
    for name, (description, types, higher) in _METRIC_DESCRIPTIONS.items():
        register(
            name,
            f"{_METRICS}:{name}",
            description=description,
            task_types=types,
            higher_is_better=higher,
        )


@hookimpl
def register_methods(register: RegisterMethod) -> None:
    register(
        "similarity",
        f"{_RUNNERS}:SimilarityMethod",
        task_types=SCORE,
        description="A reference-similarity metric (the sim:<metric> model) as the judge's score.",
        options={},  # takes none: an -o option is refused, never silently recorded
    )
    register(
        "released",
        f"{_RUNNERS}:ReleasedMethod",
        task_types=SCORE + PREFERENCE,
        description="Replay the study's released scores (the released:<method> model).",
        options={
            "as_released": {"type": "boolean", "description": "keep -1 and out-of-scale values"}
        },
    )
    tokens = JUDGE_OPTIONS["vanilla"]
    register(
        "vanilla",
        f"{_RUNNERS}:VanillaJudgeMethod",
        task_types=SCORE,
        options=tokens,
        description="LLM judge: rubric grade 1-5 ('Overall: X/5'); unreadable replies are unscored.",
    )
    register(
        "geval",
        f"{_RUNNERS}:GEvalJudgeMethod",
        task_types=SCORE,
        options=JUDGE_OPTIONS["geval"],
        description="LLM judge: G-Eval (generated evaluation steps; mean of n grades sampled "
        "at T=1, each with its own seed); unreadable samples are left out, all unreadable: "
        "unscored.",
    )
    register(
        "pairwise",
        f"{_RUNNERS}:PairwiseJudgeMethod",
        task_types=PREFERENCE,
        options=tokens,
        description="LLM judge: A/B/tie in both orders; a verdict that flips with the order is a tie.",
    )
    register(
        "batcheval",
        f"{_RUNNERS}:BatchEvalJudgeMethod",
        task_types=SCORE,
        options=JUDGE_OPTIONS["batcheval"],
        description="LLM judge: batches of 10 graded together over 5 re-sorted rounds.",
    )


@hookimpl
def register_models(register: RegisterModel) -> None:
    register(
        "sim:",
        f"{_RUNNERS}:resolve_similarity",
        prefix=True,
        default_method="similarity",
        description="A similarity metric as a judge: sim:bleu, sim:rouge_l, sim:meteor, sim:chrf_pp.",
    )
    register(
        "released:",
        f"{_RUNNERS}:resolve_released",
        prefix=True,
        default_method="released",
        description="The LLM-judge study's released scores of one method, e.g. released:gpt4o.",
    )


@hookimpl
def register_commands(cli: click.Group) -> None:
    from seebench.suites.judge.cli import judge_agreement_command

    cli.add_command(judge_agreement_command)
