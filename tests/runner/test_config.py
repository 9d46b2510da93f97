"""The result fields scoring fills: an undefined metric is written as null, never NaN."""

from __future__ import annotations

import json
import math

from seebench.results.numbers import bad_number
from seebench.runner.config import defined_metrics, scoring_fields
from seebench.scoring.unit import UnitScoring


def test_an_undefined_metric_is_written_as_null_and_the_result_stays_trusted():
    scoring = UnitScoring(
        metrics={"workspace_mrr": 0.0, "workspace_ranking_rate": math.nan, "count": 3},
        metric_info={},
        scores={},
        scorer_identities={},
        computed={},
    )
    fields = scoring_fields(scoring)
    assert fields["metrics"] == {"workspace_mrr": 0.0, "workspace_ranking_rate": None, "count": 3}
    text = json.dumps(fields)
    assert "NaN" not in text
    assert bad_number(json.loads(text)) is None


def test_infinite_values_are_undefined_too_and_the_input_is_left_alone():
    metrics = {"a": math.inf, "b": -math.inf, "c": 1.5}
    assert defined_metrics(metrics) == {"a": None, "b": None, "c": 1.5}
    assert math.isinf(metrics["a"])
