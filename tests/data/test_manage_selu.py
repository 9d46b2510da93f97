"""``seebench data``: split files count as task files; unpinned sources are never fetched."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from seebench.cli.main import build_cli
from seebench.data.cache import sha256_file
from seebench.data.manage import fetch_tasks, import_directory, task_status
from seebench.data.sources import UNPINNED
from seebench.plugin_manager import get_registry
from seebench.tasks.validate import load_task
from tests.conftest import write_task


def _task(tmp_path: Path, data_sha: str, split_sha: str):
    path = write_task(
        tmp_path / "tasks",
        "t_unpinned",
        f"""
        name: t_unpinned
        suite: test
        version: 1
        type: binary
        labels: [{{name: 'yes', value: 1}}, {{name: 'no', value: 0}}]
        data:
          sources:
            - url: https://example.invalid/data/t.parquet
              sha256: '{data_sha}'
              format: parquet
              homepage: https://doi.org/10.0/example
        split:
          split_file:
            url: https://example.invalid/splits/t.k-fold.5k.csv
            sha256: '{split_sha}'
        metrics: [f1_macro]
        """,
    )
    return load_task(path, get_registry())


def test_unpinned_source_is_not_fetched_and_says_where_to_get_it(tmp_path: Path) -> None:
    task = _task(tmp_path, UNPINNED, "1" * 64)
    (source, error), (split_source, split_error) = fetch_tasks([task])
    assert "not pinned in t_unpinned.yaml" in error
    assert "https://example.invalid/data/t.parquet" in error and "10.0/example" in error
    assert split_source.file_name == "t.k-fold.5k.csv" and "cannot download" in split_error


def test_split_file_is_imported_by_checksum_and_listed_in_status(tmp_path: Path) -> None:
    mirror = tmp_path / "mirror" / "nested"
    mirror.mkdir(parents=True)
    (mirror / "renamed.csv").write_text("fold_1\n1\n2\n")
    task = _task(tmp_path, UNPINNED, sha256_file(mirror / "renamed.csv"))
    report = import_directory(tmp_path / "mirror", [task])
    assert [p.name for _, p in report.imported] == ["renamed.csv"]
    status = task_status(task, get_registry())
    assert [(f["role"], f["present"], f["pinned"]) for f in status["files"]] == [
        ("data", False, False),
        ("split_file", True, True),
    ]
    assert status["rows"] is None and status["split_method"] == "split file (fold_1)"


def test_status_cli_prints_the_upstream_and_dataset_home_of_missing_data() -> None:
    result = CliRunner().invoke(build_cli(), ["data", "status", "bug_issue"])
    assert result.exit_code == 0, result.output
    assert "bug_issue" in result.output and "missing (skipped by eval)" in result.output
    assert (
        "sha256 not pinned" in result.output and "dataset home: https://doi.org/" in result.output
    )


def test_an_all_zero_checksum_is_rejected_in_favour_of_unpinned(tmp_path: Path) -> None:
    import pytest

    from seebench.errors import SeebenchError

    with pytest.raises(SeebenchError, match=r"t_unpinned\.yaml.*sha256"):
        _task(tmp_path, "0" * 64, "1" * 64)


def test_an_unpinned_source_is_never_looked_up_or_downloaded(tmp_path: Path) -> None:
    import pytest

    from seebench.data.sources import fetch_source, task_sources
    from seebench.errors import DataMissingError

    (source,) = task_sources(_task(tmp_path, UNPINNED, "1" * 64))
    assert not source.pinned and source.locate() is None
    with pytest.raises(DataMissingError, match="no pinned sha256"):
        fetch_source(source, timeout=0.01)
