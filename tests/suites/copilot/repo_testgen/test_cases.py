"""Reading the test_gen cases with their repositories (tiny file sets; the mirror's list)."""

from __future__ import annotations

import io
import json
import tarfile
from pathlib import Path

import pytest

from seebench.data.cache import sha256_file
from seebench.data.file_sets import FileSet
from seebench.suites.copilot.repo_testgen.cases import (
    file_list_lines,
    python_module,
    read_repo_test_cases,
)
from seebench.suites.copilot.repo_testgen.types import repo_test_items

from .conftest import CALC

COMMIT = "b" * 40
LIST = Path(__file__).resolve().parents[4] / (
    "task_configs/copilot_repo/data/copilot_repo_test.sha256"
)


def _case(number: int, method: str, line: int, **extra) -> dict:
    return {
        "case_id": f"case-{number}",
        "repo_name": "me/tiny",
        "file_path": "pkg/calc.py",
        "code_snippet": "",
        "line_range": [line, line + 3],
        "command_specific_fields": {"method_name": method},
        "language": "python",
        "commit": COMMIT,
        "prompt": "",
        **extra,
    }


def _file_set(tmp_path: Path, cases: list[dict]) -> FileSet:
    tar = tmp_path / "tiny.tar"
    with tarfile.open(tar, "w") as archive:
        for name, text in (("pkg/__init__.py", ""), ("pkg/calc.py", CALC)):
            data = text.encode()
            info = tarfile.TarInfo(name)
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
    paths = {f"repos/me+tiny@{COMMIT}.tar": tar}
    for case in cases:
        path = tmp_path / f"{case['case_id']}.json"
        path.write_text(json.dumps(case), encoding="utf-8")
        paths[f"data/test_gen/{case['case_id']}.json"] = path
    listing = tmp_path / "list.sha256"
    listing.write_text("".join(f"{sha256_file(p)}  {n}\n" for n, p in paths.items()))
    return FileSet(listing, paths)


def test_cases_get_their_located_method_file_and_module(tmp_path):
    files = _file_set(tmp_path, [_case(1, "add", 2), _case(2, "Times-Bold", 2)])
    rows = read_repo_test_cases(files, language="python")
    first, odd = rows
    assert (first["first_line"], first["last_line"], first["module"]) == (4, 7, "pkg.calc")
    assert first["file"] == CALC and first["tar_sha256"]
    assert odd["file"] is None and "not an identifier" in odd["file_error"]
    items = repo_test_items(rows)
    assert "import the focal module as `pkg.calc`" in items[0]["input"]
    assert "def add(a, b):" in items[0]["input"]
    assert items[1]["target"]["unavailable"]


def test_the_cap_per_repository_is_seeded(tmp_path):
    files = _file_set(tmp_path, [_case(n, "add", 2) for n in range(1, 8)])
    once = [r["case_id"] for r in read_repo_test_cases(files, language="python", per_repo=3)]
    again = [r["case_id"] for r in read_repo_test_cases(files, language="python", per_repo=3)]
    assert len(once) == 3 and once == again
    other = read_repo_test_cases(files, language="python", per_repo=3, seed=1)
    assert len(other) == 3


def test_a_malformed_case_names_its_file(tmp_path):
    files = _file_set(tmp_path, [_case(1, "add", 2, line_range=[5])])
    with pytest.raises(ValueError, match=r"case-1.json: line_range"):
        read_repo_test_cases(files, language="python")


def test_python_module_follows_packages():
    names = {"a/__init__.py", "a/b/__init__.py"}
    assert python_module("a/b/c.py", names) == "a.b.c"
    assert python_module("src/a/b/c.py", {"src/a/__init__.py", "src/a/b/__init__.py"}) == "a.b.c"
    assert python_module("tool.py", set()) == "tool"


def test_the_shipped_list_is_the_mirror_s(mirror):
    assert file_list_lines(mirror / "MANIFEST.tsv") == LIST.read_text().splitlines()
