"""The repository-level verdicts next to part 1's, the metrics, and the scorer end to end on
a tiny hand-made repository where the two rules disagree in both directions (pylint)."""

from __future__ import annotations

import math
from types import SimpleNamespace

from seebench.scoring.core import Score, ScoreContext
from seebench.suites.copilot.fix.analysis import Analysis
from seebench.suites.copilot.fix.analyzers import Diagnostic
from seebench.suites.copilot.fix.scorer import judge
from seebench.suites.copilot.repo_fix import metrics
from seebench.suites.copilot.repo_fix.repo_analysis import RepoAnalysis
from seebench.suites.copilot.repo_fix.scorer import RepoFixScorer, repo_verdicts

UTIL = "def helper():\n    return undefined_name\n\n\ndef used():\n    return 1\n"
MAIN = "from pkg import util\n\nprint(util.used())\n"
NAMES = "undefined_name = 3\n"
REPO = {"pkg/__init__.py": "", "pkg/util.py": UTIL, "pkg/main.py": MAIN, "pkg/names.py": NAMES}
WARNING = Diagnostic("undefined-variable", "Undefined variable 'undefined_name'", 2, 12)


def target(checksum: str = "0" * 64) -> dict:
    return {
        "case_id": "case-1",
        "analyzer": "pylint",
        "rule": WARNING.rule,
        "message": WARNING.message,
        "line": 2,
        "language": "python",
        "file_name": "pkg/util.py",
        "original": UTIL,
        "warnings": 1,
        "repo": "example/tiny",
        "commit": "a" * 40,
        "repo_tar_sha256": checksum,
    }


def test_a_fix_that_breaks_another_file_is_fixed_alone_but_not_in_the_repository():
    edited = "def helper():\n    return 0\n"
    file_verdicts = judge(target(), edited, Analysis((WARNING,)), Analysis(()))
    moved = Diagnostic("no-member", "Module 'pkg.util' has no 'used' member", 3, 7)
    before = RepoAnalysis({"pkg/util.py": (WARNING,), "pkg/main.py": ()})
    after = RepoAnalysis({"pkg/util.py": (), "pkg/main.py": (moved,)})
    verdicts = repo_verdicts(target(), file_verdicts, before, after)
    assert file_verdicts["fixed"] and not verdicts["repo_fixed"]
    assert verdicts["disagreement"] == "file_only"
    assert verdicts["repo_target_reproduced"] and verdicts["repo_target_fixed"]
    assert verdicts["repo_new_warnings"] and verdicts["repo_other_files"] == ["pkg/main.py"]
    assert verdicts["repo_new_warning_list"][0]["file"] == "pkg/main.py"
    assert (verdicts["repo_warnings_before"], verdicts["repo_warnings_after"]) == (1, 1)


def test_a_target_the_repository_does_not_report_is_recorded_as_not_reproduced():
    verdicts = repo_verdicts(
        target(),
        judge(target(), UTIL, Analysis((WARNING,)), Analysis((WARNING,))),
        RepoAnalysis({"pkg/util.py": ()}),
        RepoAnalysis({"pkg/util.py": ()}),
    )
    assert not verdicts["repo_target_reproduced"] and verdicts["disagreement"] == "agree"
    assert not verdicts["repo_fixed"]
    assert verdicts["repo_target_fixed"] is None  # no target there to fix
    assert math.isnan(metrics.repo_fix_target_rate([Score(0.0, metadata=verdicts)]))


def test_a_directive_that_silences_the_warning_fixes_nothing_in_the_repository_either():
    silenced = UTIL.replace("undefined_name\n", "undefined_name  # pylint: disable=E0602\n")
    file_verdicts = judge(target(), silenced, Analysis((WARNING,)), Analysis(()))
    before = RepoAnalysis({"pkg/util.py": (WARNING,), "pkg/main.py": ()})
    after = RepoAnalysis({"pkg/util.py": (), "pkg/main.py": ()})  # the analyzer obeyed
    verdicts = repo_verdicts(target(), file_verdicts, before, after)
    assert (verdicts["repo_warnings_before"], verdicts["repo_warnings_after"]) == (1, 0)
    assert not verdicts["repo_fixed"] and not verdicts["repo_target_fixed"]
    assert verdicts["verdict"] == "tampered" and verdicts["disagreement"] == "agree"
    scores = [Score(0.0, metadata=file_verdicts | verdicts), Score(0.0, metadata={})]
    assert metrics.repo_fix_suppressed_rate(scores) == 1.0  # the second was not judged
    fixed = judge(target(), UTIL.replace("undefined_name", "0"), Analysis((WARNING,)), Analysis(()))
    assert repo_verdicts(target(), fixed, before, after)["verdict"] == "passed"


def test_metrics_count_disagreements_in_each_direction_and_skip_unscored_samples():
    scores = [
        Score(0.0, metadata={"fixed": True, "repo_fixed": False, "disagreement": "file_only"}),
        Score(1.0, metadata={"fixed": False, "repo_fixed": True, "disagreement": "repo_only"}),
        Score(1.0, metadata={"fixed": True, "repo_fixed": True, "disagreement": "agree"}),
        Score(0.0, metadata={"fixed": False, "repo_fixed": False, "disagreement": "agree"}),
        Score(None, explanation="sandbox_unavailable"),
    ]
    assert metrics.repo_fix_rate(scores) == 0.5
    assert metrics.repo_fix_file_rate(scores) == 0.5
    assert metrics.repo_fix_disagreement_rate(scores) == 0.5
    assert metrics.repo_fix_file_only_rate(scores) == 0.25
    assert metrics.repo_fix_repo_only_rate(scores) == 0.25
    # an invalid answer (no disagreement verdict) is left out of the disagreement rates
    invalid = Score(0.0, metadata={"syntax_ok": False, "fixed": False, "repo_fixed": False})
    assert metrics.repo_fix_disagreement_rate([invalid, *scores]) == 0.5


def test_the_scorer_judges_both_rules_on_a_real_repository(analyzer_ok, cached_repo, tmp_path):
    analyzer_ok("pylint")
    checksum = cached_repo(REPO)
    sample = SimpleNamespace(id="s1", target=target(checksum))
    breaks_main = "def helper():\n    return 0\n"  # removes used(): main.py now fails
    imports_sibling = "from pkg.names import undefined_name\n\n\n" + UTIL  # resolves in repo only
    answers = [UTIL, breaks_main, imports_sibling, ""]
    scorer = RepoFixScorer("pylint")
    context = ScoreContext(task=None, artifacts=tmp_path / "artifacts")  # type: ignore[arg-type]
    try:
        scores = scorer.score_many([(sample, a) for a in answers], context)
    finally:
        scorer.close()
    null, file_only, repo_only, invalid = scores
    assert null.value == 0.0 and null.metadata["disagreement"] == "agree"
    assert null.metadata["repo_target_reproduced"] and null.metadata["env"].startswith("none")
    assert file_only.metadata["fixed"] and file_only.value == 0.0, file_only
    assert file_only.metadata["disagreement"] == "file_only"
    assert file_only.metadata["repo_other_files"] == ["pkg/main.py"]
    assert repo_only.value == 1.0 and not repo_only.metadata["fixed"], repo_only
    assert repo_only.metadata["disagreement"] == "repo_only"
    assert invalid.value == 0.0 and "invalid answer" in invalid.explanation
    folder = tmp_path / "artifacts" / file_only.metadata["artifacts"]
    assert (folder / "diff.patch").read_text().startswith("--- a/pkg/util.py")


def test_a_repository_missing_from_the_cache_leaves_the_sample_unscored(tmp_path):
    sample = SimpleNamespace(id="s1", target=target("f" * 64))
    context = ScoreContext(task=None, artifacts=tmp_path)  # type: ignore[arg-type]
    [score] = RepoFixScorer("pylint").score_many([(sample, UTIL)], context)
    assert score.value is None and "not in the data cache" in score.explanation


def test_a_block_left_with_only_a_comment_fails_the_python_gate():
    from seebench.suites.copilot.fix.scorer import python_syntax_gate

    edited = "def helper():\n    # return undefined_name\n\n\ndef used():\n    return 1\n"
    gated = judge(target(), edited, Analysis((WARNING,)), Analysis(()))  # tree-sitter accepts it
    assert not gated["syntax_ok"] and not gated["fixed"] and not gated["target_fixed"]
    assert gated["syntax_error"].startswith("Python: expected an indented block")
    python2 = {**target(), "original": "print 'x'\n"}  # never parsed here: not judged
    accepted = {"syntax_ok": True, "fixed": True}
    assert python_syntax_gate(python2, "print 'y'\n", accepted) == accepted
