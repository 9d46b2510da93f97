"""The driver's report is read defensively; a summary says what a run showed."""

from __future__ import annotations

import json

from seebench.suites.copilot.testgen.driver import (
    REPORT_MARK,
    read_report,
    read_verdicts,
    run_files,
    summary,
)


def _line(report: object) -> str:
    return "noise\n" + REPORT_MARK + json.dumps(report) + "\n"


def _entry(**counts: int) -> dict:
    return {"passed": 0, "failed": 0, "errors": 0, "skipped": 0, "collect_error": False, **counts}


def test_a_report_gives_validity_pass_invocation_and_kills():
    report = read_report(
        _line(
            {
                "status": 1,
                "invoked": True,
                "output": "",
                "files": {
                    "test_trivial.py": _entry(passed=1),
                    "test_original.py": _entry(passed=2),
                    "test_mutant_01.py": _entry(passed=1, failed=1),
                    "test_mutant_02.py": _entry(passed=2),
                },
            }
        )
    )
    facts = summary(report, mutants=3)  # the third mutant's file has no entry: not killed
    assert facts["valid"] and facts["passed"] and facts["invokes"]
    assert facts["killed_by_mutant"] == [True, False, False] and facts["killed"] == 1


def test_no_test_collected_is_not_a_pass():
    report = read_report(
        _line(
            {
                "status": 5,
                "invoked": False,
                "output": "",
                "files": {"test_trivial.py": _entry(passed=1)},
            }
        )
    )
    assert summary(report, 0)["passed"] is False


def test_malformed_reports_are_none():
    assert read_report("no report at all") is None
    assert read_report(_line({"status": 0})) is None
    assert (
        read_report(
            _line({"status": 0, "invoked": 1, "output": "", "files": {"a": _entry(passed=-1)}})
        )
        is None
    )
    assert read_verdicts(_line(["passed", "AssertionError"]), 2) == ["passed", "AssertionError"]
    assert read_verdicts(_line(["passed"]), 2) is None
    assert read_verdicts(_line([1, 2]), 2) is None


def test_every_variant_file_is_a_module_followed_by_the_test():
    files = run_files(
        "P\n", "def f():\n    return 1\n", "def test_f():\n    assert f() == 1", ["M1", "M2"]
    )
    assert sorted(files) == [
        "test_mutant_01.py",
        "test_mutant_02.py",
        "test_original.py",
        "test_trivial.py",
    ]
    assert (
        files["test_mutant_02.py"].startswith("P\nM2")
        and "def test_f" in files["test_mutant_02.py"]
    )
    assert "def test_f" not in files["test_trivial.py"]
