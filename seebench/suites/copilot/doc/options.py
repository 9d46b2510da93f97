"""The options of the ``copilot_doc`` scorer (its JSON Schema ``properties``), apart from the
scorer so that registering it imports nothing heavy."""

from __future__ import annotations

from typing import Any

OPTIONS: dict[str, Any] = {
    "artifacts": {
        "type": "boolean",
        "description": "keep the answer, the edited file's diff and the verdict per sample",
    }
}
