"""Metrics against scikit-learn / seqeval and hand-computed cases."""

from __future__ import annotations

import math

import pytest
from seqeval.metrics import f1_score as seqeval_f1
from sklearn.metrics import accuracy_score, f1_score

from seebench.plugin_manager import get_registry
from seebench.scoring.metrics.classification import accuracy, f1_macro, f1_micro
from seebench.scoring.metrics.regression import mae, one_minus_smape, smape
from seebench.scoring.metrics.sequence import entity_f1_micro, masked_accuracy

GOLD = ["bug", "feature", "bug", "question", "feature", "bug"]
PRED = ["bug", "bug", "bug", "question", "feature", "question"]


def test_f1_macro_and_micro_match_sklearn():
    assert f1_macro(GOLD, PRED) == pytest.approx(f1_score(GOLD, PRED, average="macro"))
    assert f1_micro(GOLD, PRED) == pytest.approx(f1_score(GOLD, PRED, average="micro"))
    assert accuracy(GOLD, PRED) == pytest.approx(accuracy_score(GOLD, PRED))


def test_f1_macro_over_declared_labels_counts_unpredicted_classes():
    labels = ["bug", "feature", "question", "docs"]
    expected = f1_score(GOLD, PRED, average="macro", labels=labels, zero_division=0)
    assert f1_macro(GOLD, PRED, labels=labels) == pytest.approx(expected)


def test_invalid_predictions_count_as_wrong():
    assert accuracy(["a", "b"], ["a", None]) == 0.5
    assert f1_macro(["a", "b"], ["a", None], labels=["a", "b"]) == pytest.approx(
        f1_score(["a", "b"], ["a", "zzz"], average="macro", labels=["a", "b"], zero_division=0)
    )


def test_multilabel_f1_macro_matches_sklearn_on_indicator_matrix():
    labels = ["useless", "incomplete", "outdated"]
    gold = [["useless"], ["incomplete", "outdated"], [], ["outdated"]]
    pred = [["useless", "outdated"], ["incomplete"], [], None]
    y_true = [[int(label in g) for label in labels] for g in gold]
    y_pred = [[int(label in (p or [])) for label in labels] for p in pred]
    assert f1_macro(gold, pred, labels=labels) == pytest.approx(
        f1_score(y_true, y_pred, average="macro", zero_division=0)
    )
    assert accuracy(gold, pred) == 0.25


def test_smape_follows_selu_equation_2():
    # |1-3| / ((1+3)/2) = 1 ; |2-2| / 2 = 0 ; 0/0 -> 0 ; None -> 2 (worst)
    assert smape([3, 2, 0, 5], [1, 2, 0, None]) == pytest.approx((1 + 0 + 0 + 2) / 4)
    assert one_minus_smape([3, 2], [1, 2]) == pytest.approx(0.5)
    assert one_minus_smape([1], [-1]) == pytest.approx(-1.0)  # the lower bound
    assert mae([3, 2], [1, None]) == 2.0
    assert math.isnan(mae([1], [None]))


def test_entity_f1_matches_seqeval():
    gold = [["B-API", "I-API", "O", "B-Class"], ["O", "B-Library"]]
    pred = [["B-API", "I-API", "O", "O"], ["O", "B-Library"]]
    assert entity_f1_micro(gold, pred) == pytest.approx(seqeval_f1(gold, pred, average="micro"))


def test_entity_f1_treats_missing_or_misaligned_predictions_as_all_o():
    gold = [["B-API", "O"], ["B-API"]]
    assert entity_f1_micro(gold, [None, ["B-API"]]) == pytest.approx(
        seqeval_f1(gold, [["O", "O"], ["B-API"]], average="micro")
    )
    assert entity_f1_micro(gold, [["B-API"], ["B-API"]]) == pytest.approx(
        seqeval_f1(gold, [["O", "O"], ["B-API"]], average="micro")
    )


def test_masked_accuracy_hand_computed():
    assert masked_accuracy(
        [["store", "Send"], ["allow"]], [["store", "send"], ["permit"]]
    ) == pytest.approx(2 / 3)
    assert masked_accuracy([["x"]], [None]) == 0.0


def test_per_sample_scores_come_from_the_task_type():
    types = get_registry().task_types

    def sample_score(name, gold, prediction):
        return types[name].load().sample_score(None, gold, prediction)

    assert sample_score("binary", "yes", "yes") == 1.0
    assert sample_score("binary", "yes", None) == 0.0
    assert sample_score("regression", 3, 1) == pytest.approx(0.0)
    assert sample_score("multilabel", ["a", "b"], ["b", "a"]) == 1.0
    assert sample_score("ner", ["B-API", "O"], ["B-API", "B-API"]) == 0.5


def test_every_builtin_metric_is_registered_and_loads():
    registry = get_registry()
    for name in (
        "f1_macro",
        "f1_micro",
        "accuracy",
        "smape",
        "one_minus_smape",
        "mae",
        "entity_f1_micro",
        "masked_accuracy",
    ):
        assert callable(registry.metric(name).load())
    assert registry.metric("smape").higher_is_better is False
