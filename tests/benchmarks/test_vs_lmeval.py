"""Helpers of ``benchmarks/vs_lmeval.py``: the lm-eval export, reading replies, comparing them."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from tests.conftest import REPO_ROOT
from tests.tasks.test_parsing import BINARY


def _script():
    spec = importlib.util.spec_from_file_location(
        "vs_lmeval", REPO_ROOT / "benchmarks/vs_lmeval.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


ITEMS = [
    {"id": "a1", "user": 'Task: say yes.\nIssue: "{{ quoted }}" {%raw%}\nAnswer:', "target": "yes"},
    {"id": "b2", "user": "Task: say no.\nAnswer:", "target": "no"},
]


def test_export_writes_a_task_whose_documents_are_the_exact_user_messages(tmp_path: Path):
    vs = _script()
    name = vs.export_lmeval_task(tmp_path, "demo", ITEMS, max_new_tokens=8, stop=["<|end|>"])
    assert name == "seebench_demo"
    rows = [json.loads(line) for line in (tmp_path / f"{name}.jsonl").read_text().splitlines()]
    assert rows == ITEMS
    if importlib.util.find_spec("lm_eval") is None:
        pytest.skip("lm-eval (the bench extra) is not installed")
    from lm_eval.tasks import TaskManager

    task = TaskManager(include_path=str(tmp_path)).load([name])["tasks"][name]
    docs = list(task.test_docs())
    assert [task.doc_to_text(d) for d in docs] == [item["user"] for item in ITEMS]
    assert task.config.generation_kwargs["max_gen_toks"] == 8
    assert task.config.generation_kwargs["until"] == ["<|end|>"]


def test_replies_are_read_back_by_item_id(tmp_path: Path):
    vs = _script()
    nested = tmp_path / "model" / "samples_seebench_demo_2026-01-01T00.jsonl"
    nested.parent.mkdir()
    nested.write_text(
        "".join(json.dumps({"doc": it, "resps": [[f" {it['target']}"]]}) + "\n" for it in ITEMS)
    )
    assert vs.read_lmeval_replies(tmp_path, "seebench_demo") == {"a1": "yes", "b2": "no"}
    samples = tmp_path / "demo.samples.jsonl"
    samples.write_text(json.dumps({"id": "a1", "raw": "Yes"}) + "\n" + json.dumps({"id": "b2"}))
    assert vs.read_seebench_replies(samples) == {"a1": "Yes", "b2": None}
    with pytest.raises(SystemExit, match="samples_seebench_other"):
        vs.read_lmeval_replies(tmp_path, "seebench_other")


def test_comparison_parses_both_sides_the_same_way():
    vs = _script()
    from sklearn.metrics import accuracy_score

    def accuracy(golds, predictions, labels):
        return accuracy_score([str(g) for g in golds], [str(p) for p in predictions])

    golds = {"1": "yes", "2": "no", "3": "no", "4": "yes"}
    ours = {"1": "Yes", "2": "no", "3": "maybe", "4": "yes"}
    theirs = {"1": "yes.", "2": "no", "3": "perhaps", "4": "no"}
    figures = vs.compare_replies(BINARY, golds, ours, theirs, accuracy)
    assert figures["same_raw"] == 0.25  # only "no" is the same text
    assert figures["same_parsed"] == 0.75  # yes/yes, no/no, invalid/invalid
    assert figures["metric_ours"] == 0.75 and figures["metric_theirs"] == 0.5


def test_rounds_rotate_the_order():
    vs = _script()
    assert [vs.rotated(["a", "b", "c"], r) for r in range(4)] == [
        ["a", "b", "c"],
        ["b", "c", "a"],
        ["c", "a", "b"],
        ["a", "b", "c"],
    ]
