"""The method contract: ``run(context) -> MethodOutput`` with one prediction per test sample."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from seebench.data.dataset import TaskData
from seebench.models import ModelRef
from seebench.tasks.spec import TaskSpec


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
