"""The ``loglik`` method: rank a task's closed label set by the model's own log-likelihoods.

Every label's verbaliser (its name, or ``-o verbalisers={label: text}``, also settable in the
task's ``methods: loglik:`` block) is scored as the continuation of the prompt prompting
would send (the SELU template, zero- or k-shot, the chat template on or off as for
prompting). A single-label task (binary, multiclass) takes the best label; a label-set task
asks one yes/no question per label; a type that asks its own choice questions (the
annotation suite's rating scales) takes the best answer on its scale. Nothing is parsed, so no answer is ever invalid (an item
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

from typing import Any

from seebench.errors import SeebenchError
from seebench.methods.base import ChoiceQuestion, MethodOutput, Prediction, RunContext
from seebench.methods.loglik.decide import (
    SCORINGS,
    chosen_probability,
    decide_label,
    decide_label_set,
    expected_calibration_error,
    softmax,
)
from seebench.methods.loglik.questions import (
    YES_NO,
    asks_choices,
    content_free,
    label_set_requests,
    questions,
    shots_of,
    verbalisers,
)
from seebench.methods.loglik.redecide import metric_values
from seebench.models import ModelRef, chat_problem
from seebench.models.client import COMMON_OPTIONS, backend_options
from seebench.models.template import build_prompt, build_prompts
from seebench.tasks.spec import TaskSpec
from seebench.tasks.types import LABEL, LABEL_SET

LOGLIK_OPTIONS: dict[str, dict[str, Any]] = {
    "shots": {"type": "integer", "minimum": 0, "description": "an integer >= 0"},
    "fewshot_as_multiturn": {"type": "boolean", "description": "true or false"},
    "verbalisers": {
        "type": "object",
        "additionalProperties": {"type": "string", "minLength": 1},
        "description": "a mapping answer -> the text scored for it (default: the label's "
        "name, a scale point's value)",
    },
    "decide": {"enum": list(SCORINGS), "description": "raw, norm or calibrated"},
    "calibrate": {
        "type": "boolean",
        "description": "true or false (measure the label prior on a content-free input)",
    },
}
Values = dict[str, Any]
PerSample = tuple[Values | None, str | None, bool]


class LoglikMethod:
    """Score each answer as the prompt's continuation; predict the most likely one."""

    name = "loglik"

    @staticmethod
    def option_schema(model: ModelRef) -> dict[str, Any]:
        return {**LOGLIK_OPTIONS, **COMMON_OPTIONS, **backend_options(model)}

    def not_applicable(self, task: TaskSpec, model: ModelRef) -> str | None:
        own = asks_choices(task)
        if own is not None:
            problem = own.choices_not_applicable(task)
            if problem is not None:
                return problem
        elif task.target_kind not in (LABEL, LABEL_SET) or not task.labels:
            return f"loglik needs a closed label set; {task.type} tasks have none"
        return chat_problem(model, verb="score log-likelihoods")

    def run(self, context: RunContext) -> MethodOutput:
        by = str(context.options.get("decide", "raw"))
        if by == "calibrated" and not context.options.get("calibrate"):
            raise SeebenchError("-o decide=calibrated needs -o calibrate=true")
        if context.task.target_kind == LABEL_SET and asks_choices(context.task) is None:
            return _run_label_set(context, by)
        return _run_choices(context, by)


def _run_choices(context: RunContext, by: str) -> MethodOutput:
    """One answer per sample: the best of its question's answers."""
    asked = questions(context)
    scored = _score(context, asked.questions)
    priors = _choice_prior(context) if context.options.get("calibrate") else None
    per_sample: list[PerSample] = [
        (None if rows is None else dict(zip(q.keys, rows, strict=True)), error, cached)
        for q, (rows, error, cached) in zip(asked.questions, scored, strict=True)
    ]
    predictions = []
    for question, row in zip(asked.questions, per_sample, strict=True):
        predictions.append(_choice_prediction(question, row, by, priors))
        context.advance(1)
    chosen = [p.prediction for p in predictions]
    summary = _summary(context, _redecided(asked.questions, per_sample, priors), by, priors)
    summary.update(_calibration(asked.questions, per_sample, chosen))
    info = {"shots": shots_of(context), "loglik": summary, **asked.info}
    return MethodOutput(predictions, {**info, **context.client.info()})


def _score(context: RunContext, asked: list[ChoiceQuestion]) -> list[Any]:
    return context.client.loglikelihood(
        [q.prompt for q in asked], [list(q.verbalisers) for q in asked]
    )


def _choice_prior(context: RunContext) -> dict[str, float]:
    """Each answer's probability on a content-free input."""
    question = content_free(context)
    ((rows, _, _),) = _score(context, [question])
    if rows is None:
        raise SeebenchError(
            f"task {context.task.name!r}: the content-free input could not be scored"
        )
    return softmax({key: r["logprob"] for key, r in zip(question.keys, rows, strict=True)})


def _answer(question: ChoiceQuestion, values: Values, by: str, priors: Any) -> Any:
    key = decide_label(values, question.keys, by, priors)
    return question.answers[question.keys.index(key)]


def _choice_prediction(
    question: ChoiceQuestion, row: PerSample, by: str, priors: Any
) -> Prediction:
    values, error, cached = row
    extra: dict[str, Any] = {"cached": cached, "prompt": list(question.prompt.messages)}
    extra.update(question.extra)
    if values is None:
        return Prediction(question.sample_id, None, error=error or "not scored", extra=extra)
    extra["loglik"] = values
    if list(question.keys) != list(question.answers):
        extra["answers"] = dict(zip(question.keys, question.answers, strict=True))
    decided = {s: _answer(question, values, s, priors) for s in _scorings(priors)}
    extra["decisions"] = decided
    key = question.keys[question.answers.index(decided[by])]
    return Prediction(
        question.sample_id,
        decided[by],
        raw=str(decided[by]),
        confidence=chosen_probability(values, key),
        extra=extra,
        shots=tuple(question.prompt.shot_ids),
    )


def _redecided(
    asked: list[ChoiceQuestion], per_sample: list[PerSample], priors: Any
) -> dict[str, list[Any]]:
    """Every scoring's predictions (``None`` where a sample was not scored)."""
    return {
        scoring: [
            None if values is None else _answer(q, values, scoring, priors)
            for q, (values, _, _) in zip(asked, per_sample, strict=True)
        ]
        for scoring in _scorings(priors)
    }


def _calibration(
    asked: list[ChoiceQuestion], per_sample: list[PerSample], chosen: list[Any]
) -> dict[str, Any]:
    """ECE and the reliability bins of the chosen answer's probability, over the samples with
    an answer counted right."""
    confidences, correct = [], []
    for q, (values, _, _), answer in zip(asked, per_sample, chosen, strict=True):
        if values is not None and q.correct is not None:
            key = q.keys[q.answers.index(answer)]
            confidences.append(chosen_probability(values, key))
            correct.append(answer == q.correct)
    ece, bins = expected_calibration_error(confidences, correct)
    return {"ece": ece, "reliability": bins}


def _run_label_set(context: RunContext, by: str) -> MethodOutput:
    """A yes/no question per label; the labels whose ``yes`` wins."""
    task, data, options = context.task, context.data, context.options
    k = shots_of(context)
    multiturn = bool(options.get("fewshot_as_multiturn", False))
    prompts = build_prompts(task, data, k, context.seed, multiturn)
    words = verbalisers(task, options)
    requests, choices = label_set_requests(task, prompts, words)
    scored = context.client.loglikelihood(requests, choices)
    priors = _label_set_priors(context, words) if options.get("calibrate") else None
    per_sample = _per_label(task, len(prompts), scored)
    predictions = []
    for sample, prompt, (values, error, cached) in zip(data.test, prompts, per_sample, strict=True):
        extra: dict[str, Any] = {"cached": cached, "prompt": list(prompt.messages)}
        if values is None:
            predictions.append(
                Prediction(sample.id, None, error=error or "not scored", extra=extra)
            )
        else:
            decided = {
                s: decide_label_set(values, task.label_names, s, priors) for s in _scorings(priors)
            }
            extra.update(loglik=values, decisions=decided)
            predictions.append(
                Prediction(
                    sample.id,
                    decided[by],
                    raw=str(decided[by]),
                    extra=extra,
                    shots=tuple(prompt.shot_ids),
                )
            )
        context.advance(1)
    redecided = {
        s: [
            None if v is None else decide_label_set(v, task.label_names, s, priors)
            for v, _, _ in per_sample
        ]
        for s in _scorings(priors)
    }
    info = {"shots": k, "loglik": _summary(context, redecided, by, priors)}
    return MethodOutput(predictions, {**info, **context.client.info()})


def _per_label(task: TaskSpec, count: int, scored: list[Any]) -> list[PerSample]:
    """Per test sample: ``{label: {yes, no}}``, the first error, cached."""
    labels = task.label_names
    out: list[PerSample] = []
    for number in range(count):
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


def _label_set_priors(context: RunContext, words: dict[str, str]) -> dict[str, Any]:
    """Each label's yes/no probabilities on a content-free input."""
    from dataclasses import replace

    from seebench.methods.loglik.questions import CONTENT_FREE

    task = context.task
    sample = replace(context.data.test[0], id="content-free", input=CONTENT_FREE)
    requests, choices = label_set_requests(task, [build_prompt(task, sample)], words)
    scored = context.client.loglikelihood(requests, choices)
    if any(rows is None for rows, _, _ in scored):
        raise SeebenchError(f"task {task.name!r}: the content-free input could not be scored")
    return {
        label: softmax({answer: r["logprob"] for answer, r in zip(YES_NO, rows, strict=True)})
        for label, (rows, _, _) in zip(task.label_names, scored, strict=True)
    }


def _scorings(priors: Any) -> tuple[str, ...]:
    return SCORINGS if priors is not None else ("raw", "norm")


def _summary(
    context: RunContext, redecided: dict[str, list[Any]], by: str, priors: Any
) -> dict[str, Any]:
    """Every scoring's metrics (the task's) and the prior."""
    golds = [s.target for s in context.data.test]
    summary: dict[str, Any] = {"decide": by, "scorings": {}}
    if priors is not None:
        summary["prior"] = priors
    for scoring, predicted in redecided.items():
        summary["scorings"][scoring] = metric_values(
            context.registry, context.task, golds, predicted
        )
    return summary
