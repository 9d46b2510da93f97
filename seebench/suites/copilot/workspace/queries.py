"""The workspace query set: a validating loader and the check of gold ranges against trees.

The set is versioned data of the suite (``task_configs/copilot_repo/data/workspace_queries.jsonl``), one
query per line::

    {"id": "schedule-01", "repo": "dbader/schedule", "commit": "<40 hex>", "kind": "how",
     "query": "How does a job work out ...?",
     "gold": [{"file": "schedule/__init__.py", "lines": [700, 748],
               "symbol": "_schedule_next_run"}],
     "keywords": ["_schedule_next_run", ["interval", "period"]]}

``kind`` is where / how / which; ``lines`` are inclusive and 1-based; ``symbol`` is a name the
range must contain; a keyword given as a list is satisfied by any one of its spellings.
Anything else (unknown keys, a missing field, a bad range or commit, a duplicate id, a line
that is not JSON) is an error naming the file, the line and the key. :func:`check_gold`
verifies a query against the repository's tree: every gold file exists and its line range is
inside the file and holds the named symbol.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from seebench import safe_files
from seebench.errors import SeebenchError
from seebench.tasks.configs import task_config_dir

#: the query set shipped with the suite
QUERIES_FILE = task_config_dir("copilot_repo") / "data" / "workspace_queries.jsonl"
KINDS = ("where", "how", "which")
QUERY_KEYS = {"id", "repo", "commit", "kind", "query", "gold", "keywords"}
GOLD_KEYS = {"file", "lines", "symbol"}


@dataclass(frozen=True)
class GoldSnippet:
    """A gold snippet: repository-relative file and inclusive 1-based lines."""

    file: str
    start: int
    end: int
    symbol: str

    def as_dict(self) -> dict[str, Any]:
        return {"file": self.file, "start": self.start, "end": self.end, "symbol": self.symbol}


@dataclass(frozen=True)
class Query:
    """One question about one repository at one commit."""

    id: str
    repo: str
    commit: str
    kind: str
    query: str
    gold: tuple[GoldSnippet, ...]
    keywords: tuple[tuple[str, ...], ...]  #: each keyword as its accepted spellings


def _text(value: Any, where: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise SeebenchError(f"{where}: expected non-empty text, got {value!r}")
    return value.strip()


def _gold(value: Any, where: str) -> GoldSnippet:
    if not isinstance(value, dict) or set(value) != GOLD_KEYS:
        raise SeebenchError(f"{where}: a gold snippet has exactly the keys {sorted(GOLD_KEYS)}")
    lines = value["lines"]
    if (
        not isinstance(lines, list)
        or len(lines) != 2
        or not all(isinstance(n, int) and not isinstance(n, bool) for n in lines)
        or not 1 <= lines[0] <= lines[1]
    ):
        raise SeebenchError(f"{where}.lines: expected [start, end] with 1 <= start <= end")
    file = _text(value["file"], f"{where}.file")
    if file.startswith("/") or ".." in file.split("/"):
        raise SeebenchError(f"{where}.file: {file!r} is not a clean relative path")
    return GoldSnippet(file, lines[0], lines[1], _text(value["symbol"], f"{where}.symbol"))


def _keyword(value: Any, where: str) -> tuple[str, ...]:
    spellings = value if isinstance(value, list) else [value]
    if not spellings:
        raise SeebenchError(f"{where}: a keyword's list of spellings is empty")
    return tuple(_text(s, where) for s in spellings)


def parse_query(item: Any, where: str) -> Query:
    """One query record (``where`` names it in errors)."""
    if not isinstance(item, dict):
        raise SeebenchError(f"{where}: expected a JSON object")
    if "id" in item:
        where = f"{where} (query {item['id']!r})"
    if set(item) != QUERY_KEYS:
        missing, unknown = QUERY_KEYS - set(item), set(item) - QUERY_KEYS
        raise SeebenchError(f"{where}: missing {sorted(missing)} / unknown {sorted(unknown)} keys")
    commit = item["commit"]
    if not (isinstance(commit, str) and re.fullmatch(r"[0-9a-f]{40}", commit)):
        raise SeebenchError(f"{where}.commit: expected 40 hex digits, got {commit!r}")
    if item["kind"] not in KINDS:
        raise SeebenchError(f"{where}.kind: {item['kind']!r} is not one of {KINDS}")
    gold, keywords = item["gold"], item["keywords"]
    if not isinstance(gold, list) or not gold:
        raise SeebenchError(f"{where}.gold: expected a non-empty list")
    if not isinstance(keywords, list) or not keywords:
        raise SeebenchError(f"{where}.keywords: expected a non-empty list")
    return Query(
        id=_text(item["id"], f"{where}.id"),
        repo=_text(item["repo"], f"{where}.repo"),
        commit=commit,
        kind=item["kind"],
        query=_text(item["query"], f"{where}.query"),
        gold=tuple(_gold(g, f"{where}.gold[{i}]") for i, g in enumerate(gold)),
        keywords=tuple(_keyword(k, f"{where}.keywords[{i}]") for i, k in enumerate(keywords)),
    )


def load_queries(path: Path = QUERIES_FILE) -> list[Query]:
    """The query set in ``path``; a file or line that does not read or validate is one clear
    error naming it."""
    try:
        text = safe_files.read_text(path, safe_files.TEXT_MAX_BYTES)
    except (OSError, UnicodeDecodeError) as exc:
        raise SeebenchError(f"{path}: cannot read the query set: {exc}") from None
    queries: list[Query] = []
    seen: set[str] = set()
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        where = f"{path}:{number}"
        try:
            item = json.loads(line)
        except ValueError as exc:
            raise SeebenchError(f"{where}: not JSON ({exc})") from None
        query = parse_query(item, where)
        if query.id in seen:
            raise SeebenchError(f"{where}: query id {query.id!r} listed twice")
        seen.add(query.id)
        queries.append(query)
    if not queries:
        raise SeebenchError(f"{path}: the query set is empty")
    return queries


def check_gold(query: Query, tree: Path) -> list[str]:
    """Problems of ``query``'s gold snippets in the repository ``tree`` ([] when all hold)."""
    problems = []
    for gold in query.gold:
        path = tree / gold.file
        try:
            lines = safe_files.read_text(path, safe_files.TEXT_MAX_BYTES).splitlines()
        except (OSError, UnicodeDecodeError):
            problems.append(f"{query.id}: gold file {gold.file} is not in the tree")
            continue
        if gold.end > len(lines):
            problems.append(
                f"{query.id}: {gold.file}:{gold.start}-{gold.end} ends after the file's "
                f"{len(lines)} lines"
            )
        elif gold.symbol not in "\n".join(lines[gold.start - 1 : gold.end]):
            problems.append(
                f"{query.id}: {gold.file}:{gold.start}-{gold.end} does not contain {gold.symbol}"
            )
    return problems


#: the repository scenarios' list of every staged tar, and the workspace task's subset of it
REPOS_LIST = QUERIES_FILE.parent / "copilot_repos.sha256"
WORKSPACE_LIST = QUERIES_FILE.parent / "workspace_repos.sha256"


def workspace_file_list(queries: list[Query], repos_list: Path = REPOS_LIST) -> list[str]:
    """The lines of ``repos_list`` (``sha256sum`` format) naming a repository tar that some
    query is about; a query whose repository is not in the list is an error naming it."""
    wanted = {f"repos/{q.repo.replace('/', '+')}@{q.commit}.tar": q.id for q in queries}
    lines = [
        line
        for line in safe_files.read_text(repos_list, safe_files.TEXT_MAX_BYTES).splitlines()
        if line[66:] in wanted
    ]
    listed = {line[66:] for line in lines}
    for member, query_id in wanted.items():
        if member not in listed:
            raise SeebenchError(f"{repos_list}: no {member} (repository of query {query_id!r})")
    return lines
