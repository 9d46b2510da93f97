"""The SELU tasks on the real data mirror (``../shared/data`` beside the repository).

Skipped when the mirror is absent. Only the faster tasks are prepared here; story_points
(23,313 rows) is checked by ``seebench data status``.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner

from seebench.cli.main import build_cli
from seebench.data.dataset import load_task_data
from seebench.data.manage import import_directory, task_status
from seebench.plugin_manager import get_registry, get_task_index

SHARED_SELU = Path(__file__).resolve().parents[3] / ".." / "shared" / "data" / "selu"

pytestmark = pytest.mark.skipif(not SHARED_SELU.is_dir(), reason="no ../shared/data/selu mirror")


_STATUS: dict[str, dict] = {}


@pytest.fixture(scope="module")
def selu_home(tmp_path_factory) -> Path:
    """One cache with the SELU files imported, shared by this module's tests."""
    home = tmp_path_factory.mktemp("selu-home")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("SEEBENCH_HOME", str(home))
        selu = [t for t in get_task_index().tasks.values() if t.suite == "selu"]
        assert import_directory(SHARED_SELU.resolve(), selu).imported
    return home


@pytest.fixture
def imported(selu_home: Path, monkeypatch) -> None:
    monkeypatch.setenv("SEEBENCH_HOME", str(selu_home))


def _status(name: str) -> dict:
    """Status of one task, computed once per test session (preparing is the slow part)."""
    if name not in _STATUS:
        _STATUS[name] = task_status(get_task_index().get(name), get_registry())
    return _STATUS[name]


@pytest.mark.parametrize(
    ("name", "rows"),
    [
        ("functional_requirement", 956),
        ("quality_requirement", 956),
        ("review_type", 1390),
    ],
)
def test_prepared_rows_match_selu_table_i(imported: None, name: str, rows: int) -> None:
    status = _status(name)
    assert status["error"] is None
    assert status["rows"] == rows == status["reference_rows"]
    assert status["rows_vs_reference"] == 0


def test_functional_requirement_labels_and_stratified_split(imported: None) -> None:
    status = _status("functional_requirement")
    assert status["labels"] == {"yes": 578, "no": 378}
    assert status["splits"] == {"train": 689, "validation": 76, "test": 191}


def test_smell_doc_uses_selu_split_file_with_matching_label_shares(imported: None) -> None:
    task = get_task_index().get("smell_doc")
    data = load_task_data(task, get_registry())
    assert data.counts() == {"train": 640, "validation": 160, "test": 200}
    assert task.tags["paper_instances"] == "1000"
    everything = [*data.train, *data.validation, *data.test]
    full = Counter(label for s in everything for label in s.target)
    test = Counter(label for s in data.test for label in s.target)
    for label, count in full.items():
        assert abs(test[label] / 200 - count / 1000) < 0.01, label
    assert "_x000D_" not in data.test[0].input


def test_se_entities_keeps_its_own_split_and_twenty_types(imported: None) -> None:
    status = _status("se_entities")
    assert status["splits"] == {"train": 1638, "validation": 536, "test": 564}
    assert status["rows"] == 2738 and status["rows_vs_reference"] == 20
    assert len(status["labels"]) == 20


def test_comment_type_pharo_differs_from_table_i_and_says_why(imported: None) -> None:
    status = _status("comment_type_pharo")
    assert status["rows"] == 1765 and status["rows_vs_reference"] == 178
    assert "NLBSE'25" in status["notes"]
    assert status["split_method"] == "iterative-stratified hold-out"


def test_every_test_sample_of_review_type_has_three_train_shots(imported: None) -> None:
    data = load_task_data(get_task_index().get("review_type"), get_registry())
    train_ids = {s.id for s in data.train}
    assert len(data.shots) == len(data.test) == 278
    assert all(len(ids) == 3 and set(ids) <= train_ids for ids in data.shots.values())


def test_status_cli_reports_missing_tasks_with_their_source(imported: None) -> None:
    result = CliRunner().invoke(
        build_cli(), ["data", "status", "bug_issue", "review_type", "--json"]
    )
    assert result.exit_code == 0, result.output
    reports = {r["task"]: r for r in json.loads(result.output)}
    assert reports["bug_issue"]["rows"] is None
    assert reports["bug_issue"]["files"][0]["url"].startswith("https://")
    assert reports["bug_issue"]["files"][-1]["role"] == "split_file"
    assert reports["bug_issue"]["files"][-1]["present"] is True
    assert reports["review_type"]["rows"] == 1390


def test_comment_type_pharo_iterative_split_keeps_label_shares(imported: None) -> None:
    data = load_task_data(get_task_index().get("comment_type_pharo"), get_registry())
    everything = [*data.train, *data.validation, *data.test]
    full = Counter(label for s in everything for label in s.target)
    test = Counter(label for s in data.test for label in s.target)
    for label, count in full.items():
        assert abs(test[label] / len(data.test) - count / len(everything)) < 0.02, label
