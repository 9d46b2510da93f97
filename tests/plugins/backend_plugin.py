"""A plugin that adds a chat backend without touching the kernel: the ``parrot`` model kind.

``parrot`` (the model) answers every prompt with its last user message, upper-cased when the
backend option ``shout`` is true. Loaded with ``SEEBENCH_PLUGINS=tests.plugins.backend_plugin``
or handed to ``create_plugin_manager``.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from seebench.hookspecs import hookimpl
from seebench.models import ModelRef
from seebench.models.backends.base import Generation
from seebench.models.chat import Prompt


class EchoBackend:
    """Replies with the prompt's last message (a chat backend in a dozen lines)."""

    name = "parrot"

    def __init__(self, model: ModelRef, options: dict[str, Any], **settings: Any):
        self.shout = bool(options.get("shout", False))
        self.settings = settings
        self.requests = 0

    def identity(self) -> dict[str, Any]:
        return {"backend": self.name, "shout": self.shout}

    def params(self) -> dict[str, Any]:
        return {"max_new_tokens": self.settings["max_new_tokens"]}

    def generate(self, prompts: Sequence[Prompt]) -> Iterator[tuple[int, Generation]]:
        for index, prompt in enumerate(prompts):
            self.requests += 1
            text = prompt.messages[-1]["content"]
            yield index, Generation(text.upper() if self.shout else text)

    def info(self) -> dict[str, Any]:
        return {"requests": self.requests}


def resolve_parrot(spec: str) -> ModelRef:
    return ModelRef(spec=spec, id="parrot", kind="parrot", identity={"parrot": 1})


@hookimpl
def register_models(register) -> None:
    register("parrot", resolve_parrot, description="Echoes.", default_method="zero-shot")


@hookimpl
def register_backends(register) -> None:
    register(
        "parrot",
        "tests.plugins.backend_plugin:EchoBackend",
        description="Echoes the last message.",
        options={"shout": {"type": "boolean", "description": "true or false"}},
        placement="none",
    )
