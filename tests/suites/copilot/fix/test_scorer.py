"""The fix verdicts: the target mapped through the diff, new warnings, the paper's rule."""

from __future__ import annotations

import math

from seebench.scoring.core import Score
from seebench.suites.copilot.fix.analysis import Analysis
from seebench.suites.copilot.fix.analyzers import Diagnostic
from seebench.suites.copilot.fix.metrics import (
    fix_new_warning_rate,
    fix_rate,
    fix_suppressed_rate,
    fix_target_rate,
)
from seebench.suites.copilot.fix.scorer import explain, judge, mapped_lines, new_warnings

ORIGINAL = "import os\n\n\ndef f():\n    return unicode(os.sep)\n\n\nprint(f())\n"
TARGET = {
    "rule": "undefined-variable",
    "message": "Undefined variable 'unicode'",
    "line": 5,
    "language": "python",
    "original": ORIGINAL,
}
WARNING = Diagnostic("undefined-variable", "Undefined variable 'unicode'", 5, 12)


def test_an_unchanged_line_maps_to_its_new_number_a_changed_one_to_its_replacement():
    edited = "import os\nimport sys\n\n\ndef f():\n    return str(os.sep)\n\n\nprint(f())\n"
    assert mapped_lines(ORIGINAL, edited, 1) == (1, 1)
    assert mapped_lines(ORIGINAL, edited, 8) == (9, 9)
    assert mapped_lines(ORIGINAL, edited, 5) == (6, 6)
    deleted = ORIGINAL.replace("    return unicode(os.sep)\n", "")
    assert mapped_lines(ORIGINAL, deleted, 5) == (5, 5)
    two = ORIGINAL.replace("    return unicode(os.sep)\n", "    text = os.sep\n    return text\n")
    assert mapped_lines(ORIGINAL, two, 5) == (5, 6)


def test_new_warnings_are_counted_by_rule_and_message_not_by_line():
    moved = Diagnostic("no-member", "Module 'os' has no 'x' member", 9)
    before = [WARNING, Diagnostic("no-member", "Module 'os' has no 'x' member", 7)]
    assert new_warnings(before, [moved]) == []
    extra = Diagnostic("undefined-variable", "Undefined variable 'y'", 2)
    assert new_warnings(before, [moved, extra, extra]) == [extra, extra]


def test_a_fix_that_trades_the_warning_for_another_is_not_a_fix_but_hits_the_target():
    edited = ORIGINAL.replace("unicode(", "unicod(")
    other = Diagnostic("undefined-variable", "Undefined variable 'unicod'", 5, 12)
    verdicts = judge(TARGET, edited, Analysis((WARNING,)), Analysis((other,)))
    assert verdicts["syntax_ok"] and not verdicts["fixed"]
    assert not verdicts["target_fixed"]  # the same rule is still reported at that line
    assert verdicts["new_warnings"]

    edited = ORIGINAL.replace("unicode(", "str(")
    elsewhere = Diagnostic("no-member", "Module 'os' has no 'q' member", 1)
    verdicts = judge(TARGET, edited, Analysis((WARNING,)), Analysis((elsewhere,)))
    assert verdicts["target_fixed"] and not verdicts["fixed"] and verdicts["new_warnings"]

    verdicts = judge(TARGET, edited, Analysis((WARNING,)), Analysis(()))
    assert verdicts["fixed"] and verdicts["target_fixed"] and not verdicts["new_warnings"]


def test_an_edit_that_does_not_parse_fixes_nothing():
    broken = ORIGINAL.replace("def f():", "def f(:")
    verdicts = judge(TARGET, broken, Analysis((WARNING,)), Analysis(()))
    assert not verdicts["syntax_ok"] and not verdicts["fixed"] and not verdicts["target_fixed"]
    assert "line 4" in verdicts["syntax_error"]


def test_the_null_answer_fixes_nothing():
    verdicts = judge(TARGET, ORIGINAL, Analysis((WARNING,)), Analysis((WARNING,)))
    assert verdicts["syntax_ok"]
    assert not verdicts["fixed"] and not verdicts["target_fixed"] and not verdicts["new_warnings"]


def test_an_edit_that_silences_the_analyzer_is_tampered_not_fixed():
    silenced = ORIGINAL.replace("unicode(os.sep)", "unicode(os.sep)  # pylint: disable=E0602")
    verdicts = judge(TARGET, silenced, Analysis((WARNING,)), Analysis(()))  # the count drops
    assert verdicts["syntax_ok"] and verdicts["warnings_after"] < verdicts["warnings_before"]
    assert not verdicts["fixed"] and not verdicts["target_fixed"]
    assert verdicts["verdict"] == "tampered" and verdicts["suppressed"]
    assert verdicts["suppressions"] == [{"text": "pylint: disable=E0602", "line": 5}]
    why = explain(verdicts, 1, 0)
    assert why.startswith("tampered:") and "'pylint: disable=E0602' (line 5)" in why


def test_a_real_fix_next_to_an_added_directive_is_still_tampered():
    both = ORIGINAL.replace("unicode(os.sep)", "str(os.sep)").replace(
        "import os", "import os  # noqa"
    )
    verdicts = judge(TARGET, both, Analysis((WARNING,)), Analysis(()))
    assert verdicts["verdict"] == "tampered" and not verdicts["fixed"]


def test_a_directive_the_original_had_does_not_taint_a_fix():
    original = ORIGINAL.replace("import os", "import os  # noqa: F401")
    target = TARGET | {"original": original}
    edited = original.replace("unicode(os.sep)", "str(os.sep)")
    verdicts = judge(target, edited, Analysis((WARNING,)), Analysis(()))
    assert verdicts["fixed"] and verdicts["verdict"] == "passed" and not verdicts["suppressed"]
    null = judge(target, original, Analysis((WARNING,)), Analysis((WARNING,)))
    assert null["verdict"] == "failed" and null["suppressions"] == []


def test_metrics_read_the_verdicts_and_leave_unscored_samples_out():
    scores = [
        Score(1.0, metadata={"fixed": True, "target_fixed": True, "new_warnings": False}),
        Score(0.0, metadata={"fixed": False, "target_fixed": True, "new_warnings": True}),
        Score(None, explanation="sandbox_unavailable"),
    ]
    assert fix_rate(scores) == 0.5
    assert fix_target_rate(scores) == 1.0
    assert fix_new_warning_rate(scores) == 0.5
    assert math.isnan(fix_suppressed_rate(scores))  # no sample judged for it
    scores.append(Score(0.0, metadata={"fixed": False, "suppressed": True}))
    scores.append(Score(1.0, metadata={"fixed": True, "suppressed": False}))
    assert fix_suppressed_rate(scores) == 0.5
