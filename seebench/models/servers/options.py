"""The options of managed model servers (``-o KEY=VALUE``), declared like every backend's.

Server options decide how the server starts (``ctx_size``, ``parallel``,
``gpu_memory_utilization``, ``tensor_parallel_size``, ``n_threads``, ``server_args``,
``startup_timeout_s``); client options decide how seebench talks to it (``concurrency``,
``timeout_s``, retries, ``logprobs``). Each server kind says which server options it takes
(:attr:`~seebench.models.servers.kinds.ServerKind.server_options`); an option that does not
apply to the model's server is refused before any work, like a mistyped one.
"""

from __future__ import annotations

from typing import Any

_INT = {"type": "integer", "minimum": 1}
_SECONDS = {"type": "number", "exclusiveMinimum": 0, "description": "seconds"}

#: Options that change how a server starts (two clients share a server only if they agree).
SERVER_OPTIONS: dict[str, dict[str, Any]] = {
    "ctx_size": {**_INT, "description": "an integer >= 1 (the server's context length, tokens)"},
    "parallel": {
        **_INT,
        "description": "an integer >= 1 (sequences the server runs at once; vLLM max_num_seqs, "
        "SGLang max_running_requests)",
    },
    "gpu_memory_utilization": {
        "type": "number",
        "exclusiveMinimum": 0,
        "maximum": 1,
        "description": "a fraction in (0, 1] of the GPU's memory the server may use",
    },
    "tensor_parallel_size": {**_INT, "description": "an integer >= 1 (GPUs per model)"},
    "n_threads": {**_INT, "description": "an integer >= 1 (CPU threads of llama.cpp)"},
    "server_args": {
        "type": "string",
        "description": "extra command-line arguments for the server, as one shell-quoted string",
    },
    "startup_timeout_s": {
        **_SECONDS,
        "description": "seconds to wait for the server to answer /v1/models",
    },
}

#: Options of the OpenAI-compatible client that also apply to a managed server.
SERVED_CLIENT_OPTIONS: dict[str, dict[str, Any]] = {
    "concurrency": {
        **_INT,
        "description": "an integer >= 1 (requests in flight; default: the server's parallel slots)",
    },
    "timeout_s": {**_SECONDS, "description": "seconds (per request)"},
    "max_retries": {"type": "integer", "minimum": 0, "description": "an integer >= 0"},
    "retry_base_s": {**_SECONDS},
    "retry_max_s": {**_SECONDS},
    "logprobs": {"type": "boolean", "description": "true or false"},
}
