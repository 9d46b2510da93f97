"""Doc cases: the reader over a file set, the record of one case, what the model is shown."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from seebench.data.file_sets import FileSet
from seebench.suites.copilot.doc.cases import build_case, read_doc_cases
from tests.suites.copilot.doc.cases import CASES, case_json


def write_cases(root: Path, cases: dict[int, tuple[dict, str]]) -> FileSet:
    """A file set of ``data/doc/case-N/`` folders (case JSON + source file)."""
    paths = {}
    for number, (case, source) in cases.items():
        folder = f"data/doc/case-{number}"
        (root / folder).mkdir(parents=True, exist_ok=True)
        for name, text in ((f"case-{number}.json", json.dumps(case)), (case["file_path"], source)):
            (root / folder / name).write_text(text, encoding="utf-8")
            paths[f"{folder}/{name}"] = root / folder / name
    return FileSet(root / "list.sha256", paths)


def test_the_documented_function_loses_its_doc_and_keeps_it_as_oracle():
    source = CASES["java"]["file"].replace(
        "    public static", "    /**\n     * Clamps.\n     */\n    public static"
    )
    record = build_case({**case_json("java"), "line_range": [4, 9]}, source)
    assert record["excluded"] is None
    assert "Clamps" not in record["file"] and "Clamps" not in record["function"]
    assert (record["start"], record["end"]) == (1, 6)
    assert record["oracle"].startswith("/**\n * Clamps.\n */\npublic static int clamp(")
    assert record["indent"] == "    "
    assert record["function"].startswith("public static int clamp(")


def test_a_python_docstring_inside_the_range_is_the_oracle():
    good = CASES["python"]["answers"]["good"]
    source = "class Store:\n" + "\n".join("    " + line for line in good.splitlines()) + "\n"
    record = build_case({**case_json("python"), "line_range": [1, len(good.splitlines())]}, source)
    assert record["oracle"] == good
    assert '"""' not in record["function"] and '"""' not in record["file"]
    assert (
        record["end"] - record["start"] == len(CASES["python"]["answers"]["good"].splitlines()) - 10
    )


def test_a_range_without_a_function_is_excluded_with_its_reason():
    record = build_case({**case_json("python"), "line_range": [0, 2]}, CASES["python"]["file"])
    assert record["excluded"] == "no function spans lines 1-3"


def test_the_reader_keeps_one_language_in_case_order(tmp_path):
    files = write_cases(
        tmp_path,
        {
            10: (case_json("java", 10), CASES["java"]["file"]),
            2: (case_json("python", 2), CASES["python"]["file"]),
            9: (case_json("python", 9), CASES["python"]["file"]),
        },
    )
    rows = read_doc_cases(files, language="Py")
    assert [r["case_id"] for r in rows] == ["case-2", "case-9"]
    assert rows[0]["target"]["language"] == "python"
    assert "def get(self, key, default=None):" in rows[0]["input"]
    assert "It is lines 5-9 of the file case-2_file.python" in rows[0]["input"]
    assert [r["case_id"] for r in read_doc_cases(files)] == ["case-2", "case-9", "case-10"]


def test_a_broken_case_is_kept_excluded_naming_its_file(tmp_path):
    broken = {**case_json("python", 3), "line_range": [5]}
    files = write_cases(tmp_path, {3: (broken, CASES["python"]["file"])})
    (tmp_path / "data/doc/case-4").mkdir(parents=True)
    (tmp_path / "data/doc/case-4/case-4.json").write_text("{not json")
    paths = dict(files.paths)
    paths["data/doc/case-4/case-4.json"] = tmp_path / "data/doc/case-4/case-4.json"
    rows = read_doc_cases(FileSet(files.list_path, paths), language="python")
    reasons = {r["case_id"]: r["target"]["excluded"] for r in rows}
    assert reasons["case-3"].startswith("data/doc/case-3/case-3.json: ValueError: line_range [5]")
    assert reasons["case-4"].startswith("data/doc/case-4/case-4.json: JSONDecodeError")


def test_the_reader_reads_only_file_sets(tmp_path):
    with pytest.raises(ValueError, match="reads a file set"):
        read_doc_cases(tmp_path / "x.json")


@pytest.mark.parametrize(
    ("case_json_name", "file_path"),
    [
        ("data/doc/case-1/case-1.json", "Store.java"),
        ("data/doc/case-1/case-1.json", "./Store.java"),
        ("data/doc/case-1/case-1.json", "src/Store.java"),
        ("data//doc/case-1/case-1.json", "Store.java"),
        ("case-1.json", "Store.java"),
        ("data/doc/case-1/case-1.json", ".."),
    ],
)
def test_a_case_file_is_named_as_a_posix_path_joins_it(case_json_name, file_path):
    from pathlib import PurePosixPath

    from seebench.suites.copilot.doc.cases import _member

    assert _member(case_json_name, file_path) == str(
        PurePosixPath(case_json_name).parent / file_path
    )
