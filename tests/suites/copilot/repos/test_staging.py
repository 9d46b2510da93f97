"""Staged repositories: the facts table, listing a file set, safe extraction."""

from __future__ import annotations

import io
import tarfile
from pathlib import Path

import pytest

from seebench.errors import SeebenchError
from seebench.suites.copilot.repos import staging

COMMIT = "a" * 40
SHARED = Path(__file__).resolve().parents[4] / ".." / "shared" / "data"


def _tar(path: Path, files: dict[str, bytes], mtime: int = 1_700_000_000) -> Path:
    with tarfile.open(path, "w") as archive:
        for name, data in files.items():
            info = tarfile.TarInfo(name)
            info.size, info.mtime = len(data), mtime
            archive.addfile(info, io.BytesIO(data))
    return path


def _facts(path: Path, rows: list[str]) -> Path:
    path.write_text("slug\trepo\tcommit\tlanguage\twhole_tree\n" + "".join(rows), encoding="utf-8")
    return path


def test_staged_repos_reads_facts_and_commit_time(tmp_path):
    tar = _tar(tmp_path / "r.tar", {"pkg/__init__.py": b"x = 1\n"})
    facts = _facts(tmp_path / "f.tsv", [f"o+r@{COMMIT}\to/r\t{COMMIT}\tpython\tyes\n"])
    files = {f"repos/o+r@{COMMIT}.tar": tar, "data/case-1.json": tmp_path / "c.json"}
    (repo,) = staging.staged_repos(files, facts)
    assert (repo.repo, repo.language, repo.whole_tree) == ("o/r", "python", True)
    assert repo.slug == f"o+r@{COMMIT}" and repo.member == f"repos/o+r@{COMMIT}.tar"
    assert repo.commit_time().year == 2023


def test_a_tar_without_facts_and_a_bad_row_are_errors(tmp_path):
    tar = _tar(tmp_path / "r.tar", {"a.py": b""})
    files = {f"repos/o+r@{COMMIT}.tar": tar}
    with pytest.raises(SeebenchError, match="no row"):
        staging.staged_repos(files, _facts(tmp_path / "f.tsv", []))
    bad = _facts(tmp_path / "g.tsv", [f"o+r@{COMMIT}\to/r\t{COMMIT}\tcobol\tyes\n"])
    with pytest.raises(SeebenchError, match=r"g\.tsv:2"):
        staging.read_facts(bad)


def test_source_tree_extracts_once_and_skips_unsafe_links(tmp_path):
    tar = tmp_path / "r.tar"
    with tarfile.open(tar, "w") as archive:
        data = b"print(1)\n"
        info = tarfile.TarInfo("src/main.py")
        info.size = len(data)
        archive.addfile(info, io.BytesIO(data))
        link = tarfile.TarInfo("src/escape")
        link.type, link.linkname = tarfile.SYMTYPE, "/etc/passwd"
        archive.addfile(link)
    repo = staging.StagedRepo("o/r", COMMIT, "python", True, tar)
    tree = staging.source_tree(repo, root=tmp_path / "src")
    assert (tree / "src/main.py").read_text() == "print(1)\n"
    assert not (tree / "src/escape").exists()
    (tree / "src/main.py").write_text("changed\n")
    assert staging.source_tree(repo, root=tmp_path / "src") == tree  # cached, not re-extracted
    assert (tree / "src/main.py").read_text() == "changed\n"


def test_a_path_escaping_the_tree_is_refused(tmp_path):
    tar = _tar(tmp_path / "r.tar", {"../evil.py": b""})
    repo = staging.StagedRepo("o/r", COMMIT, "python", True, tar)
    with pytest.raises(SeebenchError, match="unsafe path"):
        staging.source_tree(repo, root=tmp_path / "src")
    assert not (tmp_path / "evil.py").exists()
    assert not list((tmp_path / "src").iterdir())  # no half-extracted tree left


@pytest.mark.skipif(not (SHARED / "MANIFEST.tsv").is_file(), reason="no ../shared/data mirror")
def test_shipped_list_matches_the_mirror():
    lines, rows = staging.file_list_rows(SHARED / "MANIFEST.tsv")
    shipped = staging.FACTS_FILE.with_suffix(".sha256").read_text().splitlines()
    assert shipped == lines
    assert (
        len(rows) == 76 and sum(r["whole_tree"] == "yes" for r in rows) == 61
    )  # the MANIFEST marks 61 "(whole tree)"; 15 tars hold case files only
    assert set(staging.read_facts()) == {r["slug"] for r in rows}
