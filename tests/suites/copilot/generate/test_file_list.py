"""The generator of the RealHumanEval checksum list, and the shipped list it wrote."""

from __future__ import annotations

from pathlib import Path

import pytest

from scripts.realhumaneval_file_list import file_list, main
from tests.conftest import REPO_ROOT

HEADER = "path\tsuite\ttask\tfile\tsource_repo\tsource_path\tcommit\tbytes\tsha256\n"
SHIPPED = REPO_ROOT / "task_configs/copilot/data/realhumaneval_tasks.sha256"


def test_lines_come_from_the_manifest_rows_under_the_prefix(tmp_path):
    manifest = tmp_path / "MANIFEST.tsv"
    manifest.write_text(
        HEADER
        + f"realhumaneval/tasks_json/b.json\tr\tt\tb.json\tx/y\tup/b.json\tc\t1\t{'b' * 64}\n"
        + f"realhumaneval/tasks_json/a.json\tr\tt\ta.json\tx/y\tup/a.json\tc\t1\t{'a' * 64}\n"
        + f"other/c.json\tr\tt\tc.json\tx/y\tup/c.json\tc\t1\t{'c' * 64}\n"
    )
    assert file_list(manifest) == [f"{'a' * 64}  up/a.json", f"{'b' * 64}  up/b.json"]


def test_a_row_without_a_checksum_is_an_error_naming_it(tmp_path, capsys):
    manifest = tmp_path / "MANIFEST.tsv"
    manifest.write_text(HEADER + "realhumaneval/tasks_json/a.json\tr\tt\ta\tx\tup/a\tc\t1\t\n")
    with pytest.raises(ValueError, match=r"MANIFEST.tsv:2: no sha256"):
        file_list(manifest)
    assert main([str(manifest)]) == 1
    assert "MANIFEST.tsv:2" in capsys.readouterr().err


def test_the_shipped_list_matches_the_mirror_manifest():
    manifest = REPO_ROOT / ".." / "shared" / "data" / "MANIFEST.tsv"
    if not manifest.is_file():
        pytest.skip("no ../shared/data mirror")
    assert Path(SHIPPED).read_text().splitlines() == file_list(manifest)
