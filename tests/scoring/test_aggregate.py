"""Bootstrap intervals of ratio metrics: the fast resampling gives the metric's own values."""

from __future__ import annotations

import random
from types import SimpleNamespace

import pytest

from seebench.registry import Registry, RegistryBuilder
from seebench.scoring.aggregate import UnitScores, compute_metrics, item_ratio
from seebench.scoring.core import Score


def _share_passed(scores):
    scored = [s for s in scores if s.value is not None]
    if not scored:
        return float("nan")
    return sum(1 for s in scored if s.metadata.get("ok")) / len(scored)


def _counts(score):
    return (int(bool(score.metadata.get("ok"))), 1) if score.value is not None else (0, 0)


def _wrong_counts(score):
    return (1, 1)  # claims every sample passed: disagrees with the metric


def _unit(repeats: int, n: int, seed: int) -> UnitScores:
    rng = random.Random(seed)
    scores = [
        [
            Score(None) if rng.random() < 0.2 else Score(1.0, metadata={"ok": rng.random() < 0.4})
            for _ in range(n)
        ]
        for _ in range(repeats)
    ]
    return UnitScores(
        golds=[None] * n, predictions=[[None] * n for _ in range(repeats)], scores={"s": scores}
    )


def _metrics(declared):
    registry = Registry()
    register = RegistryBuilder(registry).metric("tests")
    register("plain", _share_passed, inputs="scores")
    register("declared", declared, inputs="scores")
    task = SimpleNamespace(
        name="t", scorers=("s",), metrics=("plain", "declared"), metric_options=lambda _: {}
    )
    return task, registry


@pytest.mark.parametrize("repeats", [1, 3])
def test_a_declared_ratio_metric_has_the_same_interval_as_the_metric_itself(repeats):
    declared = item_ratio(_counts)(lambda scores: _share_passed(scores))
    task, registry = _metrics(declared)
    values, details = compute_metrics(task, _unit(repeats, 57, 1), registry, bootstrap=300, seed=7)
    assert values["declared"] == values["plain"]
    assert details["declared"]["ci95"] == details["plain"]["ci95"]
    assert details["declared"]["stderr"] == details["plain"]["stderr"]


def test_a_declaration_that_disagrees_with_its_metric_is_not_used():
    declared = item_ratio(_wrong_counts)(lambda scores: _share_passed(scores))
    task, registry = _metrics(declared)
    values, details = compute_metrics(task, _unit(1, 40, 2), registry, bootstrap=200, seed=3)
    assert values["declared"] == values["plain"] < 1.0
    assert details["declared"]["ci95"] == details["plain"]["ci95"]


def test_draws_with_nothing_scored_are_nan_and_left_out_of_the_interval():
    unit = _unit(1, 6, 4)
    unit.scores["s"][0][1:] = [Score(None)] * 5  # one scored item: many draws miss it
    unit.scores["s"][0][0] = Score(1.0, metadata={"ok": True})
    task, registry = _metrics(item_ratio(_counts)(lambda scores: _share_passed(scores)))
    values, details = compute_metrics(task, unit, registry, bootstrap=100, seed=5)
    assert values["declared"] == 1.0
    assert details["declared"]["ci95"] == details["plain"]["ci95"] == [1.0, 1.0]


def test_the_copilot_doc_and_fix_rates_declare_exact_counts():
    from seebench.suites.copilot.doc import metrics as doc
    from seebench.suites.copilot.fix import metrics as fix

    passed = Score(1.0, metadata={"checks": {"syntax": True}, "fixed": True})
    failed = Score(0.0, metadata={"checks": {"syntax": False}, "fixed": False})
    unscored = Score(None)
    assert doc.doc_syntax_rate.item_ratio(passed) == (1, 1)
    assert doc.doc_syntax_rate.item_ratio(failed) == (0, 1)
    assert doc.doc_pass_rate.item_ratio(unscored) == (0, 0)
    assert fix.fix_rate.item_ratio(failed) == (0, 1)
    assert fix.fix_target_rate.item_ratio(passed) == (0, 0)  # not judged: not counted


def _labelled_unit(repeats: int, n: int, seed: int, multilabel: bool) -> UnitScores:
    rng = random.Random(seed)
    classes = ["a", "b", "c", "d"]

    def draw():
        if multilabel:
            return sorted(c for c in classes if rng.random() < 0.35)
        return rng.choice(classes[:3]) if rng.random() < 0.95 else "d"

    def predict():
        return None if rng.random() < 0.05 else draw()

    golds = [draw() for _ in range(n)]
    predictions = [[predict() for _ in range(n)] for _ in range(repeats)]
    return UnitScores(golds=golds, predictions=predictions, scores={})


@pytest.mark.parametrize("multilabel", [False, True])
@pytest.mark.parametrize("labels", [None, ["a", "b", "c", "d"], ["b", "a"]])
@pytest.mark.parametrize("repeats", [1, 2])
def test_vectorised_classification_metrics_give_the_metric_calls_intervals(
    multilabel, labels, repeats
):
    from seebench.scoring.metrics import classification
    from seebench.scoring.ratio import resampled_by

    registry = Registry()
    register = RegistryBuilder(registry).metric("tests")
    names, calls = [], []

    def counted(func):
        def call(golds, predictions, **kwargs):
            calls.append(func)
            return func(golds, predictions, **kwargs)

        return resampled_by(func.resampled)(call)

    for name in ("f1_macro", "f1_micro", "accuracy"):
        func = getattr(classification, name)
        register(name, counted(func))  # declared: resampled from weights, not by calls
        register(f"{name}_called", lambda g, p, _f=func, **kw: _f(g, p, **kw))  # undeclared
        names += [name, f"{name}_called"]
    task = SimpleNamespace(name="t", scorers=(), metrics=tuple(names), metric_options=lambda _: {})
    unit = _labelled_unit(repeats, 61, 11, multilabel)
    unit.labels = labels
    values, details = compute_metrics(task, unit, registry, bootstrap=400, seed=9)
    for name in ("f1_macro", "f1_micro", "accuracy"):
        called = f"{name}_called"
        assert values[name] == values[called]
        assert details[name]["ci95"] == details[called]["ci95"]
        assert details[name]["stderr"] == details[called]["stderr"]
        assert details[name]["ci95"][0] < details[name]["ci95"][1]
    assert len(calls) == 3 * repeats  # the full-data values only
