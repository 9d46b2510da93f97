"""Offline replay: the logged suggestion requests sent again, to another model.

Each logged request (prefix, suffix, max_tokens) becomes a fill-in-the-middle chat prompt for
the model client; the reply is compared with what the study's model suggested and with the
task's final code. A request whose call fails is recorded with its error; the others go on.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Iterator
from typing import Any, Protocol

from seebench_study.analysis.attempts import Attempt
from seebench_study.analysis.suggestions import (
    Suggestion,
    attempt_suggestions,
    line_survival,
)

CURSOR = "<CURSOR>"
SYSTEM_PROMPT = (
    "You complete Python code. The user sends a file with the marker <CURSOR> where the cursor "
    "is. Reply with only the code to insert at the marker: no explanation, no code fences, "
    "nothing that is already before or after the marker."
)
DEFAULT_MAX_TOKENS = 64
_FENCE = re.compile(r"^```[^\n]*\n(.*?)(?:\n```\s*)?$", re.S)


class ChatClient(Protocol):
    """What replay needs of a model: :meth:`seebench.models.client.ModelClient.chat`."""

    def chat(self, messages, *, max_new_tokens: int = ..., item_id: str = ...) -> Any: ...


def replay_prompt(suggestion: Suggestion) -> list[dict[str, str]]:
    """The chat messages sent for one logged request."""
    return [
        {"role": "system", "content": SYSTEM_PROMPT},
        {"role": "user", "content": f"{suggestion.prefix}{CURSOR}{suggestion.suffix}"},
    ]


def clean_completion(text: str) -> str:
    """The reply without a surrounding code fence."""
    stripped = text.strip("\n")
    match = _FENCE.match(stripped.strip())
    return match.group(1) if match else stripped


def similarity(a: str, b: str) -> float:
    """difflib's ratio of two texts (1.0: identical; 0.0: nothing in common)."""
    return difflib.SequenceMatcher(None, a, b, autojunk=False).ratio()


def iter_replay(
    attempts: Iterable[Attempt],
    client: ChatClient,
    *,
    limit: int | None = None,
) -> Iterator[dict[str, Any]]:
    """One record per replayed request (shown suggestions only, at most ``limit``), as each
    reply arrives, so that a caller can save it before the next call.

    A record holds the original and replayed suggestion, whether the original was accepted,
    their similarity, whether they are identical (ignoring surrounding whitespace), and the
    line survival of both in the task's final code.
    """
    count = 0
    for attempt in attempts:
        final = attempt.final_code
        for item in attempt_suggestions(attempt):
            if not item.shown:
                continue
            if limit is not None and count >= limit:
                return
            count += 1
            yield _replay_one(item, final, client)


def _replay_one(item: Suggestion, final: str | None, client: ChatClient) -> dict[str, Any]:
    record: dict[str, Any] = {
        "session": item.session,
        "task": item.task,
        "request_id": item.request_id,
        "trigger": item.trigger,
        "accepted": item.accepted,
        "original": item.text,
    }
    try:
        reply = client.chat(
            replay_prompt(item),
            max_new_tokens=item.max_tokens or DEFAULT_MAX_TOKENS,
            item_id=f"{item.session}/{item.request_id}",
        )
        text = getattr(reply, "text", None)
        if not isinstance(text, str):
            raise ValueError("the model returned no text")
    except Exception as exc:  # one failed request must not stop the replay
        record["error"] = f"{type(exc).__name__}: {exc}"
        return record
    replayed = clean_completion(text)
    original = item.text or ""
    record.update(
        replayed=replayed,
        identical=replayed.strip() == original.strip(),
        similarity=similarity(replayed, original),
        original_survival=line_survival(original, final) if final is not None else None,
        replayed_survival=line_survival(replayed, final) if final is not None else None,
    )
    return record


def replay(
    attempts: Iterable[Attempt], client: ChatClient, *, limit: int | None = None
) -> list[dict[str, Any]]:
    """All records of :func:`iter_replay` as a list."""
    return list(iter_replay(attempts, client, limit=limit))


def replay_summary(records: list[dict[str, Any]]) -> dict[str, Any]:
    """Counts and means over the replay records (errors counted apart)."""
    done = [r for r in records if "error" not in r]

    def mean(key: str, rows: list[dict[str, Any]]) -> float | None:
        values = [r[key] for r in rows if r.get(key) is not None]
        return sum(values) / len(values) if values else None

    accepted = [r for r in done if r["accepted"]]
    return {
        "requests": len(records),
        "errors": len(records) - len(done),
        "identical": sum(r["identical"] for r in done),
        "mean_similarity": mean("similarity", done),
        "mean_similarity_accepted": mean("similarity", accepted),
        "mean_original_survival": mean("original_survival", done),
        "mean_replayed_survival": mean("replayed_survival", done),
    }
