"""Part 1's fix verdicts reject a Python block left with only a comment (tree-sitter accepts it)."""

from __future__ import annotations

from seebench.suites.copilot.fix.analysis import Analysis
from seebench.suites.copilot.fix.analyzers import Diagnostic
from seebench.suites.copilot.fix.scorer import judge

ORIGINAL = "def f(x):\n    return x.nope\n"
WARNING = Diagnostic(line=2, column=11, rule="no-member", message="x has no member nope")


def _analysis(*diagnostics: Diagnostic) -> Analysis:
    return Analysis(diagnostics=tuple(diagnostics))


def test_a_comment_only_body_is_not_a_fix():
    target = {"language": "python", "original": ORIGINAL, "line": 2, "rule": "no-member"}
    edited = "def f(x):\n    # return x.nope\n"
    verdicts = judge(target, edited, _analysis(WARNING), _analysis())
    assert not verdicts["syntax_ok"] and not verdicts["fixed"]
    assert verdicts["syntax_error"].startswith("Python:")


def test_a_real_fix_still_counts():
    target = {"language": "python", "original": ORIGINAL, "line": 2, "rule": "no-member"}
    verdicts = judge(target, "def f(x):\n    return x\n", _analysis(WARNING), _analysis())
    assert verdicts["syntax_ok"] and verdicts["fixed"] and verdicts["target_fixed"]
