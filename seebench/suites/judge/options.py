"""The options of the LLM-judge methods (registered by :mod:`seebench.builtin.judge`; a
managed server's options are added per model by the methods' ``option_schema``)."""

from __future__ import annotations

from typing import Any

TOKENS: dict[str, dict[str, Any]] = {
    "max_new_tokens": {"type": "integer", "minimum": 1, "description": "reply length"}
}
GEVAL_OPTIONS: dict[str, dict[str, Any]] = {
    **TOKENS,
    "score_mode": {
        "enum": ["sample_mean", "logprob_weighted"],
        "description": "sample_mean (the study) or logprob_weighted",
    },
    "samples": {"type": "integer", "minimum": 1, "description": "grades sampled per item"},
    "temperature": {"type": "number", "minimum": 0, "description": "sampling temperature"},
}
BATCHEVAL_OPTIONS: dict[str, dict[str, Any]] = {
    **TOKENS,
    "rounds": {"type": "integer", "minimum": 1, "description": "rounds"},
    "batch_size": {"type": "integer", "minimum": 1, "description": "responses per batch"},
}
#: each LLM-judge method's own options
JUDGE_OPTIONS = {
    "vanilla": TOKENS,
    "pairwise": TOKENS,
    "geval": GEVAL_OPTIONS,
    "batcheval": BATCHEVAL_OPTIONS,
}
