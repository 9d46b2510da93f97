"""The doc checks on real cases of the data mirror (``../shared/data/copilot_harness/doc``;
skipped without it): the first cases of each language, null and oracle answers."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import pytest

from seebench.suites.copilot.doc.cases import build_case
from seebench.suites.copilot.doc.checks import check_answer

MIRROR = Path(__file__).resolve().parents[4] / ".." / "shared" / "data" / "copilot_harness" / "doc"
PER_LANGUAGE = 4


def _first_cases() -> dict[str, list[dict]]:
    if not MIRROR.is_dir():
        pytest.skip("no ../shared/data/copilot_harness/doc mirror")
    return _read_first_cases()


@cache
def _read_first_cases() -> dict[str, list[dict]]:
    picked: dict[str, list[dict]] = {}
    for number in range(1, 400):
        folder = MIRROR.resolve() / f"case-{number}"
        if not folder.is_dir():
            continue
        case = json.loads((folder / f"case-{number}.json").read_text(encoding="utf-8"))
        chosen = picked.setdefault(case["language"], [])
        if len(chosen) < PER_LANGUAGE:
            source = (folder / case["file_path"]).read_text(encoding="utf-8")
            chosen.append(build_case(case, source))
    return picked


def test_real_cases_null_is_syntax_correct_and_never_format_correct():
    picked = _first_cases()
    assert sorted(picked) == ["cpp", "csharp", "java", "javascript", "python", "typescript"]
    for records in picked.values():
        for record in records:
            assert record["excluded"] is None, record["case_id"]
            verdict = check_answer(record, record["function"])
            assert verdict.checks["syntax"] and verdict.checks["unchanged"], record["case_id"]
            assert not verdict.checks["format"], record["case_id"]


def test_real_oracles_are_placed_and_leave_the_code_unchanged():
    oracles = [r for records in _first_cases().values() for r in records if r["oracle"]]
    assert oracles
    for record in oracles:
        verdict = check_answer(record, record["oracle"])
        assert verdict.checks["placement"] and verdict.checks["unchanged"], record["case_id"]
        assert verdict.checks["syntax"], record["case_id"]
