"""The generate scorers: syntax by two parsers, hidden tests in the sandbox."""

from __future__ import annotations

from types import SimpleNamespace

from seebench.scoring.core import ScoreContext
from seebench.suites.copilot.generate.compat import prelude
from seebench.suites.copilot.generate.scorers import GeneratedSyntaxScorer, GeneratedTestsScorer
from tests.suites.copilot.generate.support import sandbox_or_skip

TARGET = {
    "entry_point": "inc",
    "context": 'def inc(x):\n    """Add one."""\n    # Your code here\n',
    "placeholder": "    # Your code here",
    "tests": "assert inc(1) == 2\nassert inc(-1) == 0\n",
    "reference": "    return x + 1\n",
}
BARE = {**TARGET, "context": "def inc(x):\n    # Your code here\n"}


def _sample(target: dict, name: str = "s1") -> SimpleNamespace:
    return SimpleNamespace(id=name, target=target, input="")


def _context(tmp_path) -> ScoreContext:
    return ScoreContext(task=None, artifacts=tmp_path)  # type: ignore[arg-type]


def test_syntax_needs_both_parsers(tmp_path):
    scorer = GeneratedSyntaxScorer()
    ok = scorer.score(_sample(TARGET), "return x + 1", _context(tmp_path))
    assert ok.value == 1.0 and ok.metadata["mode"] == "body"
    # a block holding only a comment: tree-sitter accepts it, CPython does not
    bare = scorer.score(_sample(BARE), "# Your code here", _context(tmp_path))
    assert bare.value == 0.0
    assert bare.metadata["tree_sitter_ok"] is True and bare.metadata["python_ok"] is False
    broken = scorer.score(_sample(TARGET), "return (x +", _context(tmp_path))
    assert broken.value == 0.0 and broken.metadata["tree_sitter_ok"] is False
    assert scorer.score(_sample(TARGET), "", _context(tmp_path)).value == 0.0


def test_hidden_tests_judge_the_placed_answer_in_the_sandbox(tmp_path):
    sandbox_or_skip()
    scorer = GeneratedTestsScorer(cpu_s=5, wall_s=20, workers=1)
    items = [
        (_sample(TARGET, "good"), "return x + 1"),
        (_sample(TARGET, "whole"), "def inc(x):\n    return 1 + x\n"),
        (_sample(TARGET, "wrong"), "return x"),
        (_sample({**TARGET, "placeholder": None}, "unplaced"), "return x + 1"),
    ]
    try:
        scores = scorer.score_many(items, _context(tmp_path))
    finally:
        scorer.close()
    assert [s.value for s in scores] == [1.0, 1.0, 0.0, 0.0]
    assert scores[2].metadata["verdict"] == "failed"
    assert scores[3].metadata["verdict"] == "failed"
    assert scores[3].metadata["sandbox_verdict"] == "no_code"
    log = (tmp_path / scores[0].metadata["log"]).read_text()
    assert "return x + 1" in log and "assert inc(-1) == 0" in log  # the assembled program


def test_the_compat_prelude_restores_dataframe_append_only_where_missing():
    namespace: dict = {}
    exec(prelude(["pandas_dataframe_append"]), namespace)
    import pandas

    frame = pandas.DataFrame({"a": [1]})
    assert list(frame.append(pandas.DataFrame({"a": [2]}), ignore_index=True)["a"]) == [1, 2]
