"""Fix answers that silence the analyzer instead of fixing, through the real ``copilot_fix``
scorer with each pinned analyzer in the sandbox: every one must end ``tampered`` (score 0),
although the analyzer obeys most of them and counts fewer warnings (the test checks which
it obeys, so a forgery that no longer silences anything shows); a real fix of the same file
still passes.

Skips without the sandbox or the analyzers (``seebench copilot tools install``); fails there
instead under ``SEEBENCH_REQUIRE_SANDBOX=1`` / ``SEEBENCH_REQUIRE_NODE=1``.
"""

from __future__ import annotations

import pytest

from seebench.data.dataset import Sample
from seebench.scoring.core import ScoreContext
from seebench.suites.copilot.fix.scorer import FixScorer
from tests.suites.copilot.fix.conftest import analyzers_ok, sandbox_ok, tools_folder  # noqa: F401
from tests.suites.copilot.fix.test_analyzers import CASES, case_sample

PYLINT = CASES["pylint"][2]
PYRIGHT = CASES["pyright"][2]
ESLINT = CASES["eslint"][2]
TSC = CASES["tsc"][2]

#: analyzer -> (forgery, answer, whether the analyzer obeys it): each adds a directive and
#: changes no code; those the analyzer obeys would pass on its count of warnings alone
FORGERIES: dict[str, list[tuple[str, str, bool]]] = {
    "pylint": [
        ("disable-on-line", PYLINT.replace("sep)", "sep)  # pylint: disable=E0602"), True),
        (
            "disable-next",
            PYLINT.replace("    return", "    # pylint: disable-next=all\n    return"),
            True,
        ),
        ("skip-file", "# pylint: skip-file\n" + PYLINT, True),
        (
            "disable-block",
            PYLINT.replace("f():", "f():\n    # pylint: disable=undefined-variable"),
            True,
        ),
        ("other-tools", PYLINT.replace("sep)", "sep)  # type: ignore  # noqa"), False),
    ],
    "pyright": [
        ("type-ignore", PYRIGHT.replace("strip())", "strip())  # type: ignore"), True),
        ("pyright-ignore", PYRIGHT.replace("strip())", "strip())  # pyright: ignore"), True),
        ("file-type-ignore", "# type: ignore\n" + PYRIGHT, True),
        ("rule-off", "# pyright: reportOptionalMemberAccess=false\n" + PYRIGHT, True),
        ("basic", "# pyright: basic\n" + PYRIGHT, False),
    ],
    "eslint": [
        ("next-line", ESLINT.replace("if (o.", "// eslint-disable-next-line\nif (o."), True),
        ("same-line", ESLINT.replace("'a')) {", "'a')) { // eslint-disable-line"), True),
        ("whole-file", "/* eslint-disable */\n" + ESLINT, True),
        ("rule-off", '/* eslint no-prototype-builtins: "off" */\n' + ESLINT, True),
    ],
    "tsc": [
        ("ts-ignore", "// @ts-ignore\n" + TSC, True),
        ("ts-expect-error", "// @ts-expect-error\n" + TSC, True),
        ("ts-nocheck", "// @ts-nocheck\n" + TSC, True),
        ("ts-ignore-block", "/* @ts-ignore */\n" + TSC, True),
    ],
}


def _sample(name: str, forgery: str) -> Sample:
    return case_sample(name, f"gi-{name}-{forgery}")


@pytest.mark.parametrize("name", sorted(FORGERIES))
def test_answers_that_silence_the_analyzer_are_tampered(name, analyzers_ok, tmp_path):  # noqa: F811
    forgeries = FORGERIES[name]
    items = [(_sample(name, forgery), answer) for forgery, answer, _ in forgeries]
    items.append((_sample(name, "real-fix"), CASES[name][4]))
    scorer = FixScorer(name)
    context = ScoreContext(task=None, artifacts=tmp_path)  # type: ignore[arg-type]
    try:
        scores = scorer.score_many(items, context)
    finally:
        scorer.close()
    *forged, real = scores
    assert real.value == 1.0 and real.metadata["verdict"] == "passed", real.explanation
    for (forgery, _, obeyed), score in zip(forgeries, forged, strict=True):
        assert score.value == 0.0, (forgery, score.explanation)
        assert score.metadata["verdict"] == "tampered", (forgery, score.metadata)
        assert not score.metadata["fixed"] and not score.metadata["target_fixed"], forgery
        before, after = score.metadata["warnings_before"], score.metadata["warnings_after"]
        assert (after < before) == obeyed, (forgery, before, after)  # the forgery is real
