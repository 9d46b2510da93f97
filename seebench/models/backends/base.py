"""What a prompting backend is: it turns prompts into replies, in any order, as they arrive."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from seebench.models.chat import Prompt


@dataclass
class Generation:
    """One reply, or why there is none. ``confidence`` is the reply's probability, if known."""

    text: str | None
    error: str | None = None
    confidence: float | None = None
    usage: dict[str, int] = field(default_factory=dict)
    retries: list[str] = field(default_factory=list)  # one reason per retried attempt
    reasoning: str | None = None  # a reasoning model's thinking, taken out of ``text``


class Backend(Protocol):
    """A model that answers chat prompts."""

    #: what the result's ``info.backend`` says (``hf``, ``openai``...)
    name: str

    def identity(self) -> dict[str, Any]:
        """Facts beyond the model's identity that change replies (e.g. the server's URL)."""

    def params(self) -> dict[str, Any]:
        """Every generation parameter; part of the cache key."""

    def generate(self, prompts: Sequence[Prompt]) -> Iterator[tuple[int, Generation]]:
        """Yield ``(position in prompts, generation)`` for every prompt, in any order."""

    def info(self) -> dict[str, Any]:
        """Accounting for the result's ``info`` (requests, retries, tokens, cost...)."""
