import math

from seebench.scoring.core import Score
from seebench.suites.copilot.doc.metrics import check_rate, doc_pass_rate, doc_syntax_rate


def test_rates_count_each_check_over_scored_samples():
    scores = [
        Score(1.0, metadata={"checks": {"syntax": True, "format": True}}),
        Score(0.0, metadata={"checks": {"syntax": True, "format": False}}),
        Score(0.0, metadata={"checks": {"syntax": False, "format": False}}),
        Score(None, explanation="case excluded"),
    ]
    assert doc_pass_rate(scores) == 1 / 3
    assert doc_syntax_rate(scores) == 2 / 3
    assert check_rate(scores, "format") == 1 / 3
    assert math.isnan(check_rate([Score(None)], "syntax"))
