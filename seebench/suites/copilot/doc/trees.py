"""Parse trees kept between loading a doc case and scoring its answers, and re-parsing an edit.

Loading a case parses its file once (each distinct file once, however many cases point into
it). The parse of the file without the function's doc is kept here, keyed by its language
and text, so that judging an answer re-parses only the bytes that differ (``tree.edit`` and
``parser.parse(data, old_tree)``) instead of the whole file; when nothing was kept (the
cases came from the prepared-case cache), the first answer's whole parse is kept instead and
the next answers to the same file re-parse from it. Where a re-parse holds a syntax error,
whose recovery may depend on the old tree, the text is parsed again from scratch, so
verdicts never depend on what was kept. The store is bounded (:data:`KEPT_BYTES` of parsed
text, oldest dropped first) and lives only in this process.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import TYPE_CHECKING

from seebench.suites.copilot.languages import parser

if TYPE_CHECKING:
    import tree_sitter

#: the most source text (bytes) whose trees are kept at once
KEPT_BYTES = 32 * 1024 * 1024

_kept: OrderedDict[tuple[str, str], tuple[bytes, tree_sitter.Tree]] = OrderedDict()
_kept_bytes = 0
_lock = threading.Lock()


def keep(language: str, text: str, data: bytes, tree: tree_sitter.Tree) -> None:
    """Remember ``tree``, the parse of ``data`` as ``language``: ``text`` encoded, or an
    edit of it (an answer inserted)."""
    global _kept_bytes
    key = (language, text)
    with _lock:
        if key in _kept:
            _kept.move_to_end(key)
            return
        _kept[key] = (data, tree)
        _kept_bytes += len(data)
        while _kept_bytes > KEPT_BYTES and len(_kept) > 1:
            _, (dropped, _) = _kept.popitem(last=False)
            _kept_bytes -= len(dropped)


def kept(language: str, text: str) -> tuple[bytes, tree_sitter.Tree] | None:
    """The encoded text and its tree kept for ``text`` in ``language``, or ``None``."""
    return _kept.get((language, text))


def clear() -> None:
    """Forget every kept tree."""
    global _kept_bytes
    with _lock:
        _kept.clear()
        _kept_bytes = 0


def _point(data: bytes, offset: int) -> tuple[int, int]:
    return data.count(b"\n", 0, offset), offset - (data.rfind(b"\n", 0, offset) + 1)


def _common_prefix(a: bytes, b: bytes, limit: int) -> int:
    """The length of the longest common prefix of ``a`` and ``b`` (at most ``limit``), by
    halving: each step one comparison of two slices in C."""
    low, high = 0, limit
    while low < high:
        middle = (low + high + 1) // 2
        if a[:middle] == b[:middle]:
            low = middle
        else:
            high = middle - 1
    return low


def _common_suffix(a: bytes, b: bytes, limit: int) -> int:
    low, high = 0, limit
    while low < high:
        middle = (low + high + 1) // 2
        if a[len(a) - middle :] == b[len(b) - middle :]:
            low = middle
        else:
            high = middle - 1
    return low


def reparse(language: str, old: bytes, old_tree: tree_sitter.Tree, new: bytes) -> tree_sitter.Tree:
    """The parse of ``new`` given ``old_tree``, the parse of ``old``: only the bytes between
    their common beginning and end are re-parsed; where the result holds a syntax error
    (whose recovery may depend on the old tree) ``new`` is parsed again from scratch.
    ``new`` equal to ``old`` is ``old_tree`` itself: every kept tree is what a parse from
    scratch gives."""
    if new == old:
        return old_tree
    start = _common_prefix(old, new, min(len(old), len(new)))
    tail = _common_suffix(old, new, min(len(old), len(new)) - start)
    edited = old_tree.copy()
    edited.edit(
        start_byte=start,
        old_end_byte=len(old) - tail,
        new_end_byte=len(new) - tail,
        start_point=_point(old, start),
        old_end_point=_point(old, len(old) - tail),
        new_end_point=_point(new, len(new) - tail),
    )
    tree = parser(language).parse(new, edited)
    if tree.root_node.has_error:
        return parser(language).parse(new)
    return tree
