"""Tiny random BERT / GPT-2 / T5 model directories (built once per session) and task helpers."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tiny_models import build_tiny_bert, build_tiny_gpt2, build_tiny_t5  # noqa: E402

from seebench.data.dataset import Sample, TaskData  # noqa: E402
from seebench.tasks.spec import Label, TaskSpec  # noqa: E402

BUILDERS = {"bert": build_tiny_bert, "gpt2": build_tiny_gpt2, "t5": build_tiny_t5}
METRIC = {"regression": "one_minus_smape", "ner": "entity_f1_micro", "mlm": "masked_accuracy"}
LABELS = {"binary": ("yes", "no"), "multiclass": ("a", "b", "c"), "multilabel": ("a", "b")}
WORDS = {
    "a": ["crashes", "error", "fails"],
    "b": ["please", "add", "feature"],
    "c": ["refactor", "rename", "extract"],
}


@pytest.fixture(scope="session")
def tiny_models(tmp_path_factory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("tiny-models")
    return {name: build(root / name) for name, build in BUILDERS.items()}


def make_task(task_type: str, **extra) -> TaskSpec:
    metric = METRIC.get(task_type, "f1_macro")
    raw = {
        "name": f"tiny_{task_type}",
        "suite": "tiny",
        "version": "1",
        "type": task_type,
        "metrics": [metric],
        **extra,
    }
    if task_type == "regression":
        raw.setdefault("value_range", [1, 20])
    labels = tuple(Label(name) for name in LABELS.get(task_type, ()))
    from seebench.plugin_manager import get_registry

    return TaskSpec(
        name=raw["name"],
        suite="tiny",
        version="1",
        type=task_type,
        path=Path("tiny.yaml"),
        raw=raw,
        labels=labels,
        metrics=(metric,),
        type_object=get_registry().task_type(task_type).load(),
    )


def _row(index: int, task_type: str, rng: random.Random):
    kind = "abc"[index % 3]
    words = [rng.choice(WORDS[kind]) for _ in range(rng.randint(3, 7))]
    if task_type == "binary":
        return " ".join(words), "yes" if kind == "a" else "no"
    if task_type == "multiclass":
        return " ".join(words), kind
    if task_type == "multilabel":
        return " ".join(words), [label for label in ("a", "b") if label == kind or index % 4 == 0]
    if task_type == "regression":
        return " ".join(words), {"a": 2.0, "b": 5.0, "c": 13.0}[kind]
    if task_type == "ner":
        return words, ["B-Bug" if w in WORDS["a"] else "O" for w in words]
    sentence = ["the", "user", "shall", words[0], "it"]
    return " ".join(sentence[:3] + ["[MASK]"] + sentence[4:]), [words[0]]


def make_data(
    task: TaskSpec, n_train: int = 16, n_val: int = 6, n_test: int = 5, seed: int = 0
) -> TaskData:
    rng = random.Random(seed)
    samples = [Sample(str(i), *_row(i, task.type, rng)) for i in range(n_train + n_val + n_test)]
    return TaskData(
        task, samples[:n_train], samples[n_train : n_train + n_val], samples[n_train + n_val :], {}
    )
