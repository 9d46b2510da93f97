"""The generate scorers: syntax of the assembled file (tree-sitter) and the hidden tests run on
it in the sandbox (``python_tests``' machinery: pool, limits, verdicts, logs)."""

from __future__ import annotations

import platform
from collections.abc import Sequence
from typing import Any

from seebench.scoring.core import Score, ScoreContext
from seebench.scoring.python_tests import HELPERS_COMPLETION, PythonTestsScorer, trusted_code
from seebench.suites.copilot.generate.assembly import assemble
from seebench.suites.copilot.generate.compat import prelude


def python_syntax(source: str) -> tuple[bool, dict[str, Any], str | None]:
    """Whether ``source`` parses both with tree-sitter (the paper's parser) and with CPython's
    own parser (tree-sitter's grammar accepts, e.g., a block holding only a comment); the
    per-parser verdicts and the first error in words."""
    import ast

    from seebench.suites.copilot.languages import check_syntax

    check = check_syntax(source, "python")
    verdicts: dict[str, Any] = {"tree_sitter_ok": check.ok}
    error = None if check.ok else f"tree-sitter: {check.message}"
    try:
        ast.parse(source)
        verdicts["python_ok"] = True
    except (SyntaxError, ValueError) as exc:
        verdicts["python_ok"] = False
        line = getattr(exc, "lineno", None)
        error = error or f"python: {getattr(exc, 'msg', exc)} (line {line})"
        verdicts["line"] = line
    return check.ok and verdicts["python_ok"], verdicts, error


class GeneratedSyntaxScorer:
    """1.0 when the file with the answer in place parses (tree-sitter and CPython's parser),
    else 0.0; an answer that cannot be placed is 0.0."""

    def identity(self) -> dict[str, Any]:
        import tree_sitter_python

        return {
            "parsers": ["tree-sitter-python", "cpython"],
            "grammar": _version(tree_sitter_python),
            "python": platform.python_version(),
        }

    def score(self, sample: Any, prediction: Any, context: ScoreContext) -> Score:
        built = assemble(sample.target, prediction)
        if built.source is None:
            return Score(0.0, explanation=built.error, metadata={"placed": False})
        ok, verdicts, error = python_syntax(built.source)
        metadata = {"placed": True, "mode": built.mode, **verdicts}
        return Score(1.0 if ok else 0.0, explanation=error, metadata=metadata)


def _version(module: Any) -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(module.__name__.replace("_", "-"))
    except PackageNotFoundError:
        return "unknown"


class GeneratedTestsScorer(PythonTestsScorer):
    """Runs the file with the answer in place, then the item's hidden tests, in the sandbox:
    1.0 when they pass, 0.0 when they fail or the answer cannot be placed. ``compat`` names
    preludes run first (see :mod:`.compat`).

    The tests run apart from the answer's file: in their process the item's own file (with
    its reference answer in place, trusted task data) defines every name the tests read but
    the entry point, which comes from the answer's file; a helper of the file that the answer
    redefines is the file's own for the tests (``helpers: completion``: the answer's)."""

    def __init__(self, compat: list[str] | tuple[str, ...] = (), **options: Any) -> None:
        super().__init__(**options)
        self.compat = tuple(compat)
        self.prelude = prelude(self.compat)

    def identity(self) -> dict[str, Any]:
        return {**super().identity(), "compat": list(self.compat)}

    def score_many(self, items: Sequence[tuple[Any, Any]], context: ScoreContext) -> list[Score]:
        placed = [(s, assemble(s.target, p)) for s, p in items]
        runnable = [i for i, (_, built) in enumerate(placed) if built.source is not None]
        scores: list[Score | None] = [None] * len(items)
        for index, (_, built) in enumerate(placed):
            if built.source is None:
                metadata = {"verdict": "failed", "sandbox_verdict": "no_code"}
                scores[index] = Score(0.0, explanation=f"failed: {built.error}", metadata=metadata)
        ran = super().score_many([items[i] for i in runnable], context) if runnable else []
        for index, score in zip(runnable, ran, strict=True):
            scores[index] = score
        return [s for s in scores if s is not None]

    def _parts(self, sample: Any, prediction: str) -> tuple[str, str]:
        built = assemble(sample.target, prediction)
        return f"{self.prelude}{built.source}", sample.target["tests"]

    def _trusted(self, sample: Any) -> str:
        """The item's file with its reference answer in place (or ``pass`` for the body), run
        in the tests' process; nothing with ``helpers: completion`` or when it cannot be
        built or does not compile."""
        if self.helpers == HELPERS_COMPLETION:
            return ""
        target = sample.target
        built = assemble(target, target.get("reference") or "pass")
        if built.source is None:
            return ""
        return trusted_code(f"{self.prelude}{built.source}")
