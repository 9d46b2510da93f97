"""The ``copilot_fix`` scorer: analyse the edited file in the sandbox exactly as the original.

Per sample (the answer is the whole edited file):

- ``syntax_ok``: the edited file parses (tree-sitter, the case's language; for Python also
  CPython's parser, which rejects a block left with only a comment, when the original parses);
- ``fixed`` (the paper's fix rate, the score's value): syntax ok and strictly fewer warnings
  than the original;
- ``target_fixed``: syntax ok and no warning of the case's rule left at the target's place,
  the target line mapped into the edited file through the diff (``difflib``): an unchanged
  line maps to its new number, a changed or deleted one to the lines that replaced it;
- ``new_warnings``: a (rule, message) pair occurs more often than in the original;
- ``suppressed``: the edit adds an analyzer directive (``# pylint: disable``,
  ``# type: ignore``, ``// eslint-disable-next-line``, ``// @ts-ignore``...; see
  :mod:`seebench.suites.copilot.fix.suppressions`) that the original lacks. Such an edit hides
  warnings instead of removing them: it is neither ``fixed`` nor ``target_fixed``, whatever
  the analyzer counts, and its ``verdict`` is ``tampered`` (it changed how it is judged);
- ``verdict``: ``passed`` (fixed), ``failed`` or ``tampered``.

Artifacts per sample (``copilot_fix/<sample id>-<answer hash>/``): the edited file, the
unified diff and the analyzer output on both files.
"""

from __future__ import annotations

import difflib
import json
from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path, PurePosixPath
from typing import Any

from seebench import safe_files
from seebench.scoring.core import Score, ScoreContext
from seebench.scoring.run import stable_hash
from seebench.suites.copilot.fix.analysis import Analysis, AnalysisRunner
from seebench.suites.copilot.fix.analyzers import Diagnostic, analyzer
from seebench.suites.copilot.fix.options import OPTIONS  # noqa: F401  (its options)
from seebench.suites.copilot.fix.suppressions import SUPPRESSIONS_VERSION, added_directives


def mapped_lines(original: str, edited: str, line: int) -> tuple[int, int]:
    """The 1-based line span of ``edited`` that stands where ``line`` of ``original`` was."""
    before, after = original.splitlines(), edited.splitlines()
    matcher = difflib.SequenceMatcher(None, before, after, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if not i1 <= line - 1 < i2:  # inserts (i1 == i2) hold no original line
            continue
        if tag == "equal":
            moved = j1 + (line - 1 - i1) + 1
            return moved, moved
        return j1 + 1, max(j2, j1 + 1)  # replaced (or deleted: the line now in its place)
    last = max(1, len(after))
    return last, last


def new_warnings(before: Sequence[Diagnostic], after: Sequence[Diagnostic]) -> list[Diagnostic]:
    """Warnings of ``after`` whose (rule, message) occurs more often than in ``before``."""
    budget = Counter((d.rule, d.message) for d in before)
    extra = []
    for diagnostic in after:
        key = (diagnostic.rule, diagnostic.message)
        if budget[key] > 0:
            budget[key] -= 1
        else:
            extra.append(diagnostic)
    return extra


def judge(target: dict[str, Any], edited: str, before: Analysis, after: Analysis) -> dict[str, Any]:
    """The verdicts of one edited file (see the module docstring)."""
    from seebench.suites.copilot.languages import check_syntax

    syntax = check_syntax(edited, target["language"])
    start, end = mapped_lines(target["original"], edited, target["line"])
    left = [d for d in after.diagnostics if d.rule == target["rule"] and start <= d.line <= end]
    added = new_warnings(before.diagnostics, after.diagnostics)
    verdicts = {
        "syntax_ok": syntax.ok,
        "syntax_error": None if syntax.ok else syntax.message,
        "warnings_before": len(before.diagnostics),
        "warnings_after": len(after.diagnostics),
        "fixed": syntax.ok and len(after.diagnostics) < len(before.diagnostics),
        "target_fixed": syntax.ok and not left,
        "target_span": [start, end],
        "new_warnings": bool(added),
        "new_warning_list": [d.as_dict() for d in added[:20]],
    }
    verdicts = python_syntax_gate(target, edited, verdicts)
    return suppression_gate(target, edited, verdicts)


def python_syntax_gate(
    target: Mapping[str, Any], edited: str, verdicts: dict[str, Any]
) -> dict[str, Any]:
    """Part 1's verdicts with Python's own parser as a second syntax gate: tree-sitter accepts
    a block left with only a comment (``def f():`` then ``# return 1``), which Python rejects.
    An edit fails the gate when the original parses with :func:`ast.parse` and the edit does
    not (files that never parsed under this Python, such as Python 2 code, are not judged)."""
    if target["language"] != "python" or not verdicts["syntax_ok"]:
        return verdicts
    import ast

    try:
        ast.parse(target["original"])
    except (SyntaxError, ValueError):
        return verdicts
    try:
        ast.parse(edited)
    except (SyntaxError, ValueError) as exc:
        lineno = getattr(exc, "lineno", None)
        where = f" (line {lineno})" if lineno else ""
        message = f"Python: {getattr(exc, 'msg', exc)}{where}"
        return verdicts | {
            "syntax_ok": False,
            "syntax_error": message,
            "fixed": False,
            "target_fixed": False,
        }
    return verdicts


def suppression_gate(
    target: Mapping[str, Any], edited: str, verdicts: dict[str, Any]
) -> dict[str, Any]:
    """The verdicts with the suppression rule applied: an edit that adds an analyzer
    directive the original lacks fixes nothing (``fixed`` and ``target_fixed`` false) and is
    ``tampered``; otherwise the ``verdict`` is ``passed`` when ``fixed``, else ``failed``."""
    added = added_directives(target["original"], edited, target["language"])
    verdicts = verdicts | {
        "suppressed": bool(added),
        "suppressions": [d.as_dict() for d in added[:20]],
    }
    if added:
        return verdicts | {"fixed": False, "target_fixed": False, "verdict": "tampered"}
    return verdicts | {"verdict": "passed" if verdicts["fixed"] else "failed"}


def explain(verdicts: Mapping[str, Any], before: int, after: int, scope: str = "") -> str:
    """Why an edit is not a fix: the directives it adds, its syntax error, or the counts."""
    if verdicts["suppressed"]:
        shown = ", ".join(f"{d['text']!r} (line {d['line']})" for d in verdicts["suppressions"])
        return f"tampered: adds analyzer directives instead of fixing: {shown}"[:500]
    if not verdicts["syntax_ok"]:
        return f"syntax error: {verdicts['syntax_error']}"
    return f"{scope}{before} -> {after} warnings"


class FixScorer:
    """Scores an edited file 1.0 when the paper's fix rule holds (syntax ok, strictly fewer
    warnings), 0.0 otherwise; unscored when the analyzer could not run (no sandbox, a tool
    missing). Metrics read the other verdicts from the metadata."""

    def __init__(self, analyzer: str, workers: int = 2) -> None:
        self.tool = _analyzer(analyzer)
        self.workers = workers
        self.unsafe_host_exec = False
        self._sandbox: Any = None

    def configure(self, run_options: dict[str, Any]) -> None:
        """Take the run's ``unsafe_host_exec`` (the ``--unsafe-host-exec`` flag)."""
        self.unsafe_host_exec = bool(run_options.get("unsafe_host_exec", False))

    def identity(self) -> dict[str, Any]:
        sandbox = "none" if self.unsafe_host_exec else "bwrap"
        # "syntax": 2 since Python's own parser joined tree-sitter (older scores are stale);
        # "suppressions": the version of the directive rule (added directives are tampered)
        return {
            **self.tool.identity(),
            "sandbox": sandbox,
            "syntax": 2,
            "suppressions": SUPPRESSIONS_VERSION,
        }

    def score(self, sample: Any, prediction: Any, context: ScoreContext) -> Score:
        return self.score_many([(sample, prediction)], context)[0]

    def score_many(self, items: Sequence[tuple[Any, Any]], context: ScoreContext) -> list[Score]:
        """Score ``(sample, edited file)`` pairs; originals and edits analysed in batches."""
        from seebench.suites.copilot.fix.reproduce import LazySandbox

        scores: list[Score | None] = [None] * len(items)
        files: list[tuple[str, str]] = []
        runnable: list[int] = []
        for position, (sample, prediction) in enumerate(items):
            if not isinstance(prediction, str) or not prediction.strip():
                scores[position] = Score(
                    0.0,
                    explanation="no file to analyse (invalid answer)",
                    metadata={
                        "syntax_ok": False,
                        "fixed": False,
                        "target_fixed": False,
                        "verdict": "failed",
                    },
                )
                continue
            runnable.append(position)
            name = sample.target["file_name"]
            files += [(name, sample.target["original"]), (name, prediction)]
        if runnable:
            if self._sandbox is None:
                self._sandbox = LazySandbox(self.tool, self.workers, self.unsafe_host_exec)
            try:
                self.tool.check_installed()
                analyses = AnalysisRunner(self.tool, self._sandbox).analyse(files)
            except Exception as exc:  # a missing tool: every sample unscored, with the reason
                from seebench.errors import SeebenchError

                if not isinstance(exc, SeebenchError):
                    raise
                analyses = [Analysis(error=str(exc))] * len(files)
            for index, position in enumerate(runnable):
                before, after = analyses[2 * index], analyses[2 * index + 1]
                scores[position] = self._score_one(items[position], before, after, context)
        return [s for s in scores if s is not None]

    def _score_one(
        self, item: tuple[Any, Any], before: Analysis, after: Analysis, context: ScoreContext
    ) -> Score:
        sample, edited = item
        folder = self._write_artifacts(context.artifacts, sample, edited, before, after)
        if not before.ok or not after.ok:
            reason = before.error or after.error or "analysis failed"
            return Score(None, explanation=reason, metadata={"artifacts": folder})
        verdicts = judge(sample.target, edited, before, after)
        explanation = None
        if not verdicts["fixed"]:
            explanation = explain(verdicts, verdicts["warnings_before"], verdicts["warnings_after"])
        return Score(
            1.0 if verdicts["fixed"] else 0.0,
            explanation=explanation,
            metadata={**verdicts, "artifacts": folder},
        )

    def _write_artifacts(
        self, artifacts: Path, sample: Any, edited: str, before: Analysis, after: Analysis
    ) -> str:
        name = f"copilot_fix/{sample.id}-{stable_hash(edited, 8)}"
        folder = artifacts / name
        folder.mkdir(parents=True, exist_ok=True)
        file_name = PurePosixPath(sample.target["file_name"]).name
        original = sample.target["original"]
        diff = difflib.unified_diff(
            original.splitlines(keepends=True),
            edited.splitlines(keepends=True),
            f"a/{sample.target['file_name']}",
            f"b/{sample.target['file_name']}",
        )
        analysis = {
            "analyzer": self.tool.identity(),
            "target": {k: v for k, v in sample.target.items() if k != "original"},
            "original": {**before.as_dict(), "run": before.output},
            "edited": {**after.as_dict(), "run": after.output},
        }
        _write(folder / f"edited-{file_name}", edited)
        _write(folder / "diff.patch", "".join(diff))
        _write(folder / "analysis.json", json.dumps(analysis, ensure_ascii=False, indent=1))
        return name

    def close(self) -> None:
        """Stop the sandbox workers (called when the unit is scored)."""
        if self._sandbox is not None:
            self._sandbox.close()
            self._sandbox = None


def _analyzer(name: str) -> Any:
    return analyzer(name)


def _write(path: Path, text: str) -> None:
    safe_files.atomic_write_text(path, text)
