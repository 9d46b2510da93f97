"""The options of the ``copilot_repo_testgen`` scorer (its JSON Schema ``properties``), apart from the
scorer so that registering it imports nothing heavy."""

from __future__ import annotations

from typing import Any

OPTIONS: dict[str, Any] = {
    "timeout_s": {
        "type": "number",
        "exclusiveMinimum": 0,
        "description": "wall seconds of one run of the placed test",
    },
    "workers": {"type": "integer", "minimum": 1, "maximum": 16, "description": "sandbox workers"},
}
