"""Result files: one JSON per (model, method, task) plus one JSONL of per-sample records."""

from seebench.results.io import (
    RESULT_SCHEMA_VERSION,
    atomic_write_text,
    load_result,
    result_paths,
    validate_result,
)

__all__ = [
    "RESULT_SCHEMA_VERSION",
    "atomic_write_text",
    "load_result",
    "result_paths",
    "validate_result",
]
