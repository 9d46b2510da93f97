"""Reshaping steps for SELU sources whose layout is not one row per instance.

- NLBSE code-comment files are *long*: one row per (sentence, category) with a 0/1 flag;
  :func:`pivot_long_to_multilabel` turns them into one row per sentence with a label list.
- StackOverflowNER files are sentence-level CoNLL with post header lines
  (``Question_ID : ...``); :func:`group_ner_posts` joins the sentences of one post and
  :func:`map_entity_types` merges / drops entity types.
"""

from __future__ import annotations

from typing import Any

Rows = list[dict[str, Any]]

POSITIVE = {"1", "1.0", "true", "yes"}


def pivot_long_to_multilabel(
    rows: Rows,
    *,
    key: str,
    label: str,
    indicator: str,
    column: str = "target",
    keep: list[str] | None = None,
    labels: dict[str, str] | None = None,
) -> Rows:
    """One row per distinct ``key``: ``column`` lists the ``label`` values whose ``indicator``
    is positive (1/true/yes). ``keep`` columns (default: all others) come from the key's
    first row; ``labels`` renames raw label values (``{raw: name}``). Rows keep the order of
    each key's first appearance."""
    rename = {str(k): v for k, v in (labels or {}).items()}
    out: dict[Any, dict[str, Any]] = {}
    for number, row in enumerate(rows):
        for needed in (key, label, indicator):
            if needed not in row:
                raise KeyError(
                    f"row {number}: column {needed!r} not found; columns are {sorted(row)}"
                )
        row_key = row[key]
        pivoted = out.get(row_key)
        if pivoted is None:
            names = keep if keep is not None else [c for c in row if c not in (label, indicator)]
            pivoted = {name: row[name] for name in names}
            for meta in ("_source", "_split"):
                if meta in row:
                    pivoted[meta] = row[meta]
            pivoted[column] = []
            out[row_key] = pivoted
        if str(row[indicator]).strip().lower() in POSITIVE:
            value = rename.get(str(row[label]), str(row[label]))
            if value not in pivoted[column]:
                pivoted[column].append(value)
    return list(out.values())


def group_ner_posts(
    rows: Rows,
    *,
    starts: list[str] | None = None,
    drop: list[str] | None = None,
) -> Rows:
    """Join CoNLL sentences into posts. A sentence whose first token is in ``starts``
    (default ``Question_ID``, ``Answer_to_Question_ID``) opens a new post; sentences whose
    first token is in ``drop`` (default: the header tokens incl. ``Question_URL``) are
    removed. Posts left without tokens are dropped. Each row is ``{tokens, tags}``."""
    starts_set = set(starts or ["Question_ID", "Answer_to_Question_ID"])
    drop_set = set(drop if drop is not None else [*starts_set, "Question_URL", "Answer_URL"])
    posts: Rows = []
    current: dict[str, Any] | None = None
    for row in rows:
        tokens, tags = list(row["tokens"]), list(row["tags"])
        first = tokens[0] if tokens else ""
        if current is None or first in starts_set or row.get("_split") != current.get("_split"):
            current = {"tokens": [], "tags": []}
            for meta in ("_source", "_split"):
                if meta in row:
                    current[meta] = row[meta]
            posts.append(current)
        if first in drop_set:
            continue
        current["tokens"].extend(tokens)
        current["tags"].extend(tags)
    return [post for post in posts if post["tokens"]]


def map_entity_types(
    rows: Rows,
    *,
    mapping: dict[str, str],
    column: str = "tags",
    outside: str = "O",
) -> Rows:
    """Rename entity types in BIO tags (``{old: new}``); mapping a type to ``O`` removes its
    entities (all their tokens become ``O``)."""
    for row in rows:
        new_tags = []
        for tag in row[column]:
            if tag == outside or "-" not in tag:
                new_tags.append(tag)
                continue
            prefix, entity = tag.split("-", 1)
            target = mapping.get(entity, entity)
            new_tags.append(outside if target == outside else f"{prefix}-{target}")
        row[column] = new_tags
    return rows
