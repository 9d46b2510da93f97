"""Managed model servers: ``llamacpp:``, ``vllm:`` and ``sglang:`` model specs.

seebench starts the server itself (127.0.0.1, a free port, a random API key), waits until it
answers, talks to it through the OpenAI-compatible backend (same cache, retries, accounting
and secret scrubbing) and stops its whole process group when the run ends: see
:mod:`.kinds` (the servers), :mod:`.process` (the lifecycle), :mod:`.supervise` (no server
outlives seebench) and :mod:`.backend` (the client side). This module stays cheap to import.
"""

from __future__ import annotations

from typing import Any

from seebench.models import ModelRef
from seebench.models.servers.options import SERVED_CLIENT_OPTIONS, SERVER_OPTIONS


def is_served(model: ModelRef) -> bool:
    """Whether ``model`` runs on a server that seebench manages."""
    return bool(model.options.get("serve"))


def served_option_schema(model: ModelRef) -> dict[str, dict[str, Any]]:
    """The backend options of a served model: its server's options and the client's (what
    its backend registered, see :mod:`seebench.models.plugin`)."""
    from seebench.models.servers.kinds import server_kind

    kind = server_kind(model.options["serve"])
    return {
        **{k: SERVER_OPTIONS[k] for k in kind.server_options},
        **SERVED_CLIENT_OPTIONS,
    }


__all__ = ["SERVED_CLIENT_OPTIONS", "SERVER_OPTIONS", "is_served", "served_option_schema"]
