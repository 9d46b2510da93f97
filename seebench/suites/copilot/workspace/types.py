"""The ``copilot_workspace`` task type, its data reader and its candidate-retrieval step.

A row is one query of :mod:`.queries` about one staged repository. The reader checks every
gold range against the repository's tree; a query whose repository is not staged or whose gold
does not hold is kept with an ``excluded`` reason (unscored, counted). The
``workspace_candidates`` step ranks the repository's chunks for the query (BM25 and MiniLM
fused by reciprocal rank) and writes the top ``k`` into the prompt: the model ranks them
(``Ranking: 3, 1``) and then answers the question from them, in one reply.

Target: ``{gold, keywords, candidates, excluded}``. An answer (prediction) is either
``{ranking: [candidate numbers], answer}`` (a prompted model) or ``{snippets: [{file, start,
end}], answer}`` (the ``retrieval`` method, the null and oracle rules).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from seebench.errors import SeebenchError
from seebench.suites.copilot.scenario import ScenarioType
from seebench.tasks.types import FREE_TEXT, AnswerFormat, ParsedAnswer

if TYPE_CHECKING:
    from seebench.data.dataset import Sample
    from seebench.tasks.spec import TaskSpec

TARGET_KEYS = ("gold", "keywords", "candidates", "excluded")
RANKING = re.compile(r"ranking\s*[:=\-]\s*([^\n]*)", re.IGNORECASE)
#: the shape of the ranking line shown in the instruction: placeholders, no number, so that a
#: reply copying it holds no ranking (small models copied a concrete example, ``3, 1, 4``,
#: in 7 of 10 replies)
RANKING_TEMPLATE = "Ranking: <number of the most useful snippet>, <number of the next one>, ..."
#: a placeholder of the template left in a reply's ranking line (angle brackets, no digit)
PLACEHOLDER = re.compile(r"<[^<>\d\n]*>")
#: why a reply that repeats the template is not an answer
COPIED_TEMPLATE = "the ranking line repeats the instruction's template instead of snippet numbers"


def read_workspace_queries(
    files: Any, *, queries: str | None = None, facts: str | None = None
) -> list[dict[str, Any]]:
    """Rows ``{query_id, repo, kind, query, tree, slug, target}`` of the query set (the shipped
    one, or the file ``queries``) over the staged repositories of the file set ``files``
    (described by the shipped facts table, or the file ``facts``)."""
    from pathlib import Path

    from seebench.data.file_sets import FileSet
    from seebench.suites.copilot.repos.staging import FACTS_FILE, source_tree, staged_repos
    from seebench.suites.copilot.workspace.queries import QUERIES_FILE, check_gold, load_queries

    if not isinstance(files, FileSet):
        raise ValueError("the workspace reader reads a file set (a source with 'files:')")
    staged = staged_repos(files, Path(facts) if facts else FACTS_FILE)
    by_commit = {(r.repo, r.commit): r for r in staged}
    trees: dict[str, Path] = {}
    rows = []
    for query in load_queries(Path(queries) if queries else QUERIES_FILE):
        repo = by_commit.get((query.repo, query.commit))
        excluded, tree = None, None
        if repo is None:
            excluded = f"repository {query.repo}@{query.commit[:12]} is not staged"
        else:
            if repo.slug not in trees:
                trees[repo.slug] = source_tree(repo)
            tree = trees[repo.slug]
            problems = check_gold(query, tree)
            excluded = "; ".join(problems) or None
        rows.append(
            {
                "query_id": query.id,
                "repo": query.repo,
                "kind": query.kind,
                "query": query.query,
                "tree": str(tree) if tree else "",
                "slug": repo.slug if repo else "",
                "target": {
                    "gold": [g.as_dict() for g in query.gold],
                    "keywords": [list(k) for k in query.keywords],
                    "candidates": [],
                    "excluded": excluded,
                },
            }
        )
    return rows


def _shown(chunk: Any, number: int, max_lines: int) -> str:
    lines = chunk.text.splitlines()
    cut = lines[:max_lines] + (
        [f"... ({len(lines) - max_lines} more lines)"] if len(lines) > max_lines else []
    )
    symbol = f" ({chunk.symbol})" if chunk.symbol else ""
    body = "\n".join(cut)
    return f"[{number}] {chunk.file}, lines {chunk.start}-{chunk.end}{symbol}\n```\n{body}\n```"


def workspace_candidates(
    rows: list[dict[str, Any]], *, k: int = 8, max_lines: int = 30, retriever: str = "hybrid"
) -> list[dict[str, Any]]:
    """Each row's top ``k`` chunks (``retriever``: bm25, embedding or hybrid) as its
    candidates, and the prompt input: the question, then the numbered candidates (at most
    ``max_lines`` lines shown of each)."""
    from seebench.suites.copilot.workspace.retrieval import repository_index

    out = []
    for row in rows:
        target = dict(row["target"])
        shown = []
        if not target["excluded"]:
            index = repository_index(row["tree"], row["slug"])
            chosen = [index.chunks[i] for i in index.rank(row["query"], retriever)[:k]]
            target["candidates"] = [
                {"file": c.file, "start": c.start, "end": c.end, "symbol": c.symbol} for c in chosen
            ]
            shown = [_shown(c, n, max_lines) for n, c in enumerate(chosen, 1)]
        text = f"Repository: {row['repo']}\nQuestion: {row['query']}"
        if shown:
            text += "\n\nSnippets found in the repository:\n\n" + "\n\n".join(shown)
        out.append({**row, "input": text, "target": target})
    return out


def parse_workspace_reply(text: str) -> ParsedAnswer:
    """``{ranking, answer}`` from a reply: the numbers on its ``Ranking:`` line (empty when
    there is none) and the rest of the text as the answer. A ranking line that still holds a
    placeholder of :data:`RANKING_TEMPLATE` (``<...>`` without a digit) is not an answer: the
    reply copied the instruction (invalid, scored 0)."""
    match = RANKING.search(text)
    ranking: list[int] = []
    answer = text
    if match and PLACEHOLDER.search(match.group(1)):
        return ParsedAnswer(None, error=COPIED_TEMPLATE)
    if match:
        seen = set()
        for number in re.findall(r"\d+", match.group(1)):
            if int(number) not in seen:
                seen.add(int(number))
                ranking.append(int(number))
        answer = (text[: match.start()] + text[match.end() :]).strip()
    return ParsedAnswer({"ranking": ranking, "answer": answer})


class WorkspaceType(ScenarioType):
    """Workspace questions: ranked snippets judged against gold ranges, answers by keywords."""

    target_kind = FREE_TEXT
    default_metrics = ("workspace_mrr",)
    default_scorers = ("copilot_workspace",)

    def normalise_target(self, task: TaskSpec, value: Any) -> dict[str, Any]:
        from seebench.data.dataset import DataError

        if not isinstance(value, dict) or set(value) != set(TARGET_KEYS):
            raise DataError(f"task {task.name!r}: a target has exactly the keys {TARGET_KEYS}")
        return value

    def summarise_targets(self, task: TaskSpec, targets: Sequence[Any]) -> dict[str, Any]:
        return {
            "queries": len(targets),
            "excluded": sum(1 for t in targets if t.get("excluded")),
            "gold_snippets": sum(len(t["gold"]) for t in targets),
        }

    def answer_format(self, task: TaskSpec) -> AnswerFormat:
        return AnswerFormat(
            "Answer",
            "answer",
            "code search and question answering",
            "First line, in this shape with each <...> replaced by the bracketed number of one of "
            f"the numbered snippets: {RANKING_TEMPLATE} List only the snippets that help answer the "
            "question, the most useful first; a reply that keeps the <...> words is not an "
            "answer. Then answer the question in a few sentences, naming the functions, classes "
            "and files involved.",
            256,
        )

    def format_target(self, task: TaskSpec, target: Any) -> str:
        words = ", ".join(k[0] for k in target["keywords"])
        return f"Ranking: 1\nThe answer involves {words}."

    def parse_answer(self, task: TaskSpec, text: str) -> ParsedAnswer:
        return parse_workspace_reply(text)

    def majority(self, task: TaskSpec, targets: Sequence[Any]) -> Any:
        raise SeebenchError(f"task {task.name!r}: workspace questions have no majority answer")

    def random_answer(self, task: TaskSpec, targets: Sequence[Any], key: str) -> Any:
        raise SeebenchError(f"task {task.name!r}: workspace questions have no random answer")

    def null_answer(self, task: TaskSpec, sample: Sample) -> Any:
        """No snippet and an empty answer."""
        return {"snippets": [], "answer": ""}

    def oracle_answer(self, task: TaskSpec, sample: Sample) -> Any:
        """The gold snippets in order, and an answer naming every keyword."""
        target = sample.target
        return {
            "snippets": [dict(g) for g in target["gold"]],
            "answer": " ".join(k[0] for k in target["keywords"]),
        }
