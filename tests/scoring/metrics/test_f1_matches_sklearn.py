"""The count-based F1 equals scikit-learn's f1_score exactly (macro and micro, single- and
multi-label, with and without a fixed label list, with invalid answers)."""

from __future__ import annotations

import random

import pytest
from sklearn.metrics import f1_score
from sklearn.preprocessing import MultiLabelBinarizer

from seebench.scoring.metrics.classification import f1_macro, f1_micro

LABELS = ["a", "b", "c", "d"]


@pytest.mark.parametrize("seed", range(30))
@pytest.mark.parametrize("fixed_labels", [True, False])
def test_single_label(seed, fixed_labels):
    rng = random.Random(seed)
    n = rng.randint(1, 60)
    golds = [rng.choice(LABELS[:3]) for _ in range(n)]
    preds = [rng.choice([*LABELS, None]) for _ in range(n)]
    labels = LABELS if fixed_labels else None
    sk_preds = ["\x00invalid" if p is None else p for p in preds]
    for ours, average in ((f1_macro, "macro"), (f1_micro, "micro")):
        expected = f1_score(golds, sk_preds, average=average, labels=labels, zero_division=0)
        assert ours(golds, preds, labels=labels) == expected


@pytest.mark.parametrize("seed", range(30))
def test_multi_label(seed):
    rng = random.Random(seed)
    n = rng.randint(1, 40)
    golds = [sorted(rng.sample(LABELS, rng.randint(0, 3))) for _ in range(n)]
    preds = [
        None if rng.random() < 0.1 else sorted(rng.sample(LABELS, rng.randint(0, 3)))
        for _ in range(n)
    ]
    binariser = MultiLabelBinarizer(classes=LABELS)
    binariser.fit([LABELS])
    y_true = binariser.transform(golds)
    y_pred = binariser.transform([p or [] for p in preds])
    for ours, average in ((f1_macro, "macro"), (f1_micro, "micro")):
        assert ours(golds, preds, labels=LABELS) == f1_score(
            y_true, y_pred, average=average, zero_division=0
        )
