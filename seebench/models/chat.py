"""Chat requests: the messages sent to a model for one item."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Prompt:
    """The chat messages sent for one item (``[{"role": ..., "content": ...}]``).

    ``sample_id`` names the item the request is for; ``shot_ids`` the few-shot examples shown.
    """

    sample_id: str
    messages: tuple[dict[str, str], ...]
    shot_ids: tuple[str, ...] = ()

    def as_text(self) -> str:
        """The messages as plain text, for models without a chat template."""
        return "\n\n".join(m["content"] for m in self.messages) + "\n"
