"""The ``copilot_doc`` scorer: every check of :mod:`.checks` on one answer, one Score.

The score's value is 1.0 when the answer passes both syntax and format correctness, 0.0
otherwise, and ``None`` (unscored, counted) for a case excluded from the data (its function
could not be found at its line range). ``metadata["checks"]`` holds each check's outcome
(the ``doc_*_rate`` metrics read them) and ``metadata["problems"]`` the reason of each
failed one. With ``artifacts`` on, the answer, the edited file's diff and the verdict are
kept per sample under ``copilot_doc/`` in the unit's artifacts folder.
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from seebench import safe_files
from seebench.scoring.core import Score, ScoreContext
from seebench.scoring.run import stable_hash
from seebench.suites.copilot.doc.checks import Verdict, check_answer
from seebench.suites.copilot.doc.options import OPTIONS  # noqa: F401  (its options)


class DocScorer:
    """Judges a doc answer inserted back into its whole file (see :mod:`.checks`)."""

    def __init__(self, artifacts: bool = True) -> None:
        self.artifacts = artifacts

    def identity(self) -> dict[str, Any]:
        import tree_sitter

        return {"checker": "copilot_doc/1", "tree_sitter": getattr(tree_sitter, "__version__", "")}

    def score(self, sample: Any, prediction: Any, context: ScoreContext) -> Score:
        target = sample.target
        if target.get("excluded"):
            return Score(None, explanation=f"case excluded: {target['excluded']}")
        verdict = check_answer(target, prediction)
        metadata: dict[str, Any] = {"checks": verdict.checks}
        if verdict.problems:
            metadata["problems"] = verdict.problems
        if target["reference"]["errors_in_file"]:
            metadata["file_had_syntax_errors"] = True
        if self.artifacts and isinstance(prediction, str):
            metadata["log"] = self._write_log(context.artifacts, sample, prediction, verdict)
        failed = [name for name, ok in verdict.checks.items() if not ok and name != "format"]
        return Score(
            1.0 if verdict.passed else 0.0,
            explanation="; ".join(verdict.problems.get(c, c) for c in failed) or None,
            metadata=metadata,
        )

    def score_many(self, items: Sequence[tuple[Any, Any]], context: ScoreContext) -> list[Score]:
        return [self.score(sample, prediction, context) for sample, prediction in items]

    @staticmethod
    def _write_log(artifacts: Path, sample: Any, answer: str, verdict: Verdict) -> str:
        target = sample.target
        name = f"copilot_doc/{target['case_id']}-{stable_hash(answer, 8)}.json"
        diff = difflib.unified_diff(
            target["file"].splitlines(keepends=True),
            (verdict.edited or "").splitlines(keepends=True),
            f"a/{target['file_name']}",
            f"b/{target['file_name']}",
        )
        entry = {
            "case_id": target["case_id"],
            "answer": answer,
            "diff": "".join(diff),
            "checks": verdict.checks,
            "problems": verdict.problems,
        }
        path = artifacts / name
        path.parent.mkdir(parents=True, exist_ok=True)
        safe_files.atomic_write_text(path, json.dumps(entry, ensure_ascii=False, indent=1))
        return name
