"""The options of the ``copilot_workspace`` scorer (its JSON Schema ``properties``), apart from the
scorer so that registering it imports nothing heavy."""

from __future__ import annotations

from typing import Any

OPTIONS: dict[str, Any] = {
    "jaccard_threshold": {
        "type": "number",
        "exclusiveMinimum": 0,
        "maximum": 1,
        "description": "least line-Jaccard index for a snippet to count under the jaccard rule",
    }
}
