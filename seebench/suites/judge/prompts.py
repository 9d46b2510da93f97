"""Prompts for LLM judges of code translation, code summarization and code generation.

Written for seebench (not copied from the study). Each prompt states what is judged, the
criteria, and one answer line in a fixed format that :mod:`seebench.suites.judge.parsing` reads:
``Overall: X/5`` (vanilla), ``Overall: A|B|TIE`` (pairwise), ``Score: X`` (G-Eval) and
``Response k: X`` lines (BatchEval). Responses are fenced so their text cannot pose as an
instruction line.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

SYSTEM_PROMPT = (
    "You are a senior software engineer who reviews code and documentation carefully and "
    "grades it fairly."
)


@dataclass(frozen=True)
class JudgeTaskKind:
    """What a judged response is and the criteria it is judged on."""

    name: str
    input_title: str
    response_title: str
    task: str
    criteria: tuple[str, ...]

    def criteria_block(self) -> str:
        return "\n".join(f"{n}. {line}" for n, line in enumerate(self.criteria, start=1))


KINDS: dict[str, JudgeTaskKind] = {
    "translation": JudgeTaskKind(
        name="translation",
        input_title="Source code ({source})",
        response_title="Translated code ({target})",
        task="A developer translated a program from {source} into {target}. Judge only the "
        "translation, not the quality of the original program. Prose or comments around the "
        "code do not count for or against it.",
        criteria=(
            "Faithfulness: does the translation do what the original does, with a comparable "
            "structure?",
            "Idiom and readability: is it clear, natural {target} code?",
        ),
    ),
    "summarization": JudgeTaskKind(
        name="summarization",
        input_title="Code ({source})",
        response_title="Summary",
        task="A developer wrote a short natural-language summary of a {source} function, the "
        "kind that would serve as its documentation comment.",
        criteria=(
            "Accuracy: is everything the summary says true of the code?",
            "Coverage: does it state the function's main purpose and important behaviour?",
            "Concision: is it brief and free of filler a reader would skip?",
        ),
    ),
    "generation": JudgeTaskKind(
        name="generation",
        input_title="Requirement ({source})",
        response_title="Generated code ({target})",
        task="A developer implemented a {target} method from a signature and a description of "
        "what it must do. Prose around the code does not count for or against it.",
        criteria=(
            "Correctness: does the code meet every stated requirement, including edge cases?",
            "Quality: is it readable, idiomatic and free of needless complexity?",
        ),
    ),
}


@dataclass(frozen=True)
class JudgeItem:
    """The material of one judgment: the task input, a response and the languages involved."""

    input: str
    response: str
    languages: tuple[str, ...]
    reference: str | None = None

    @property
    def source(self) -> str:
        return self.languages[0] if self.languages else "the source language"

    @property
    def target(self) -> str:
        return self.languages[-1] if self.languages else "the target language"


def _fill(text: str, item: JudgeItem) -> str:
    return text.format(source=item.source, target=item.target)


def _fence(text: str) -> str:
    longest = max((len(run) for run in text.split("\n") if set(run) == {"`"}), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}\n{text}\n{fence}"


def _material(kind: JudgeTaskKind, item: JudgeItem, responses: Sequence[tuple[str, str]]) -> str:
    parts = [f"## {_fill(kind.input_title, item)}\n{_fence(item.input)}"]
    if item.reference is not None:
        parts.append(f"## Reference solution\n{_fence(item.reference)}")
    for label, text in responses:
        parts.append(f"## {_fill(kind.response_title, item)}{label}\n{_fence(text)}")
    return "\n\n".join(parts)


def _criteria(kind: JudgeTaskKind, item: JudgeItem) -> str:
    return _fill(kind.criteria_block(), item)


def vanilla_prompt(kind: JudgeTaskKind, item: JudgeItem, *, scale: int = 5) -> str:
    """Rubric scoring: a short analysis per criterion, then ``Overall: X/<scale>``."""
    return (
        f"{_fill(kind.task, item)}\n\n{_material(kind, item, [('', item.response)])}\n\n"
        f"Criteria:\n{_criteria(kind, item)}\n\n"
        "For each criterion, write two or three sentences on strengths and weaknesses. Then "
        f"give one overall grade from 1 (unusable) to {scale} (excellent), on a last line of "
        f"exactly this form:\nOverall: X/{scale}"
    )


def pairwise_prompt(kind: JudgeTaskKind, item: JudgeItem, first: str, second: str) -> str:
    """Pairwise comparison of responses A and B: ``Overall: A``, ``Overall: B`` or a tie."""
    material = _material(kind, item, [(" - A", first), (" - B", second)])
    return (
        f"{_fill(kind.task, item)} Two candidate responses, A and B, are shown.\n\n{material}\n\n"
        f"Criteria:\n{_criteria(kind, item)}\n\n"
        "Compare A and B on each criterion in a sentence or two. Then decide which is "
        "noticeably better, or TIE if the difference is too small to matter. End with a last "
        "line of exactly one of these forms:\nOverall: A\nOverall: B\nOverall: TIE"
    )


def geval_steps_prompt(kind: JudgeTaskKind, item: JudgeItem) -> str:
    """G-Eval, step 1: ask the model for numbered evaluation steps for this kind of task."""
    return (
        f"{_fill(kind.task, item)}\n\nCriteria:\n{_criteria(kind, item)}\n\n"
        "Write the evaluation steps a careful reviewer would follow to grade such a response "
        "from 1 to 5 on these criteria, as a numbered list of at most six short steps. Write "
        "only the list."
    )


def geval_score_prompt(kind: JudgeTaskKind, item: JudgeItem, steps: str, *, scale: int = 5) -> str:
    """G-Eval, step 2: follow the generated steps and answer with ``Score: X`` only."""
    return (
        f"{_fill(kind.task, item)}\n\nCriteria:\n{_criteria(kind, item)}\n\n"
        f"Evaluation steps:\n{steps.strip()}\n\n{_material(kind, item, [('', item.response)])}\n\n"
        f"Follow the steps and grade the response from 1 to {scale}. Answer with one line "
        "of exactly this form and nothing else:\nScore: X"
    )


def batcheval_prompt(kind: JudgeTaskKind, items: Sequence[JudgeItem]) -> str:
    """BatchEval: several (input, response) samples graded together, one ``Response k: X``
    line per sample after a joint analysis."""
    blocks = []
    for number, item in enumerate(items, start=1):
        blocks.append(f"# Sample {number}\n\n{_material(kind, item, [('', item.response)])}")
    first = items[0] if items else JudgeItem("", "", ())
    lines = "\n".join(f"Response {n}: X" for n in range(1, len(items) + 1))
    return (
        f"You will grade {len(items)} samples of the same task. {_fill(kind.task, first)}\n\n"
        f"Criteria:\n{_criteria(kind, first)}\n\n"
        + "\n\n".join(blocks)
        + "\n\nFirst analyse the samples briefly against the criteria, comparing them with "
        "each other. Then grade every sample from 1 to 5 (decimals allowed), one line each, "
        f"in this exact form:\n{lines}"
    )


def weighted_score(top_logprobs: dict[str, float], scale: tuple[int, int] = (1, 5)) -> float | None:
    """G-Eval's probability-weighted score from the answer token's top log-probabilities:
    the expected grade over the grade tokens, renormalised; ``None`` if no grade token."""
    import math

    low, high = scale
    weights: dict[int, float] = {}
    for token, logprob in top_logprobs.items():
        text = token.strip()
        if text.isdigit() and low <= int(text) <= high:
            weights[int(text)] = weights.get(int(text), 0.0) + math.exp(logprob)
    total = sum(weights.values())
    if total <= 0:
        return None
    return sum(grade * weight for grade, weight in weights.items()) / total
