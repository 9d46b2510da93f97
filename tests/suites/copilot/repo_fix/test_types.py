"""The reader keeps the fix cases of whole-tree repositories, the type checks its targets,
and the shipped file list is what the generator writes from the data mirror."""

from __future__ import annotations

import json

import pytest

from seebench.data.cache import sha256_file
from seebench.data.dataset import DataError
from seebench.data.file_sets import FileSet
from seebench.suites.copilot.repo_fix.file_list import LIST_FILE, repo_fix_file_lines
from seebench.suites.copilot.repo_fix.types import RepoFixType, read_repo_fix_cases
from tests.conftest import REPO_ROOT
from tests.suites.copilot.repo_fix.conftest import make_tar

SIX = ("benjaminp/six", "c1b416f24de52ebd8eaed3e379ab85ec9c3e935b")  # a whole tree
DISCORD = ("Rapptz/discord.py", "ff638d393d0f5a83639ccc087bec9bf588b59a22")  # case files only
MANIFEST = REPO_ROOT / ".." / "shared" / "data" / "MANIFEST.tsv"


def _case(number: int, repo: tuple[str, str], path: str) -> dict:
    return {
        "case_id": f"case-{number}",
        "repo_name": repo[0],
        "commit": repo[1],
        "file_path": path,
        "line_range": [1, 1],
        "language": "python",
        "command_specific_fields": {
            "static_analyzer": "pylint",
            "rule": "pylint-undefined-variable",
            "analyzer_error": "Undefined variable 'x'",
        },
    }


def test_only_cases_of_whole_trees_are_read_each_with_its_tar_checksum(tmp_path):
    paths = {}
    for number, (repo, file_path) in enumerate([(SIX, "six.py"), (DISCORD, "bot.py")]):
        case = tmp_path / f"case-{number}.json"
        case.write_text(json.dumps(_case(number, repo, file_path)))
        paths[f"data/fix/case-{number}.json"] = case
        slug = f"{repo[0].replace('/', '+')}@{repo[1]}"
        paths[f"repos/{slug}.tar"] = make_tar(tmp_path / f"{number}.tar", {file_path: "x\n"})
    listing = tmp_path / "list.sha256"
    listing.write_text("".join(f"{sha256_file(p)}  {name}\n" for name, p in paths.items()))
    rows = read_repo_fix_cases(FileSet(listing, paths), analyzer="pylint")
    assert [r["repo"] for r in rows] == ["benjaminp/six"]
    assert rows[0]["file"] == "x\n"
    assert rows[0]["repo_tar_sha256"] == sha256_file(paths[f"repos/benjaminp+six@{SIX[1]}.tar"])
    with pytest.raises(ValueError, match="file set"):
        read_repo_fix_cases({}, analyzer="pylint")


def test_a_target_without_its_repository_is_a_data_error_naming_the_key():
    task = type("Task", (), {"name": "copilot_repo_fix_pylint"})()
    target = {
        "case_id": "case-0",
        "analyzer": "pylint",
        "rule": "undefined-variable",
        "message": "m",
        "line": 1,
        "language": "python",
        "file_name": "six.py",
        "original": "x\n",
        "warnings": 1,
        "repo": SIX[0],
        "commit": SIX[1],
    }
    with pytest.raises(DataError, match="repo_tar_sha256"):
        RepoFixType().normalise_target(task, target)
    full = {**target, "repo_tar_sha256": "0" * 64, "extra": 1}
    assert "extra" not in RepoFixType().normalise_target(task, full)


def test_the_shipped_file_list_is_the_generators_output():
    if not MANIFEST.is_file():
        pytest.skip("no ../shared/data mirror")
    lines = repo_fix_file_lines(MANIFEST)
    assert LIST_FILE.read_text(encoding="utf-8").splitlines() == lines
    assert sum(line[66:].startswith("repos/") for line in lines) == 45


def test_items_carry_their_repository_and_come_shortest_file_first(monkeypatch):
    import seebench.suites.copilot.fix.types as fix_types
    from seebench.suites.copilot.repo_fix.types import copilot_repo_fix_items

    def reproducible(rows):  # part 1's step, without running an analyzer
        return [{**r, "target": {"case_id": r["case_id"], "original": r["file"]}} for r in rows]

    monkeypatch.setattr(fix_types, "copilot_fix_reproducible", reproducible)
    rows = [
        {"case_id": f"case-{n}", "file": text, "repo": SIX[0], "commit": SIX[1]}
        | {"repo_tar_sha256": "0" * 64}
        for n, text in enumerate(["long file\n" * 3, "short\n", "tie\n", "tie\n"])
    ]
    items = copilot_repo_fix_items(rows)
    assert [i["case_id"] for i in items] == ["case-2", "case-3", "case-1", "case-0"]
    assert items[0]["target"]["repo"] == SIX[0] and items[0]["target"]["commit"] == SIX[1]
    assert items[0]["target"]["repo_tar_sha256"] == "0" * 64
