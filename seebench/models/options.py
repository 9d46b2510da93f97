"""The options of the model client and of its built-in backends (``-o KEY=VALUE``), as JSON
Schemas: ``COMMON_OPTIONS`` apply to every backend, ``HF_OPTIONS`` and ``OPENAI_OPTIONS`` to
theirs (registered with the backend, see :mod:`seebench.models.plugin`). Importing this module
is cheap: registration reads it.
"""

from __future__ import annotations

from typing import Any

from seebench.models.reasoning import THINK_END_OPTION

_NUMBER = {"type": "number"}
_INT = {"type": "integer", "minimum": 1}
COMMON_OPTIONS: dict[str, dict[str, Any]] = {
    "temperature": {"type": "number", "minimum": 0, "description": "a number >= 0 (0: greedy)"},
    "max_new_tokens": {**_INT, "description": "an integer >= 1"},
    "cache": {"type": "boolean", "description": "true or false"},
    "seed": {"type": "integer", "description": "an integer"},
    "think_end": THINK_END_OPTION,
}
HF_OPTIONS: dict[str, dict[str, Any]] = {
    "batch_size": {**_INT, "description": "an integer >= 1"},
    "dtype": {
        "enum": ["float32", "bfloat16", "float16", "auto"],
        "description": "float32, bfloat16, float16 or auto",
    },
    "device": {"type": "string", "description": "auto, cpu, cuda or cuda:N"},
    "prefix_cache": {"type": "boolean", "description": "true or false"},
    "chat_template": {
        "type": "boolean",
        "description": "true or false (false: the raw prompt text, for base models)",
    },
}
OPENAI_OPTIONS: dict[str, dict[str, Any]] = {
    "base_url": {"type": "string", "description": "an http(s) URL"},
    "api_key_env": {"type": "string", "description": "the NAME of the variable holding the key"},
    "concurrency": {**_INT, "description": "an integer >= 1"},
    "timeout_s": {**_NUMBER, "description": "seconds"},
    "max_retries": {"type": "integer", "minimum": 0, "description": "an integer >= 0"},
    "retry_base_s": {**_NUMBER, "description": "seconds"},
    "retry_max_s": {**_NUMBER, "description": "seconds"},
    "logprobs": {"type": "boolean", "description": "true or false"},
    "price_input": {**_NUMBER, "description": "USD per million input tokens"},
    "price_output": {**_NUMBER, "description": "USD per million output tokens"},
}
