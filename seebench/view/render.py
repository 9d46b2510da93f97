"""Turning sample records and artifact files into what the templates show.

Everything becomes plain text here; the templates escape it (Jinja2 autoescape), so a model's
reply that holds ``<script>`` is shown as those characters. Long values are cut with a note.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from markupsafe import Markup

from seebench.view.safety import INLINE_ARTIFACT_BYTES, Refused, inside, read_bytes

#: The order in which a sample's fields are shown (others follow, sorted).
FIELD_ORDER = ("input", "prompt", "raw", "prediction", "gold", "error", "confidence", "shots")
_NOT_FIELDS = {"id", "repeat", "score", "scores"}
MAX_ARTIFACT_FILES = 100
#: The task names that get a ``task/<name>.html`` page (the task schema's name pattern).
TASK_NAME = re.compile(r"^[a-z0-9][a-z0-9_\-]*$")


def fmt(value: Any) -> str:
    """A number for a table cell (4 decimals), ``–`` for a missing one."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "–"
    if isinstance(value, float):
        return f"{value:.4f}"
    return str(value)


def interval(ci: Any) -> str:
    """``[lo, hi]`` of a recorded interval, empty when there is none."""
    if (
        isinstance(ci, list | tuple)
        and len(ci) == 2
        and all(isinstance(v, int | float) for v in ci)
    ):
        return f"[{fmt(float(ci[0]))}, {fmt(float(ci[1]))}]"
    return ""


def looks_like_diff(text: str) -> bool:
    head = text[:400]
    return head.startswith(("--- ", "diff --git", "@@ ")) or "\n@@ " in head


def value_view(value: Any, limit: int, name: str = "") -> dict[str, Any]:
    """A value as text (strings as they are, the rest as indented JSON), cut at ``limit``
    characters; unified diffs get one class per line."""
    if isinstance(value, str):
        text = value
    else:
        try:
            text = readable(value, limit)
        except (ValueError, RecursionError):
            text = repr(value)[:limit]
    truncated = ""
    if len(text) > limit:
        truncated = f"showing {limit:,} of {len(text):,} characters"
        text = text[:limit]
    if isinstance(value, str) and (name.endswith((".patch", ".diff")) or looks_like_diff(text)):
        lines = []
        for line in text.splitlines(keepends=True):
            cls = ""
            if line.startswith("+") and not line.startswith("+++"):
                cls = "add"
            elif line.startswith("-") and not line.startswith("---"):
                cls = "del"
            elif line.startswith("@@"):
                cls = "hunk"
            lines.append((cls, line))
        return {"kind": "diff", "lines": lines, "truncated": truncated}
    return {"kind": "text", "text": text, "truncated": truncated}


def readable(value: Any, limit: int = 1_000_000) -> str:
    """A JSON value as indented ``key: value`` text in which a string of several lines (a
    traceback, a test run's output) keeps its lines instead of showing ``\\n`` escapes; other
    scalars as JSON. Stops growing once past ``limit`` characters."""
    lines: list[str] = []
    _readable(value, "", lines, [0], limit)
    return "\n".join(lines)


def _readable(value: Any, pad: str, lines: list[str], size: list[int], limit: int) -> None:
    def add(line: str) -> None:
        lines.append(line)
        size[0] += len(line) + 1

    items = (
        list(value.items())
        if isinstance(value, dict)
        else list(enumerate(value))
        if isinstance(value, list)
        else None
    )
    if items is None:
        add(pad + _scalar(value))
        return
    if not items:
        add(pad + ("{}" if isinstance(value, dict) else "[]"))
    for key, item in items:
        if size[0] > limit:
            return
        label = f"{key}:" if isinstance(value, dict) else "-"
        if isinstance(item, str) and "\n" in item:
            add(f"{pad}{label} |")
            for line in item.splitlines():
                add(f"{pad}  {line}")
        elif isinstance(item, dict | list) and item:
            add(f"{pad}{label}")
            _readable(item, pad + "  ", lines, size, limit)
        else:
            add(f"{pad}{label} {_scalar(item)}")


def _scalar(value: Any) -> str:
    if isinstance(value, dict | list):
        return "{}" if isinstance(value, dict) else "[]"
    return json.dumps(value, ensure_ascii=False, default=str)


def record_fields(record: dict[str, Any], limit: int) -> list[dict[str, Any]]:
    """The fields of a sample record to show, in :data:`FIELD_ORDER` then by name; a prompt
    the method kept in ``extra.prompt`` (chat messages) is shown as ``prompt``."""
    extra = record.get("extra")
    if "prompt" not in record and isinstance(extra, dict) and "prompt" in extra:
        record = {**record, "prompt": prompt_text(extra["prompt"])}
        record["extra"] = {k: v for k, v in extra.items() if k != "prompt"}
    keys = [k for k in FIELD_ORDER if k in record]
    keys += sorted(k for k in record if k not in FIELD_ORDER and k not in _NOT_FIELDS)
    return [{"key": str(k), "value": value_view(record[k], limit, str(k))} for k in keys]


def prompt_text(prompt: Any) -> Any:
    """Chat messages as ``[role]`` headed text; anything else as it is."""
    if isinstance(prompt, list) and all(
        isinstance(m, dict) and isinstance(m.get("content"), str) for m in prompt
    ):
        return "\n\n".join(f"[{m.get('role', '?')}]\n{m['content']}" for m in prompt)
    return prompt


def scorer_views(record: dict[str, Any], limit: int) -> list[dict[str, Any]]:
    """Every scorer's value, explanation, answer and metadata."""
    named = record.get("scores")
    if not isinstance(named, dict):
        return []
    out: list[dict[str, Any]] = []
    for name, entry in named.items():
        if not isinstance(entry, dict):
            out.append({"name": str(name), "value": fmt(None), "explanation": str(entry)[:limit]})
            continue
        value = entry.get("value")
        explanation = entry.get("explanation")
        out.append(
            {
                "name": str(name),
                "value": fmt(value) if isinstance(value, int | float | type(None)) else str(value),
                "explanation": str(explanation)[:limit] if explanation is not None else "",
                "answer": value_view(entry["answer"], limit) if "answer" in entry else None,
                "metadata": value_view(entry["metadata"], limit) if entry.get("metadata") else None,
            }
        )
    return out


def artifact_refs(record: dict[str, Any]) -> list[str]:
    """Artifact paths (relative to the unit's artifacts folder) a record names: a scorer's
    ``metadata.artifacts`` and ``metadata.log`` (the sandbox's per-sample log of
    ``python_tests``: the program, tests and full output) and the record's own ``artifacts``."""
    refs: list[str] = []
    named = record.get("scores")
    if isinstance(named, dict):
        for entry in named.values():
            meta = entry.get("metadata") if isinstance(entry, dict) else None
            if isinstance(meta, dict):
                refs += _as_list(meta.get("artifacts")) + _as_list(meta.get("log"))
    refs += _as_list(record.get("artifacts"))
    extra = record.get("extra")
    if isinstance(extra, dict):
        refs += _as_list(extra.get("artifacts"))
    return list(dict.fromkeys(refs))


def _as_list(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        return [v for v in value if isinstance(v, str)]
    return []


@dataclass
class ArtifactFile:
    """One artifact file of a sample: its name inside the artifacts folder and size, or why
    it cannot be shown."""

    name: str
    path: Path | None
    size: int
    problem: str = ""


def artifact_files(folder: Path, root: Path, refs: list[str]) -> list[ArtifactFile]:
    """The files the ``refs`` name (a folder lists its files), each checked to lie inside the
    unit's artifacts ``folder`` and the results ``root`` (links resolved first)."""
    out: list[ArtifactFile] = []
    for ref in refs:
        try:
            base = inside(folder, root)
            target = inside(folder / ref, base)
        except Refused as exc:
            out.append(ArtifactFile(ref[:200], None, 0, str(exc)))
            continue
        if target.is_dir():
            for dirpath, dirnames, filenames in os.walk(target):
                dirnames.sort()
                for name in sorted(filenames):
                    out.append(_file(Path(dirpath) / name, base))
                    if len(out) >= MAX_ARTIFACT_FILES:
                        return out
        elif target.exists():
            out.append(_file(target, base))
        else:
            out.append(ArtifactFile(ref[:200], None, 0, "missing"))
    return out


def _file(path: Path, base: Path) -> ArtifactFile:
    name = str(path.relative_to(base)) if base in path.parents else path.name
    try:
        resolved = inside(path, base)
        info = os.stat(resolved)
        import stat

        if not stat.S_ISREG(info.st_mode):
            return ArtifactFile(name, None, 0, "not a regular file")
        return ArtifactFile(name, resolved, info.st_size)
    except (Refused, OSError) as exc:
        return ArtifactFile(name, None, 0, str(exc))


def size_text(size: int) -> str:
    for unit in ("bytes", "KB", "MB", "GB"):
        if size < 1024 or unit == "GB":
            return f"{size} {unit}" if unit == "bytes" else f"{size:.1f} {unit}"
        size /= 1024  # type: ignore[assignment]
    return str(size)


def inline_artifact(item: ArtifactFile, base: Path, limit: int) -> dict[str, Any] | None:
    """A small artifact's text for showing inside the page (``None`` when it is large, not
    text, or unreadable: it then loads only when asked for)."""
    if item.path is None or item.size > INLINE_ARTIFACT_BYTES:
        return None
    try:
        data = read_bytes(item.path, base, INLINE_ARTIFACT_BYTES)
        text = data.decode("utf-8")
    except (Refused, UnicodeDecodeError):
        return None
    if item.name.endswith(".json"):
        with contextlib.suppress(ValueError, RecursionError):
            text = json.dumps(json.loads(text), indent=1, ensure_ascii=False)
    return value_view(text, limit, item.name)


def highlight(text: str, query: str) -> Markup:
    """``text`` escaped, each case-insensitive occurrence of ``query`` in a ``<mark>``."""
    from markupsafe import escape

    if not query:
        return escape(text)
    pattern = re.compile(re.escape(query), re.IGNORECASE)
    out, last = [], 0
    for match in pattern.finditer(text):
        out += [escape(text[last : match.start()]), Markup("<mark>"), escape(match.group())]
        out.append(Markup("</mark>"))
        last = match.end()
    out.append(escape(text[last:]))
    return Markup("").join(out)
