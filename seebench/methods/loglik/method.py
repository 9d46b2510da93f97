"""The ``loglik`` method: rank a task's closed label set by the model's own log-likelihoods.

Every label's verbaliser (its name, or ``-o verbalisers={label: text}``, also settable in the
task's ``methods: loglik:`` block) is scored as the continuation of the prompt prompting
would send (the SELU template, zero- or k-shot, the chat template on or off as for
prompting). A single-label task (binary, multiclass) takes the best label; a label-set task
asks one yes/no question per label. Nothing is parsed, so no answer is ever invalid (an item
the backend could not score is, with the reason).

The primary decision is ``raw`` (lm-eval's ``acc``) for every task type: the options of a
single-label task are scored in the same context, and a label set's options are ``yes`` and
``no``, of similar length. ``norm`` (per character, lm-eval's ``acc_norm``) and, with
``-o calibrate=true``, ``calibrated`` (Zhao et al. 2021) are reported beside it in
``info.loglik`` and can be made primary with ``-o decide=norm``; every option's
log-likelihood is in the samples file, so ``seebench loglik decide`` re-decides any saved
result without the model.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from seebench.errors import SeebenchError
from seebench.methods.base import MethodOutput, Prediction, RunContext
from seebench.methods.loglik.decide import (
    SCORINGS,
    chosen_probability,
    decide_label,
    decide_label_set,
    expected_calibration_error,
    softmax,
)
from seebench.models import ModelRef, chat_problem
from seebench.models.client import COMMON_OPTIONS, backend_options
from seebench.models.template import Prompt, build_prompt, build_prompts
from seebench.tasks.spec import TaskSpec
from seebench.tasks.types import LABEL, LABEL_SET

CONTENT_FREE = "N/A"  # the content-free input of contextual calibration
YES_NO = ("yes", "no")

LOGLIK_OPTIONS: dict[str, dict[str, Any]] = {
    "shots": {"type": "integer", "minimum": 0, "description": "an integer >= 0"},
    "fewshot_as_multiturn": {"type": "boolean", "description": "true or false"},
    "verbalisers": {
        "type": "object",
        "additionalProperties": {"type": "string", "minLength": 1},
        "description": "a mapping label -> the text scored for it (default: the label's name)",
    },
    "decide": {"enum": list(SCORINGS), "description": "raw, norm or calibrated"},
    "calibrate": {
        "type": "boolean",
        "description": "true or false (measure the label prior on a content-free input)",
    },
}


def verbalisers(task: TaskSpec, options: dict[str, Any]) -> dict[str, str]:
    """Each label's verbaliser: its name unless ``verbalisers`` says otherwise."""
    given = dict(options.get("verbalisers") or {})
    unknown = sorted(set(given) - set(task.label_names))
    if unknown:
        raise SeebenchError(
            f"task {task.name!r}: verbalisers name unknown label(s) {unknown}; "
            f"labels: {task.label_names}"
        )
    return {name: str(given.get(name, name)) for name in task.label_names}


def yes_no_prompt(task: TaskSpec, prompt: Prompt, label: str) -> Prompt:
    """``prompt`` asking whether one label applies (its answer cue replaced)."""
    from seebench.models.template import answer_name

    messages = [dict(m) for m in prompt.messages]
    content = messages[-1]["content"]
    cue = f"\n{answer_name(task)}:"
    if content.endswith(cue):
        content = content[: -len(cue)]
    messages[-1]["content"] = (
        f"{content}\nDoes the label {label!r} apply? Answer yes or no.\nAnswer:"
    )
    return Prompt(f"{prompt.sample_id}#{label}", tuple(messages), prompt.shot_ids)


class LoglikMethod:
    """Score each label as the prompt's continuation; predict the most likely one."""

    name = "loglik"

    @staticmethod
    def option_schema(model: ModelRef) -> dict[str, Any]:
        return {**LOGLIK_OPTIONS, **COMMON_OPTIONS, **backend_options(model)}

    def not_applicable(self, task: TaskSpec, model: ModelRef) -> str | None:
        if task.target_kind not in (LABEL, LABEL_SET) or not task.labels:
            return f"loglik needs a closed label set; {task.type} tasks have none"
        return chat_problem(model, verb="score log-likelihoods")

    def run(self, context: RunContext) -> MethodOutput:
        task, data, options = context.task, context.data, context.options
        k = int(options.get("shots", 0))
        multiturn = bool(options.get("fewshot_as_multiturn", False))
        prompts = build_prompts(task, data, k, context.seed, multiturn)
        words = verbalisers(task, options)
        multi = task.target_kind == LABEL_SET
        requests, choices = _requests(task, prompts, words, multi)
        scored = context.client.loglikelihood(requests, choices)
        priors = _priors(context, words, multi) if options.get("calibrate") else None
        by = str(options.get("decide", "raw"))
        if by == "calibrated" and priors is None:
            raise SeebenchError("-o decide=calibrated needs -o calibrate=true")
        per_sample = _per_sample(task, prompts, scored, words, multi)
        predictions = []
        for sample, prompt, (values, error, cached) in zip(
            data.test, prompts, per_sample, strict=True
        ):
            predictions.append(
                _prediction(task, sample.id, prompt, values, error, cached, by, priors)
            )
            context.advance(1)
        info = {
            "shots": k,
            "loglik": _summary(context, data.test, per_sample, by, priors),
            **context.client.info(),
        }
        return MethodOutput(predictions, info)


def _requests(
    task: TaskSpec, prompts: list[Prompt], words: dict[str, str], multi: bool
) -> tuple[list[Prompt], list[list[str]]]:
    if not multi:
        return prompts, [list(words.values()) for _ in prompts]
    requests = [yes_no_prompt(task, p, words[label]) for p in prompts for label in task.label_names]
    return requests, [list(YES_NO) for _ in requests]


def _per_sample(
    task: TaskSpec,
    prompts: list[Prompt],
    scored: list[Any],
    words: dict[str, str],
    multi: bool,
) -> list[tuple[dict[str, Any] | None, str | None, bool]]:
    """Per test sample: ``{label: option}`` (or ``{label: {yes, no}}``), error, cached."""
    labels = task.label_names
    if not multi:
        return [
            (None if rows is None else dict(zip(labels, rows, strict=True)), error, cached)
            for rows, error, cached in scored
        ]
    out: list[tuple[dict[str, Any] | None, str | None, bool]] = []
    for number in range(len(prompts)):
        chunk = scored[number * len(labels) : (number + 1) * len(labels)]
        errors = [e for _, e, _ in chunk if e]
        if errors:
            out.append((None, errors[0], False))
            continue
        values = {
            label: dict(zip(YES_NO, rows, strict=True))
            for label, (rows, _, _) in zip(labels, chunk, strict=True)
        }
        out.append((values, None, all(c for _, _, c in chunk)))
    return out


def _decide(task: TaskSpec, values: dict[str, Any], by: str, priors: Any) -> Any:
    if task.target_kind == LABEL_SET:
        return decide_label_set(values, task.label_names, by, priors)
    return decide_label(values, task.label_names, by, priors)


def _prediction(
    task: TaskSpec,
    sample_id: str,
    prompt: Prompt,
    values: dict[str, Any] | None,
    error: str | None,
    cached: bool,
    by: str,
    priors: Any,
) -> Prediction:
    extra: dict[str, Any] = {"cached": cached, "prompt": list(prompt.messages)}
    if values is None:
        return Prediction(sample_id, None, error=error or "not scored", extra=extra)
    extra["loglik"] = values
    decided = {scoring: _decide(task, values, scoring, priors) for scoring in _scorings(priors)}
    extra["decisions"] = decided
    confidence = None
    if task.target_kind == LABEL:
        confidence = chosen_probability(values, decided[by])
    return Prediction(
        sample_id,
        decided[by],
        raw=str(decided[by]),
        confidence=confidence,
        extra=extra,
        shots=tuple(prompt.shot_ids),
    )


def _scorings(priors: Any) -> tuple[str, ...]:
    return SCORINGS if priors is not None else ("raw", "norm")


def _priors(context: RunContext, words: dict[str, str], multi: bool) -> dict[str, Any]:
    """Each option's probability on a content-free input (the first test item's shots)."""
    task, data = context.task, context.data
    sample = replace(data.test[0], id="content-free", input=CONTENT_FREE)
    prompt = build_prompt(task, sample)
    requests, choices = _requests(task, [prompt], words, multi)
    scored = context.client.loglikelihood(requests, choices)
    if any(rows is None for rows, _, _ in scored):
        raise SeebenchError(f"task {task.name!r}: the content-free input could not be scored")
    if not multi:
        rows = scored[0][0]
        return softmax(
            {label: r["logprob"] for label, r in zip(task.label_names, rows, strict=True)}
        )
    return {
        label: softmax({answer: r["logprob"] for answer, r in zip(YES_NO, rows, strict=True)})
        for label, (rows, _, _) in zip(task.label_names, scored, strict=True)
    }


def _summary(
    context: RunContext,
    samples: list[Any],
    per_sample: list[tuple[dict[str, Any] | None, str | None, bool]],
    by: str,
    priors: Any,
) -> dict[str, Any]:
    """Every scoring's metrics (the task's), the primary one, ECE and reliability bins."""
    task = context.task
    golds = [s.target for s in samples]
    summary: dict[str, Any] = {"decide": by, "scorings": {}}
    if priors is not None:
        summary["prior"] = priors
    for scoring in _scorings(priors):
        predicted = [
            None if v is None else _decide(task, v, scoring, priors) for v, _, _ in per_sample
        ]
        summary["scorings"][scoring] = {
            name: context.metric(name)(golds, predicted, labels=task.label_names)
            for name in task.metrics
            if context.registry is not None and name in context.registry.metrics
        }
    if task.target_kind == LABEL:
        confidences, correct = [], []
        for gold, (values, _, _) in zip(golds, per_sample, strict=True):
            if values is not None:
                chosen = decide_label(values, task.label_names, by, priors)
                confidences.append(chosen_probability(values, chosen))
                correct.append(chosen == gold)
        ece, bins = expected_calibration_error(confidences, correct)
        summary["ece"], summary["reliability"] = ece, bins
    return summary
