"""The method contract: ``run(context) -> MethodOutput`` with one prediction per test sample.

Also the contract between a task type whose answers are not the task's labels (a rating
scale that the targets declare) and the methods that score every answer as the prompt's
continuation (``loglik``): a type that implements :class:`AsksChoices` builds its own prompts
as :class:`ChoiceQuestion` s and says which answers there are.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from seebench.data.dataset import TaskData
from seebench.models import ModelRef
from seebench.tasks.spec import TaskSpec

if TYPE_CHECKING:
    from seebench.models.chat import Prompt


@dataclass(frozen=True)
class Prediction:
    """A method's answer for one test sample.

    ``prediction`` is ``None`` when the answer was invalid; ``error`` then says why and the
    sample is scored as wrong (never dropped). ``raw`` keeps the model's text, if any;
    ``shots`` the ids of the few-shot examples the model was shown for this sample.
    """

    sample_id: str
    prediction: Any
    raw: str | None = None
    error: str | None = None
    confidence: float | None = None
    extra: dict[str, Any] = field(default_factory=dict)
    shots: tuple[str, ...] = ()


@dataclass
class MethodOutput:
    """Predictions for ``data.test`` (same order) and method-specific facts for the result.

    ``info`` goes into the result file as is; a one-line ``info["summary"]`` (for example the
    selected hyper-parameters) is also shown in the note column of the end-of-run table.
    """

    predictions: list[Prediction]
    info: dict[str, Any] = field(default_factory=dict)


@dataclass
class RunContext:
    """Everything a method needs for one (model, task) unit.

    ``repeat`` numbers the generation when a task asks for several per item (its ``seed``
    differs per repeat); ``client`` is the model client of ``model`` (made on first use);
    ``registry`` gives methods the scorers and metrics they need without reaching for a
    global.
    """

    task: TaskSpec
    data: TaskData
    model: ModelRef
    seed: int
    options: dict[str, Any]
    work_dir: Path
    advance: Callable[[int], None] = lambda n: None  # report n more test samples done
    repeat: int = 0
    registry: Any = None
    _client: Any = field(default=None, repr=False)

    @property
    def client(self) -> Any:
        """The :class:`~seebench.models.client.ModelClient` of ``model`` (one per context)."""
        if self._client is None:
            from seebench.models.client import ModelClient

            self._client = ModelClient(self.model, self.options, self.seed)
        return self._client

    def metric(self, name: str) -> Callable[..., float]:
        """The registered metric function ``name``."""
        return self.registry.metric(name).load()

    def higher_is_better(self, name: str) -> bool:
        return self.registry.metric(name).higher_is_better


@runtime_checkable
class Method(Protocol):
    """What a registered method factory returns."""

    name: str

    def not_applicable(self, task: TaskSpec, model: ModelRef) -> str | None:
        """A reason why this method cannot run ``task`` with ``model``, or ``None``."""

    def run(self, context: RunContext) -> MethodOutput:
        """Produce one prediction per test sample."""

    # Optional: ``option_schema(model) -> dict`` (option name -> JSON Schema) refines the
    # options declared at registration for one model (e.g. a baseline's estimator).


@dataclass(frozen=True)
class ChoiceQuestion:
    """One test sample asked with a closed list of answers.

    ``answers`` are the values a prediction can take (in the order ties go by),
    ``verbalisers`` the text scored for each (default: ``str(answer)``), ``correct`` the
    answer counted right for the calibration error (``None``: no single one, left out), and
    ``extra`` what the prediction's ``extra`` keeps besides the scores (e.g. ``shot: true``).
    """

    sample_id: str
    prompt: Prompt
    answers: tuple[Any, ...]
    verbalisers: tuple[str, ...]
    correct: Any = None
    extra: Mapping[str, Any] = field(default_factory=dict)

    @property
    def keys(self) -> tuple[str, ...]:
        """The answers as the strings that name them in a samples file."""
        return tuple(str(a) for a in self.answers)


@dataclass(frozen=True)
class ChoiceQuestions:
    """The questions of a task's test samples (same order) and facts for the result's info."""

    questions: list[ChoiceQuestion]
    info: dict[str, Any] = field(default_factory=dict)


@runtime_checkable
class AsksChoices(Protocol):
    """A task type whose samples a method can ask as :class:`ChoiceQuestion` s."""

    def choices_not_applicable(self, task: TaskSpec) -> str | None:
        """Why the task's samples cannot be asked (e.g. the data lack what raters saw)."""

    def choice_questions(
        self, task: TaskSpec, samples: Sequence[Any], *, shots: int, seed: int
    ) -> ChoiceQuestions:
        """One question per sample; ``shots`` as the method's option (``SeebenchError`` for
        a value the type cannot honour)."""

    def content_free_question(
        self, task: TaskSpec, samples: Sequence[Any], *, shots: int, seed: int, text: str
    ) -> ChoiceQuestion:
        """The first sample's question with every input shown as ``text`` (contextual
        calibration's content-free input)."""
