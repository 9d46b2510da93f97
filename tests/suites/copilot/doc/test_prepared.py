"""The prepared-case cache: records kept by content, read back on the next load, and
computed again when the kept file is damaged or the content changed."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from seebench.data.cache import data_dir
from seebench.data.file_sets import FileSet
from seebench.suites.copilot.doc import cases, prepared, trees
from seebench.suites.copilot.doc.cases import read_doc_cases
from seebench.suites.copilot.doc.checks import check_answer
from tests.suites.copilot.doc.cases import CASES, case_json


def _file_set(root: Path) -> FileSet:
    """Two cases (Java, Python) with the checksums of their files, as the data cache gives."""
    paths, digests = {}, {}
    for number, language in ((1, "java"), (2, "python")):
        case = case_json(language, number)
        folder = root / f"case-{number}"
        folder.mkdir(parents=True, exist_ok=True)
        for name, text in (
            (f"case-{number}.json", json.dumps(case)),
            (case["file_path"], CASES[language]["file"]),
        ):
            (folder / name).write_text(text, encoding="utf-8")
            upstream = f"data/doc/case-{number}/{name}"
            paths[upstream] = folder / name
            digests[upstream] = hashlib.sha256(text.encode()).hexdigest()
    return FileSet(root / "list.sha256", paths, digests)


def _no_preparation(*_args, **_kwargs):
    raise AssertionError("the records were prepared again")


def test_the_second_load_reads_the_records_back(tmp_path, monkeypatch):
    files = _file_set(tmp_path / "data")
    first = read_doc_cases(files)
    assert prepared.cache_path(prepared.cache_key(files, None)).is_file()
    monkeypatch.setattr(cases, "_prepare", _no_preparation)
    assert read_doc_cases(files) == first


def test_read_back_records_give_the_same_verdicts(tmp_path):
    files = _file_set(tmp_path / "data")
    fresh = {r["case_id"]: r["target"] for r in read_doc_cases(files)}
    trees.clear()
    cached = {r["case_id"]: r["target"] for r in read_doc_cases(files)}
    assert cached == fresh
    for case_id, language in (("case-1", "java"), ("case-2", "python")):
        for answer in CASES[language]["answers"].values():
            ours = check_answer(cached[case_id], answer)
            again = check_answer(fresh[case_id], answer, reuse=False)
            assert (ours.checks, ours.problems) == (again.checks, again.problems)


@pytest.mark.parametrize(
    "damage",
    [
        lambda raw: raw[:-20] + b"x" * 20,  # the records changed under their checksum
        lambda raw: b'{"key": "another"}\n' + raw.partition(b"\n")[2],  # the wrong key
        lambda raw: raw[: len(raw) // 2],  # cut short
        lambda raw: b"",
    ],
)
def test_a_damaged_cache_file_is_computed_again_and_rewritten(tmp_path, monkeypatch, damage):
    files = _file_set(tmp_path / "data")
    first = read_doc_cases(files)
    path = prepared.cache_path(prepared.cache_key(files, None))
    path.write_bytes(damage(path.read_bytes()))
    assert prepared.load(prepared.cache_key(files, None)) is None
    assert read_doc_cases(files) == first
    monkeypatch.setattr(cases, "_prepare", _no_preparation)  # rewritten whole
    assert read_doc_cases(files) == first


def test_changed_content_or_another_language_is_another_key(tmp_path):
    files = _file_set(tmp_path / "data")
    key = prepared.cache_key(files, None)
    assert prepared.cache_key(files, "python") not in (key, None)
    digests = dict(files.digests)
    digests["data/doc/case-2/case-2.json"] = "0" * 64
    assert prepared.cache_key(FileSet(files.list_path, files.paths, digests), None) != key


def test_a_file_set_without_checksums_caches_nothing(tmp_path):
    files = _file_set(tmp_path / "data")
    plain = FileSet(files.list_path, files.paths)
    assert prepared.cache_key(plain, None) is None
    rows = read_doc_cases(plain)
    assert not (data_dir() / "prepared").exists()
    assert rows == read_doc_cases(files)


def test_each_file_text_is_written_once_and_a_bad_index_is_computed_again(tmp_path):
    files = _file_set(tmp_path / "data")
    first = read_doc_cases(files)
    key = prepared.cache_key(files, None)
    path = prepared.cache_path(key)
    head, _, body = path.read_bytes().partition(b"\n")
    kept = json.loads(body)
    assert all(isinstance(r["file"], int) for r in kept["records"] if not r["excluded"])
    assert len(kept["files"]) == len(set(kept["files"]))
    kept["records"][0]["file"] = len(kept["files"])  # points past the texts
    bad = json.dumps(kept).encode()
    header = json.loads(head)
    header["sha256"] = hashlib.sha256(bad).hexdigest()
    path.write_bytes(json.dumps(header).encode() + b"\n" + bad)
    assert prepared.load(key) is None
    assert read_doc_cases(files) == first
