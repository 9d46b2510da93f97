"""The released RealHumanEval chat log (``chat_data.csv``) and what the paper says about it.

One row is one user message with the chat history it was sent with (``request``, a Python
literal list of ``{role, content}``), the model's ``response``, the copy events on that response
(``copy_events``, a Python literal list of ``{type: copy_button|copy_chat, copied}``), the
participant (``programmer_id``), seconds since the session started (``timestamp``), the
condition (``model``) and the task (``task_name``). The file also holds a GPT-4o condition
collected after the paper; the paper's figures cover the other three chat conditions.

The file is found in seebench's data cache by its sha256 (stored there by
:func:`cache_released_chat` from a mirror or a download), and checked whenever it is read.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from seebench.errors import SeebenchError
from seebench_study.data_files import RELEASED_CHAT_NAME, RELEASED_CHAT_SHA256

COLUMNS = ("request", "response", "copy_events", "programmer_id", "timestamp", "model", "task_name")
#: The chat conditions of the paper (its later GPT-4o condition is not among them).
PAPER_CONDITIONS = ("CodeLlama7b (chat)", "CodeLlama34b (chat)", "GPT-3.5 (chat)")
#: What the paper reports about this log (Mozannar, Chen et al., sections 5 and D.1).
PAPER = {
    "messages": 775,
    "messages_per_task": 2.8,
    "chars_per_message": 100.8,
    "copy_rate": 0.296,
    "copy_rate_by_condition": {
        "CodeLlama34b (chat)": 0.27,
        "GPT-3.5 (chat)": 0.35,
        "CodeLlama7b (chat)": 0.29,
    },
}


@dataclass(frozen=True)
class ChatMessage:
    """One row of the released log, parsed."""

    participant: int
    condition: str
    task: str
    timestamp: float
    history: list[dict[str, str]]
    response: str
    copies: list[dict[str, str]]

    @property
    def user_text(self) -> str | None:
        """The message the participant sent: the last user turn of the history."""
        users = [m["content"] for m in self.history if m.get("role") == "user"]
        return users[-1] if users else None


def cache_released_chat(path: Path) -> Path:
    """Store the released log found at ``path`` (a file, or a folder searched) in the cache."""
    from seebench.data.cache import sha256_file, store_file

    candidates = (
        [path]
        if path.is_file()
        else sorted(path.rglob(RELEASED_CHAT_NAME))
        if path.is_dir()
        else []
    )
    if not candidates:
        raise SeebenchError(f"{path}: no such file, nor a folder holding {RELEASED_CHAT_NAME}")
    for candidate in candidates:
        if sha256_file(candidate) == RELEASED_CHAT_SHA256:
            return store_file(candidate, RELEASED_CHAT_SHA256, RELEASED_CHAT_NAME)
    raise SeebenchError(
        f"{candidates[0]}: not the released RealHumanEval chat log (sha256 differs from "
        f"{RELEASED_CHAT_SHA256[:12]}...)"
    )


def released_chat_path() -> Path:
    """The verified cached copy of the released chat log, or a one-line error saying how to get it."""
    from seebench.data.cache import cache_damage, cached_file

    found = cached_file(RELEASED_CHAT_SHA256)
    if found is not None:
        return found
    raise SeebenchError(
        cache_damage(RELEASED_CHAT_SHA256)
        or f"the released RealHumanEval chat log (sha256 {RELEASED_CHAT_SHA256[:12]}...) is not "
        f"in the data cache; pass --data PATH (the file, or a mirror folder such as "
        f"../shared/data/realhumaneval) once to store it"
    )


def _literal_list(value: Any, where: str) -> list[Any]:
    if isinstance(value, float) and pd.isna(value):
        return []
    try:
        parsed = ast.literal_eval(str(value))
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        raise ValueError(f"{where}: not a Python literal list") from None
    if not isinstance(parsed, list) or not all(isinstance(x, dict) for x in parsed):
        raise ValueError(f"{where}: not a list of objects")
    return parsed


def read_released_chat(path: Path) -> tuple[list[ChatMessage], list[str]]:
    """The parsed rows of the log, and one line per row that could not be parsed (left out)."""
    try:
        frame = pd.read_csv(path, dtype={"response": str}, keep_default_na=False, na_values=[""])
    except (OSError, ValueError, pd.errors.ParserError) as exc:
        raise SeebenchError(f"{path}: cannot be read as CSV ({exc})") from None
    missing = [c for c in COLUMNS if c not in frame.columns]
    if missing:
        raise SeebenchError(f"{path}: column(s) {', '.join(missing)} missing")
    messages, problems = [], []
    for number, row in enumerate(frame.itertuples(index=False), 1):
        where = f"{path}: data row {number}"
        try:
            messages.append(
                ChatMessage(
                    participant=int(row.programmer_id),
                    condition=str(row.model),
                    task=str(row.task_name),
                    timestamp=float(row.timestamp),
                    history=_literal_list(row.request, f"{where}: request"),
                    response="" if pd.isna(row.response) else str(row.response),
                    copies=_literal_list(row.copy_events, f"{where}: copy_events"),
                )
            )
        except (ValueError, TypeError) as exc:
            problems.append(str(exc) if str(exc).startswith(str(path)) else f"{where}: {exc}")
    return messages, problems
