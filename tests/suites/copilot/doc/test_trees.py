"""Kept parses and re-parsing an edit: the verdict of every answer is the same whether the
case's parse was kept at load time, kept from an earlier answer, or not kept at all."""

from __future__ import annotations

import json

import pytest

from seebench.data.file_sets import FileSet
from seebench.suites.copilot.doc import trees
from seebench.suites.copilot.doc.cases import build_case, read_doc_cases
from seebench.suites.copilot.doc.checks import check_answer
from seebench.suites.copilot.languages import parser
from tests.suites.copilot.doc.cases import CASES, case_json

LANGUAGES = sorted(CASES)


@pytest.fixture(autouse=True)
def _nothing_kept():
    trees.clear()
    yield
    trees.clear()


def _verdict(verdict) -> tuple:
    return verdict.checks, verdict.problems, verdict.edited


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_answer_gets_the_same_verdict_with_and_without_a_kept_parse(language):
    fresh = build_case(case_json(language), CASES[language]["file"])
    plain = {
        name: _verdict(check_answer(fresh, answer, reuse=False))
        for name, answer in CASES[language]["answers"].items()
    }
    kept = build_case(case_json(language), CASES[language]["file"], keep=True)
    assert trees.kept(language, kept["file"]) is not None
    for name, answer in CASES[language]["answers"].items():
        assert _verdict(check_answer(kept, answer)) == plain[name], name
    trees.clear()  # nothing kept: the first answer's parse is kept for the next ones
    for name, answer in CASES[language]["answers"].items():
        assert _verdict(check_answer(kept, answer)) == plain[name], name
    assert trees.kept(language, kept["file"]) is not None


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_re_parse_is_the_tree_a_fresh_parse_gives(language):
    source = CASES[language]["file"].encode()
    tree = parser(language).parse(source)
    edits = [
        source,  # nothing changed
        source.replace(b"\n", b"\n\n", 1),  # a line added at the top
        source + b"\n// trailing\n" if language != "python" else source + b"\n# trailing\n",
        source[: len(source) // 2] + b" ((( " + source[len(source) // 2 :],  # a syntax error
        source[: len(source) // 3],  # cut short
    ]
    for new in edits:
        again = trees.reparse(language, source, tree, new)
        assert str(again.root_node) == str(parser(language).parse(new).root_node)


def test_the_store_keeps_at_most_its_bound_dropping_the_oldest(monkeypatch):
    monkeypatch.setattr(trees, "KEPT_BYTES", 10)
    tree = parser("python").parse(b"x = 1\n")
    trees.keep("python", "a = 1", b"a = 1", tree)
    trees.keep("python", "b = 22", b"b = 22", tree)
    assert trees.kept("python", "a = 1") is None
    assert trees.kept("python", "b = 22") is not None


def test_a_shared_source_file_is_read_once_for_all_its_cases(tmp_path):
    reads: list[str] = []

    class Counting(FileSet):
        def read_text(self, name: str, encoding: str = "utf-8") -> str:
            reads.append(name)
            return super().read_text(name, encoding)

    source = tmp_path / "store.py"
    source.write_text(CASES["python"]["file"], encoding="utf-8")
    paths = {}
    for number in (1, 2):
        case = tmp_path / f"case-{number}.json"
        case.write_text(json.dumps(case_json("python", number)), encoding="utf-8")
        paths[f"data/doc/case-{number}/case-{number}.json"] = case
        # the data cache stores equal files once: both cases' files are the same path
        paths[f"data/doc/case-{number}/case-{number}_file.python"] = source
    rows = read_doc_cases(Counting(tmp_path / "list", paths))
    assert [r["case_id"] for r in rows] == ["case-1", "case-2"]
    assert sum(name.endswith(".python") for name in reads) == 1
    target = rows[1]["target"]
    good = CASES["python"]["answers"]["good"]
    assert check_answer(target, good).checks == check_answer(target, good, reuse=False).checks
