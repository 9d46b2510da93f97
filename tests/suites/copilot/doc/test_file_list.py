"""The doc file list: generated from the mirror's MANIFEST.tsv, shipped beside the tasks."""

from __future__ import annotations

from pathlib import Path

import pytest

from scripts.copilot_doc_file_list import DEFAULT_OUT, file_list_lines, main
from seebench.data.file_sets import read_file_list

HEADER = "path\tsuite\ttask\tfile\tsource_repo\tsource_path\tcommit\tbytes\tsha256\tstatus\tcount\tunit\n"
MANIFEST = Path(__file__).resolve().parents[4] / ".." / "shared" / "data" / "MANIFEST.tsv"


def _row(path: str, upstream: str, digest: str, status: str = "ok") -> str:
    return f"{path}\tcopilot\tdoc\tx\trepo\t{upstream}\tc0ffee\t1\t{digest}\t{status}\t1\tfile\n"


def test_only_doc_rows_are_listed_sorted_by_upstream_path(tmp_path):
    manifest = tmp_path / "MANIFEST.tsv"
    manifest.write_text(
        HEADER
        + _row("copilot_harness/doc/case-2/case-2.json", "data/doc/case-2/case-2.json", "b" * 64)
        + _row("copilot_harness/fix/a.json", "data/fix/a.json", "c" * 64)
        + _row("copilot_harness/doc/case-1/case-1.json", "data/doc/case-1/case-1.json", "a" * 64)
    )
    assert file_list_lines(manifest) == [
        f"{'a' * 64}  data/doc/case-1/case-1.json",
        f"{'b' * 64}  data/doc/case-2/case-2.json",
    ]
    out = tmp_path / "list.sha256"
    assert main([str(manifest), "--out", str(out)]) == 0
    assert [m.path for m in read_file_list(out)] == [
        "data/doc/case-1/case-1.json",
        "data/doc/case-2/case-2.json",
    ]


def test_a_bad_row_is_one_line_naming_it(tmp_path, capsys):
    manifest = tmp_path / "MANIFEST.tsv"
    manifest.write_text(HEADER + _row("copilot_harness/doc/x.json", "data/doc/x.json", "short"))
    assert main([str(manifest), "--out", str(tmp_path / "o")]) == 1
    assert (
        "MANIFEST.tsv:2: unusable doc row 'copilot_harness/doc/x.json'" in capsys.readouterr().err
    )


def test_the_shipped_list_matches_the_mirror():
    if not MANIFEST.is_file():
        pytest.skip("no ../shared/data mirror")
    shipped = DEFAULT_OUT.read_text(encoding="utf-8").splitlines()
    assert shipped == file_list_lines(MANIFEST.resolve())
    assert len(shipped) == 2 * 7742
