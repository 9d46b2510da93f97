"""Reading a unit's samples file back: one checked record per line."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from seebench import safe_files
from seebench.errors import SeebenchError

REQUIRED_KEYS = ("id", "input_hash", "prediction", "gold")
#: The largest samples file read.
SAMPLES_MAX_BYTES = 2 * 1024 * 1024 * 1024


def read_samples(path: Path) -> list[dict[str, Any]]:
    """The records of a ``.samples.jsonl`` file, each checked to have the required keys.

    Raises :class:`SeebenchError` naming the file and line when a line is not a JSON object
    with ``id``, ``input_hash``, ``prediction`` and ``gold``.
    """
    try:
        text = safe_files.read_text(path, SAMPLES_MAX_BYTES)
    except (OSError, UnicodeDecodeError) as exc:
        raise SeebenchError(f"{path}: cannot read samples: {exc}") from None
    records = []
    for number, line in enumerate(text.splitlines(), start=1):
        try:
            record = json.loads(line)
        except json.JSONDecodeError as exc:
            raise SeebenchError(f"{path}:{number}: not JSON ({exc.msg})") from None
        if not isinstance(record, dict) or any(k not in record for k in REQUIRED_KEYS):
            raise SeebenchError(
                f"{path}:{number}: a sample record needs {', '.join(REQUIRED_KEYS)}"
            )
        records.append(record)
    return records
