"""The options of the ``copilot_testgen`` scorer (its JSON Schema ``properties``), apart from the
scorer so that registering it imports nothing heavy."""

from __future__ import annotations

from typing import Any

from seebench.suites.copilot.generate.compat import COMPAT_OPTION

OPTIONS: dict[str, Any] = {
    "cpu_s": {"type": "number", "exclusiveMinimum": 0, "description": "CPU seconds per run"},
    "wall_s": {"type": "number", "exclusiveMinimum": 0, "description": "wall seconds per run"},
    "memory_mb": {"type": "integer", "minimum": 64, "description": "memory per run (MiB)"},
    "test_timeout_s": {
        "type": "number",
        "exclusiveMinimum": 0,
        "description": "CPU-time limit of one test (a mutant that loops is killed)",
    },
    "max_mutants": {"type": "integer", "minimum": 0, "maximum": 50, "description": "kept per item"},
    "max_candidates": {
        "type": "integer",
        "minimum": 0,
        "maximum": 200,
        "description": "candidate mutants tried against the hidden tests per item",
    },
    "seed": {"type": "integer", "description": "the seed that orders candidate mutants"},
    "workers": {"type": "integer", "minimum": 1, "maximum": 64, "description": "sandbox workers"},
    "compat": COMPAT_OPTION,
}
