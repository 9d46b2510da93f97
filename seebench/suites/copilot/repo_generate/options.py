"""The options of the ``copilot_repo_generate`` scorer (its JSON Schema ``properties``), apart from the
scorer so that registering it imports nothing heavy."""

from __future__ import annotations

from typing import Any

OPTIONS: dict[str, Any] = {
    "timeout_s": {
        "type": "number",
        "exclusiveMinimum": 0,
        "maximum": 3600,
        "description": "wall-clock limit of one run of an item's covering tests (seconds)",
    },
}
