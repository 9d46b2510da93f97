"""Task types as behaviour: the object a task type registers owns everything type-specific.

The runner, the data layer, prompting and per-sample scoring never compare type names; they
ask the task's :class:`TaskType` (``task.behaviour``). A plugin adds a kind of task by
subclassing :class:`TaskType` and registering an instance (or an import path to one)::

    @hookimpl
    def register_task_types(register):
        register("ordinal", "my_plugin.types:OrdinalType", description="Ordered labels.")

Generic methods and metrics (the majority baseline, ``accuracy``...) declare the *target
kinds* they handle; a type declares its :attr:`TaskType.target_kind`, so a new type that
holds one label per input gets them for free.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from seebench.tasks.spec import TaskSpec

#: One label per input (binary, multi-class, and plugin types such as ordinal scales).
LABEL = "label"
#: Any subset of the labels per input.
LABEL_SET = "label_set"
#: A number per input.
NUMBER = "number"
#: One tag per input token (BIO named entities).
TAG_SEQUENCE = "tag_sequence"
#: The words hidden behind mask tokens of the input.
MASKED_WORDS = "masked_words"
#: Source code written for the input, judged by running tests (the target holds the tests).
CODE = "code"
#: A free-text reply that the task type parses and the task's scorers judge (no generic metric).
FREE_TEXT = "free_text"
#: One point on a rating scale that the target declares, which several raters gave (the target
#: holds their ratings; a prediction is one more rater's value).
RATING = "rating"


@dataclass(frozen=True)
class ParsedAnswer:
    """The value read from a model's reply, or ``None`` with the reason it could not be read."""

    value: Any
    error: str | None = None

    @property
    def valid(self) -> bool:
        return self.error is None


@dataclass(frozen=True)
class AnswerFormat:
    """How prompting asks for this type's answer.

    ``noun`` names the answer in examples and the final cue (``Label``), ``verb`` what the model
    does (``classify``), ``kind`` the task in words (``classification``), ``instruction`` the
    answer-format sentence and ``max_new_tokens`` the default reply length.
    """

    noun: str
    verb: str
    kind: str
    instruction: str
    max_new_tokens: int


class TaskType:
    """Behaviour of one kind of task. Override what differs from these defaults.

    The defaults describe a task whose target is an arbitrary JSON value scored by exact
    match, split without stratification, that cannot be prompted.
    """

    #: set from the registered name
    name: str = ""
    #: what the type's targets are (see the module constants); ``None``: nothing generic applies
    target_kind: str | None = None
    #: metrics listed when a task names none (the first one ranks)
    default_metrics: tuple[str, ...] = ()
    #: the scorers that judge this type's answers; a type that names some has no per-sample
    #: score of its own, and a task of it must list one of them under ``scorers:``
    default_scorers: tuple[str, ...] = ()

    # -- targets ---------------------------------------------------------------------------

    def normalise_target(self, task: TaskSpec, value: Any) -> Any:
        """The canonical form of one raw target value; raise ``DataError`` if it is invalid."""
        return value

    def summarise_targets(self, task: TaskSpec, targets: Sequence[Any]) -> dict[str, Any] | None:
        """A short summary of the targets for ``seebench data status``."""
        return None

    # -- splitting -------------------------------------------------------------------------

    def hold_out(
        self,
        task: TaskSpec,
        items: Sequence[Any],
        targets: Sequence[Any],
        test_size: float,
        seed: int,
    ) -> tuple[list[Any], list[Any]]:
        """Seeded hold-out of ``items`` (whose targets are ``targets``): ``(rest, test)``."""
        from seebench.tasks.splits import random_split

        return random_split(items, test_size, seed)

    def split_description(self, task: TaskSpec) -> str:
        """How :meth:`hold_out` splits, in words."""
        return "hold-out"

    def shot_stratum(self, task: TaskSpec, target: Any) -> Any:
        """The group a few-shot example belongs to (examples are drawn across groups), or None."""
        return None

    # -- scoring ---------------------------------------------------------------------------

    def sample_score(self, task: TaskSpec, gold: Any, prediction: Any) -> float:
        """The per-sample score written to the samples file (1.0 is a perfect answer);
        an error naming the scorers to list when the type's answers are judged by scorers."""
        if self.default_scorers:
            from seebench.errors import SeebenchError

            listed = " or ".join(self.default_scorers)
            raise SeebenchError(
                f"task {task.name!r}: {self.name or 'these'} answers are judged by scorers; "
                f"list {listed} under 'scorers:'"
            )
        if prediction is None:
            return 0.0
        return float(gold == prediction)

    # -- prompting -------------------------------------------------------------------------

    def answer_format(self, task: TaskSpec) -> AnswerFormat | None:
        """How to ask a model for the answer; ``None`` when the type cannot be prompted."""
        return None

    def format_target(self, task: TaskSpec, target: Any) -> str:
        """A gold target written the way a model is asked to answer (few-shot examples)."""
        return str(target)

    def parse_answer(self, task: TaskSpec, text: str) -> ParsedAnswer:
        """Read this type's answer from a reply; never guess (an error instead)."""
        return ParsedAnswer(None, f"tasks of type {self.name!r} cannot be answered by prompting")

    # -- baselines -------------------------------------------------------------------------

    def majority(self, task: TaskSpec, targets: Sequence[Any]) -> Any:
        """The constant answer of the majority baseline: the most frequent target."""
        counts = Counter(_hashable(t) for t in targets)
        best = max(counts.values())
        return next(t for t in targets if counts[_hashable(t)] == best)

    def random_answer(self, task: TaskSpec, targets: Sequence[Any], key: str) -> Any:
        """A random training target, seeded by ``key`` (the random baseline)."""
        return random.Random(key).choice(list(targets))


def _hashable(value: Any) -> Any:
    if isinstance(value, list | tuple):
        return tuple(_hashable(v) for v in value)
    if isinstance(value, dict):
        return tuple(sorted((k, _hashable(v)) for k, v in value.items()))
    return value


def applies(declared_types: Sequence[str], declared_kinds: Sequence[str], task: TaskSpec) -> bool:
    """Whether a method or metric that declared these task types and target kinds applies to
    ``task`` (nothing declared: it applies to every task)."""
    if not declared_types and not declared_kinds:
        return True
    return task.type in declared_types or (
        task.behaviour.target_kind is not None and task.behaviour.target_kind in declared_kinds
    )
