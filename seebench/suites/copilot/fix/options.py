"""The options of the ``copilot_fix`` scorer (its JSON Schema ``properties``) and the names of
the analyzers, apart from the scorer and the analyzers so that registering them (and the
suite's commands) imports nothing heavy."""

from __future__ import annotations

from typing import Any

#: the analyzers of :data:`seebench.suites.copilot.fix.analyzers.ANALYZERS`, in its order
ANALYZER_NAMES = ("pylint", "pyright", "eslint", "tsc")

OPTIONS: dict[str, Any] = {
    "analyzer": {
        "type": "string",
        "enum": sorted(ANALYZER_NAMES),
        "description": "the analyzer that judges the fix (pylint, pyright, eslint, tsc)",
    },
    "workers": {
        "type": "integer",
        "minimum": 1,
        "maximum": 16,
        "description": "sandbox workers running analyzer batches in parallel",
    },
}
