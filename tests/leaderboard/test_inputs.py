"""Reading scores from result directories and CSV files."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from seebench.errors import SeebenchError
from seebench.leaderboard.inputs import normalise_task_type, read_inputs, read_model_groups
from seebench.plugin_manager import get_registry
from tests.leaderboard.builders import DATA, SELU_CSV, write_result_dir


def test_csv_fixture() -> None:
    matrix = read_inputs([SELU_CSV]).to_matrix(get_registry())
    assert len(matrix.models) == 28 and len(matrix.tasks) == 20
    assert set(matrix.task_types) == {"binary", "multiclass", "multilabel", "regression"}
    assert matrix.task_families[matrix.tasks.index("sentiment")] == "developer communication"
    assert matrix.model_groups["CodeLlama 7B"] == "domain-adapted"


def test_csv_dash_is_a_missing_score() -> None:
    matrix = read_inputs([DATA / "selu_table_vi_ner_mlm.csv"]).to_matrix(get_registry())
    gpt2 = matrix.models.index("GPT-2 xl")
    assert np.isnan(matrix.scores[:, gpt2]).all()
    assert matrix.task_types == ("ner", "mlm")


def test_result_dir_matches_csv(tmp_path: Path) -> None:
    root = write_result_dir(tmp_path / "results")
    from_dir = read_inputs([root], label="id").to_matrix(get_registry())
    from_csv = read_inputs([SELU_CSV]).to_matrix(get_registry())
    assert set(from_dir.models) == set(from_csv.models)
    for m, model in enumerate(from_csv.models):
        for t, task in enumerate(from_csv.tasks):
            expected = from_csv.scores[t, m]
            assert (
                from_dir.scores[from_dir.tasks.index(task), from_dir.models.index(model)]
                == expected
            )
    assert set(from_dir.task_families) == {"from-tags"}  # task.tags.family wins


def test_result_dir_names_models_with_their_method(tmp_path: Path) -> None:
    root = write_result_dir(tmp_path / "results", method="zero-shot")
    matrix = read_inputs([root]).to_matrix(get_registry())
    assert "GPT-2 xl/zero-shot" in matrix.models


def test_only_ok_units_count(tmp_path: Path) -> None:
    root = write_result_dir(tmp_path / "results", DATA / "selu_table_vi_ner_mlm.csv")
    matrix = read_inputs([root], label="id").to_matrix(get_registry())
    gpt2 = matrix.models.index("GPT-2 xl") if "GPT-2 xl" in matrix.models else None
    assert gpt2 is None  # every GPT-2 xl unit is "not_applicable"
    assert matrix.models.index("BERT base") >= 0


def test_unrelated_json_is_ignored_and_broken_json_is_an_error(tmp_path: Path) -> None:
    root = write_result_dir(tmp_path / "results")
    (root / "manifest.json").write_text(json.dumps({"runs": []}))
    read_inputs([root])
    (root / "broken.json").write_text("{")
    with pytest.raises(SeebenchError, match="broken.json"):
        read_inputs([root])


def test_unusable_inputs(tmp_path: Path) -> None:
    with pytest.raises(SeebenchError, match="no such file"):
        read_inputs([tmp_path / "nope.csv"])
    bad = tmp_path / "bad.csv"
    bad.write_text("model,score\nx,1\n")
    with pytest.raises(SeebenchError, match="missing column"):
        read_inputs([bad])
    bad.write_text("model,task,score\nx,t,high\n")
    with pytest.raises(SeebenchError, match="not a number"):
        read_inputs([bad])


def test_the_same_score_twice_is_an_error() -> None:
    with pytest.raises(SeebenchError, match="two scores"):
        read_inputs([SELU_CSV, SELU_CSV]).to_matrix(get_registry())


def test_model_groups_file(tmp_path: Path) -> None:
    path = tmp_path / "groups.json"
    path.write_text(json.dumps({"a": "x"}))
    assert read_model_groups(path) == {"a": "x"}
    csv_path = tmp_path / "groups.csv"
    csv_path.write_text("model,group\na,y\n")
    assert read_model_groups(csv_path) == {"a": "y"}


@pytest.mark.parametrize("name", ["groups.json", "groups.csv"])
def test_a_model_groups_fifo_is_one_clear_error_not_a_hang(tmp_path: Path, name: str) -> None:
    import os

    os.mkfifo(tmp_path / name)  # a plain open would wait for a writer forever
    with pytest.raises(SeebenchError, match=rf"{name}: cannot read model groups: .*not a regular"):
        read_model_groups(tmp_path / name)


def test_model_groups_that_are_not_text_are_one_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "groups.json"
    path.write_bytes(b"\xff\xfe{}")
    with pytest.raises(SeebenchError, match="groups.json: cannot read model groups"):
        read_model_groups(path)


@pytest.mark.parametrize(
    ("raw", "name"), [("multi-class", "multiclass"), ("Multi_Label", "multilabel"), ("ner", "ner")]
)
def test_task_type_names(raw: str, name: str) -> None:
    assert normalise_task_type(raw) == name
