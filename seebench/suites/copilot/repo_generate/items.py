"""The items of repository-level generate: the versioned list and the rows built from it.

The list (``task_configs/copilot_repo/data/copilot_repo_generate.jsonl``, written by
``scripts/copilot_repo_generate_items.py``) has one JSON object per line::

    {"id": "dbader/schedule:schedule/__init__.py:Job.tag", "slug": "dbader+schedule@82a4...",
     "language": "python", "file": "schedule/__init__.py", "name": "Job.tag",
     "start_line": 250, "body_start": 257, "body_end": 260,
     "file_sha256": "<sha256 of the file at the commit>", "tests": ["test_schedule.py::..."]}

Each item is rebuilt from the repository's tree at read time and checked against the list
(the file's checksum, the method at those lines): an item that does not match, or whose
repository is not staged, keeps an ``excluded`` reason and is left unscored, never dropped.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from seebench import safe_files
from seebench.suites.copilot.repo_generate.methods import documented_methods, grammar_for
from seebench.tasks.configs import task_config_dir

#: the shipped item list
ITEMS_FILE = task_config_dir("copilot_repo") / "data" / "copilot_repo_generate.jsonl"
#: key -> type of an item record
ITEM_KEYS: dict[str, type] = {
    "id": str,
    "slug": str,
    "language": str,
    "file": str,
    "name": str,
    "start_line": int,
    "body_start": int,
    "body_end": int,
    "file_sha256": str,
    "tests": list,
}
#: the keys of a target (see :class:`~.types.RepoGenerateType`)
TARGET_KEYS = (
    "slug",
    "language",
    "file",
    "name",
    "context",
    "placeholder",
    "reference",
    "tests",
    "excluded",
)
#: what the model sees at most of the file before the method (characters, whole lines)
DEFAULT_CONTEXT_CHARS = 12000
FENCES = {"python": "python", "javascript": "javascript", "typescript": "typescript"}


def file_digest(source: str) -> str:
    """The checksum of a file's text as read (universal newlines, UTF-8): what the list keeps."""
    return hashlib.sha256(source.encode("utf-8")).hexdigest()


def list_digest(path: Path) -> str:
    """The sha256 of an item list file (what a task's ``items_sha256`` option names)."""
    try:
        return hashlib.sha256(safe_files.read_bytes(path, safe_files.TEXT_MAX_BYTES)).hexdigest()
    except OSError as exc:
        raise ValueError(f"{path}: cannot read the item list: {exc}") from None


def check_item(record: Any, where: str) -> dict[str, Any]:
    """``record`` as an item; anything else is a ``ValueError`` naming ``where`` and the key."""
    if not isinstance(record, dict):
        raise ValueError(f"{where}: expected a JSON object, got {type(record).__name__}")
    for key, expected in ITEM_KEYS.items():
        value = record.get(key)
        if not isinstance(value, expected) or isinstance(value, bool):
            raise ValueError(f"{where}: key {key!r} is missing or not {expected.__name__}")
    unknown = sorted(set(record) - set(ITEM_KEYS))
    if unknown:
        raise ValueError(f"{where}: unknown key(s) {unknown}")
    if not record["tests"] or not all(isinstance(t, str) and t for t in record["tests"]):
        raise ValueError(f"{where}: 'tests' must be a non-empty list of test ids")
    if not 1 <= record["start_line"] < record["body_start"] <= record["body_end"]:
        raise ValueError(
            f"{where}: line numbers must satisfy 1 <= start_line < body_start <= body_end"
        )
    if grammar_for(record["file"]) is None or ".." in record["file"].split("/"):
        raise ValueError(f"{where}: {record['file']!r} is not a Python/JS/TS path in the tree")
    return record


def read_items(path: Path = ITEMS_FILE) -> list[dict[str, Any]]:
    """The items of the list at ``path`` (errors name the file and line; ids are unique)."""
    try:
        text = safe_files.read_text(path, safe_files.TEXT_MAX_BYTES)
    except (OSError, UnicodeDecodeError) as exc:
        raise ValueError(f"{path}: cannot read the item list: {exc}") from None
    items, seen = [], set()
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        where = f"{path}:{number}"
        try:
            record = json.loads(line)
        except json.JSONDecodeError as exc:
            raise ValueError(f"{where}: invalid JSON: {exc.msg}") from None
        item = check_item(record, where)
        if item["id"] in seen:
            raise ValueError(f"{where}: item id {item['id']!r} is listed twice")
        seen.add(item["id"])
        items.append(item)
    return items


def shown_prefix(context_lines: list[str], max_chars: int, comment: str) -> str:
    """The last whole lines of ``context_lines`` within ``max_chars``, with a comment line
    saying how many lines above were left out (none when all fit)."""
    kept: list[str] = []
    size = 0
    for line in reversed(context_lines):
        size += len(line) + 1
        if size > max_chars and kept:
            break
        kept.insert(0, line)
    left_out = len(context_lines) - len(kept)
    if left_out:
        kept.insert(0, f"{comment} ... ({left_out} lines above not shown)")
    return "\n".join(kept) + "\n"


def item_row(item: dict[str, Any], source: str | None, repo: str, max_chars: int) -> dict[str, Any]:
    """One task row (``id, input, target``) of ``item`` from its file's text (``None`` when the
    file is missing); a mismatch with the list gives an ``excluded`` target."""
    language = item["language"]
    target: dict[str, Any] = {
        "slug": item["slug"], "language": language, "file": item["file"], "name": item["name"],
        "context": "", "placeholder": "", "reference": "", "tests": list(item["tests"]),
        "excluded": None,
    }  # fmt: skip
    heading = f"File {item['file']} of the repository {repo}, up to the body of {item['name']}:"
    if source is None:
        target["excluded"] = f"{item['file']} is not in the repository's tree"
        return {"id": item["id"], "input": heading, "target": target}
    digest = file_digest(source)
    if digest != item["file_sha256"]:
        target["excluded"] = f"{item['file']} differs from the listed file (sha256 {digest[:12]})"
        return {"id": item["id"], "input": heading, "target": target}
    method = next(
        (
            m
            for m in documented_methods(source, item["file"])
            if (m.name, m.start_line, m.body_start, m.body_end)
            == (item["name"], item["start_line"], item["body_start"], item["body_end"])
        ),
        None,
    )
    if method is None:
        target["excluded"] = f"no documented method {item['name']} at the listed lines"
        return {"id": item["id"], "input": heading, "target": target}
    lines = source.splitlines()
    placeholder = method.placeholder(language)
    before, body, after = (
        lines[: method.body_start - 1],
        lines[method.body_start - 1 : method.body_end],
        lines[method.body_end :],
    )
    target["context"] = "\n".join([*before, placeholder, *after]) + "\n"
    target["placeholder"] = placeholder
    target["reference"] = "\n".join(body) + "\n"
    comment = "#" if language == "python" else "//"
    shown = shown_prefix([*before, placeholder], max_chars, comment)
    text = f"{heading}\n\n```{FENCES[language]}\n{shown}```"
    return {"id": item["id"], "input": text, "target": target}


def read_repo_generate_items(
    files: Any,
    *,
    language: str,
    items: str | None = None,
    max_context_chars: int = DEFAULT_CONTEXT_CHARS,
    items_sha256: str | None = None,
) -> list[dict[str, Any]]:
    """Reader ``copilot_repo_generate``: the listed items of ``language`` (option ``items``: a
    list file other than the shipped one; ``items_sha256``: the list's checksum, so that results
    name the list they were measured on) as rows, each rebuilt from the staged repository."""
    from seebench.data.file_sets import FileSet
    from seebench.suites.copilot.repos.staging import source_tree, staged_repos

    if not isinstance(files, FileSet):
        raise ValueError(
            "the copilot_repo_generate reader reads a file set (a source with 'files:')"
        )
    path = Path(items) if items else ITEMS_FILE
    if items_sha256 is not None:
        digest = list_digest(path)
        if digest != items_sha256:
            raise ValueError(
                f"{path}: sha256 {digest}, the task expects {items_sha256} (regenerate the list "
                "with scripts/copilot_repo_generate_items.py, which updates the tasks)"
            )
    repos = {repo.slug: repo for repo in staged_repos(files)}
    rows = []
    for item in read_items(path):
        if item["language"] != language:
            continue
        repo = repos.get(item["slug"])
        if repo is None:
            row = item_row(item, None, item["slug"], max_context_chars)
            row["target"]["excluded"] = f"repository {item['slug']} is not staged"
            rows.append(row)
            continue
        file = source_tree(repo) / item["file"]
        try:
            source = (
                safe_files.read_text(file, safe_files.TEXT_MAX_BYTES) if file.is_file() else None
            )
        except (OSError, UnicodeDecodeError):
            source = None
        rows.append(item_row(item, source, repo.repo, max_context_chars))
    return rows
