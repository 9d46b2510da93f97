"""The built-in model backends, registered like a plugin's (:func:`register_backends`).

A :class:`~seebench.models.ModelRef`'s ``kind`` names its backend: ``hf`` (local
transformers), ``openai`` (an OpenAI-compatible HTTP API), one per managed server
(``llamacpp``, ``llamaserver``, ``vllm``, ``sglang``), and the stand-ins that do not chat
(``rule``, ``baseline``, ``retriever``: reference solutions, classic estimators, BM25).
"""

from __future__ import annotations

from seebench.hookspecs import RegisterBackend, hookimpl
from seebench.models.options import HF_OPTIONS, OPENAI_OPTIONS
from seebench.models.servers.options import SERVED_CLIENT_OPTIONS, SERVER_OPTIONS

STAND_INS = (
    ("rule", "a fixed rule (reference solutions, metric-as-model); does not chat"),
    ("baseline", "a classic estimator (majority, random, tf-idf...); does not chat"),
    ("retriever", "a lexical retriever (BM25); does not chat"),
)


@hookimpl
def register_backends(register: RegisterBackend) -> None:
    from seebench.models.servers.kinds import KINDS  # not at start-up: it reads metadata

    register(
        "hf",
        "seebench.models.backends.hf:make_backend",
        description="Local transformers: batched generation, shared-prefix KV cache.",
        extra="hf",
        requires=("torch", "transformers"),
        options=HF_OPTIONS,
    )
    register(
        "openai",
        "seebench.models.backends.openai:make_backend",
        description="An OpenAI-compatible chat-completions API (concurrent, retried).",
        extra="api",
        requires=("aiohttp",),
        options=OPENAI_OPTIONS,
        placement="remote",
    )
    for kind in KINDS.values():
        register(
            kind.name,
            "seebench.models.servers.backend:served_backend",
            description=f"Managed {kind.label} server; seebench starts and stops it.",
            extra=kind.extra,
            requires=("httpx", "aiohttp"),
            options={
                **{k: SERVER_OPTIONS[k] for k in kind.server_options},
                **SERVED_CLIENT_OPTIONS,
            },
            placement="remote",
        )
    for name, what in STAND_INS:
        register(name, None, description=what, placement="none")
