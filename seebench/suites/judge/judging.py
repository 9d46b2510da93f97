"""LLM judges as plain functions over a chat callable: vanilla, pairwise, G-Eval, BatchEval.

``chat(messages, *, max_tokens, temperature, seed, logprobs=False)`` returns a reply with
``text`` and ``logprobs`` (the model client's ``chat``). Every judgment keeps the raw replies,
the parsed value, the rule that fired (or why nothing did) and the sampling parameters. A reply
that does not parse, or parses outside the scale, is unscored (``value is None``), never a
minimum or a -1. Exceptions from ``chat`` are not caught here: the calling method records them
per sample, so one failing call never stops a run.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from seebench.errors import SeebenchError
from seebench.suites.judge import batching, prompts
from seebench.suites.judge.parsing import parse_batch_scores, parse_score, parse_verdict
from seebench.suites.judge.prompts import JudgeItem, JudgeTaskKind

Chat = Callable[..., Any]
GEVAL_MODES = ("sample_mean", "logprob_weighted")


class JudgeConfigError(SeebenchError):
    """A judge cannot run as configured (e.g. log-probabilities from a backend without them)."""


@dataclass
class Judgment:
    """One judgment: the score (``None`` = unscored), how it was read, and the raw replies."""

    value: float | None
    rule: str | None
    reason: str | None
    raw: list[str]
    sampling: dict[str, Any]
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def scored(self) -> bool:
        return self.value is not None

    def as_dict(self) -> dict[str, Any]:
        return {
            "value": self.value,
            "rule": self.rule,
            "reason": self.reason,
            "raw": self.raw,
            "sampling": self.sampling,
            **self.extra,
        }


def messages_for(prompt: str) -> list[dict[str, str]]:
    """The chat messages of one judge prompt (seebench's system prompt, then the prompt)."""
    return [
        {"role": "system", "content": prompts.SYSTEM_PROMPT},
        {"role": "user", "content": prompt},
    ]


def _ask(chat: Chat, prompt: str, sampling: dict[str, Any], **extra: Any) -> Any:
    return chat(messages_for(prompt), **sampling, **extra)


def judge_vanilla(
    chat: Chat,
    kind: JudgeTaskKind,
    item: JudgeItem,
    *,
    scale: int = 5,
    max_tokens: int = 768,
    temperature: float = 0.0,
    seed: int = 0,
) -> Judgment:
    """Rubric scoring with ``Overall: X/<scale>``."""
    sampling = {"max_tokens": max_tokens, "temperature": temperature, "seed": seed}
    reply = _ask(chat, prompts.vanilla_prompt(kind, item, scale=scale), sampling)
    parsed = parse_score(reply.text, (1.0, float(scale)))
    return Judgment(parsed.value, parsed.rule, parsed.reason, [reply.text], sampling)


def judge_pairwise(
    chat: Chat,
    kind: JudgeTaskKind,
    item: JudgeItem,
    first: str,
    second: str,
    *,
    max_tokens: int = 768,
    temperature: float = 0.0,
    seed: int = 0,
) -> Judgment:
    """Compare two responses in both orders; the value is 1 (first better), -1 or 0 (tie).

    A verdict that flips with the order (the same position wins both times) becomes a tie and
    is flagged ``position_biased``; if either order is unscored the judgment is unscored.
    """
    sampling = {"max_tokens": max_tokens, "temperature": temperature, "seed": seed}
    forward = _ask(chat, prompts.pairwise_prompt(kind, item, first, second), sampling)
    backward = _ask(chat, prompts.pairwise_prompt(kind, item, second, first), sampling)
    ab, ba = parse_verdict(forward.text), parse_verdict(backward.text)
    extra = {
        "verdict_in_order": ab.value,
        "verdict_swapped": ba.value,
        "rules": [ab.rule, ba.rule],
        "position_biased": None,
    }
    if ab.value is None or ba.value is None:
        reason = "; ".join(
            f"{label}: {v.reason}" for label, v in (("in order", ab), ("swapped", ba)) if v.reason
        )
        return Judgment(None, None, reason, [forward.text, backward.text], sampling, extra)
    consistent = ab.value == -ba.value
    extra["position_biased"] = ab.value == ba.value != 0
    value = float(ab.value) if consistent else 0.0
    rule = "both_orders" if consistent else "orders_disagree_tie"
    return Judgment(value, rule, None, [forward.text, backward.text], sampling, extra)


def geval_steps(
    chat: Chat, kind: JudgeTaskKind, item: JudgeItem, *, max_tokens: int = 400, seed: int = 0
) -> str:
    """G-Eval's evaluation steps for a kind of task, generated once (greedy) and reused."""
    sampling = {"max_tokens": max_tokens, "temperature": 0.0, "seed": seed}
    reply = _ask(chat, prompts.geval_steps_prompt(kind, item), sampling)
    if not reply.text or not reply.text.strip():
        raise JudgeConfigError("G-Eval: the model returned no evaluation steps")
    return reply.text.strip()


def judge_geval(
    chat: Chat,
    kind: JudgeTaskKind,
    item: JudgeItem,
    steps: str,
    *,
    mode: str = "sample_mean",
    samples: int = 10,
    temperature: float = 1.0,
    max_tokens: int = 16,
    seed: int = 0,
) -> Judgment:
    """G-Eval's grade: the mean of ``samples`` sampled grades (``sample_mean``, the study's
    setting) or the probability-weighted grade of one greedy answer (``logprob_weighted``)."""
    if mode not in GEVAL_MODES:
        raise JudgeConfigError(f"G-Eval: unknown score_mode {mode!r} ({' or '.join(GEVAL_MODES)})")
    prompt = prompts.geval_score_prompt(kind, item, steps)
    if mode == "logprob_weighted":
        sampling = {"max_tokens": max_tokens, "temperature": 0.0, "seed": seed, "mode": mode}
        reply = _ask(chat, prompt, _without_mode(sampling), logprobs=True)
        if reply.logprobs is None:
            raise JudgeConfigError(
                "G-Eval score_mode logprob_weighted needs log-probabilities, which this model "
                "backend does not return (use score_mode: sample_mean)"
            )
        alternatives = grade_token_alternatives(reply.logprobs)
        value = prompts.weighted_score(alternatives) if alternatives else None
        reason = None if value is not None else "no grade token among the log-probabilities"
        rule = "logprob_weighted" if value is not None else None
        return Judgment(value, rule, reason, [reply.text], sampling, {"top_logprobs": alternatives})
    sampling = {"max_tokens": max_tokens, "temperature": temperature, "samples": samples}
    texts: list[str] = []
    grades: list[float] = []
    for index in range(samples):
        reply = _ask(chat, prompt, {**_without_mode(sampling), "seed": seed + index})
        texts.append(reply.text)
        parsed = parse_score(reply.text)
        if parsed.value is not None:
            grades.append(parsed.value)
    sampling["seed"] = seed
    extra = {"grades": grades, "unscored_samples": samples - len(grades)}
    if not grades:
        return Judgment(None, None, "no sample gave a readable grade", texts, sampling, extra)
    return Judgment(sum(grades) / len(grades), "sample_mean", None, texts, sampling, extra)


def _without_mode(sampling: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in sampling.items() if k not in ("mode", "samples")}


def grade_token_alternatives(logprobs: Sequence[Any]) -> dict[str, float]:
    """The top alternatives at the first answer token that is a grade digit.

    Accepts OpenAI-style entries (``{"token", "logprob", "top_logprobs": [{"token",
    "logprob"}]}``) as dicts or objects, or entries that are already ``{token: logprob}``.
    """
    for entry in logprobs:
        token = _field(entry, "token")
        if token is None or not str(token).strip().isdigit():
            continue
        top = _field(entry, "top_logprobs") or []
        if isinstance(top, dict):
            return {str(k): float(v) for k, v in top.items()}
        alternatives = {str(_field(t, "token")): float(_field(t, "logprob")) for t in top}
        return alternatives or {str(token): float(_field(entry, "logprob"))}
    return {}


def _field(entry: Any, name: str) -> Any:
    return entry.get(name) if isinstance(entry, dict) else getattr(entry, name, None)


def judge_batcheval(
    chat: Chat,
    kind: JudgeTaskKind,
    items: Sequence[JudgeItem],
    *,
    rounds: int = batching.ROUNDS,
    batch_size: int = batching.BATCH_SIZE,
    max_tokens: int = 2048,
    temperature: float = 0.2,
    seed: int = 0,
) -> list[Judgment]:
    """BatchEval over all ``items``: ``rounds`` rounds of batches, re-sorted between rounds;
    each item's value is the mean of its scored rounds."""
    sampling = {"max_tokens": max_tokens, "temperature": temperature, "seed": seed}
    grades: list[list[float | None]] = [[] for _ in items]
    raw: list[list[str]] = [[] for _ in items]
    reasons: list[list[str]] = [[] for _ in items]
    for round_index in range(rounds):
        batches = batching.schedule_round(
            grades, batch_size=batch_size, round_index=round_index, seed=seed
        )
        for batch in batches:
            reply = _ask(chat, prompts.batcheval_prompt(kind, [items[i] for i in batch]), sampling)
            for position, parsed in zip(
                batch, parse_batch_scores(reply.text, len(batch)), strict=True
            ):
                grades[position].append(parsed.value)
                raw[position].append(reply.text)
                if parsed.reason:
                    reasons[position].append(f"round {round_index + 1}: {parsed.reason}")
    finals = batching.final_scores(grades)
    return [
        Judgment(
            value,
            "batch_mean" if value is not None else None,
            None if value is not None else "; ".join(reasons[i]) or "no round scored it",
            raw[i],
            {**sampling, "rounds": rounds, "batch_size": batch_size},
            {"round_grades": grades[i]},
        )
        for i, value in enumerate(finals)
    ]
