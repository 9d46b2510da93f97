"""The options of the ``copilot_fix`` scorer (its JSON Schema ``properties``), apart from the
scorer so that registering it imports nothing heavy."""

from __future__ import annotations

from typing import Any

from seebench.suites.copilot.fix.analyzers import ANALYZERS

OPTIONS: dict[str, Any] = {
    "analyzer": {
        "type": "string",
        "enum": sorted(ANALYZERS),
        "description": "the analyzer that judges the fix (pylint, pyright, eslint, tsc)",
    },
    "workers": {
        "type": "integer",
        "minimum": 1,
        "maximum": 16,
        "description": "sandbox workers running analyzer batches in parallel",
    },
}
