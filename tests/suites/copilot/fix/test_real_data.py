"""Real cases from the data mirror (skipped without ``../shared/data``): files come out of
the repository tars, and eslint cases reproduce, are artefacts or are missing as expected."""

from __future__ import annotations

from seebench.suites.copilot.fix.analysis import AnalysisRunner
from seebench.suites.copilot.fix.analyzers import analyzer
from seebench.suites.copilot.fix.cases import read_fix_cases
from seebench.suites.copilot.fix.reproduce import LazySandbox, case_verdicts
from seebench.suites.copilot.fix.scorer import FixScorer


def test_every_case_is_read_with_its_file_or_the_reason(mirror_files):
    counts = {}
    for name in ("pylint", "pyright", "eslint", "tsc"):
        rows = read_fix_cases(mirror_files, analyzer=name)
        counts[name] = (len(rows), sum(r["file"] is not None for r in rows))
        assert all((r["file"] is None) == bool(r["file_error"]) for r in rows)
    assert {k: v[0] for k, v in counts.items()} == {
        "pylint": 186,
        "pyright": 237,
        "eslint": 68,
        "tsc": 79,
    }
    assert counts["eslint"][1] == 67 and counts["tsc"][1] == 72
    pyright = read_fix_cases(mirror_files, analyzer="pyright")
    missing = next(r for r in pyright if r["case_id"] == "case-186")
    assert "AUTOMATIC1111+stable-diffusion-webui" in missing["file_error"]


def test_eslint_cases_reproduce_or_are_artefacts(mirror_files, analyzers_ok, tmp_path):
    wanted = {"case-445", "case-426", "case-431", "case-443"}
    rows = [r for r in read_fix_cases(mirror_files, analyzer="eslint") if r["case_id"] in wanted]
    tool = analyzer("eslint")
    sandbox = LazySandbox(tool, workers=1)
    try:
        verdicts = case_verdicts(rows, AnalysisRunner(tool, sandbox))
    finally:
        sandbox.close()
    by_case = {v.case_id: v for v in verdicts}
    assert by_case["case-445"].verdict == "artefact"
    for case in ("case-426", "case-431", "case-443"):
        assert by_case[case].verdict == "reproduced", by_case[case].reason
    # the case records line 643; the warning (found by rule and message) is on 644
    assert by_case["case-426"].line == 644


def test_a_real_fix_of_a_real_case_counts(mirror_files, analyzers_ok, tmp_path):
    from seebench.data.dataset import Sample
    from seebench.scoring.core import ScoreContext

    (row,) = [
        r for r in read_fix_cases(mirror_files, analyzer="eslint") if r["case_id"] == "case-443"
    ]
    (verdict,) = case_verdicts([row])
    target = {
        "case_id": row["case_id"],
        "analyzer": "eslint",
        "rule": row["rule"],
        "message": row["message"],
        "line": verdict.line,
        "language": "javascript",
        "file_name": row["file_path"],
        "original": row["file"],
        "warnings": verdict.warnings,
    }
    # koa's request.length getter has a bare `return` when Content-Length is empty
    flagged = row["file"].splitlines()[verdict.line - 1]
    assert flagged.strip() == "if (len === '') return"
    fixed = row["file"].replace(flagged, flagged + " undefined", 1)
    scorer = FixScorer("eslint", workers=1)
    try:
        (score,) = scorer.score_many(
            [(Sample("s", "p", target), fixed)],
            ScoreContext(task=None, artifacts=tmp_path),  # type: ignore[arg-type]
        )
    finally:
        scorer.close()
    assert score.metadata["target_fixed"], score.metadata
    assert score.value == 1.0 and not score.metadata["new_warnings"]
