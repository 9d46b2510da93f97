"""Reading fix cases: rule names, locating the target warning, files from repository tars."""

from __future__ import annotations

import hashlib
import io
import json
import tarfile

import pytest

from seebench.data.file_sets import FileSet
from seebench.suites.copilot.fix.analyzers import Diagnostic
from seebench.suites.copilot.fix.cases import (
    analyzer_rule,
    archive_name,
    case_row,
    file_list_lines,
    is_artefact,
    locate,
    read_fix_cases,
)


def test_rules_are_the_analyzers_own_ids():
    assert analyzer_rule("pylint", "pylint-undefined-variable") == "undefined-variable"
    assert analyzer_rule("pyright", "pyright-reportOptionalCall") == "reportOptionalCall"
    assert analyzer_rule("pyright", "pyright-reportPossiblyUnboundVariable") == (
        "reportPossiblyUnboundVariable"
    )
    assert analyzer_rule("tsc", "tsc-Error TS2304: Cannot find name '{0}'.") == "TS2304"
    assert analyzer_rule("eslint", "eslint-@typescript-eslint/no-this-alias") == (
        "@typescript-eslint/no-this-alias"
    )


def test_the_target_is_found_by_rule_and_message_nearest_the_recorded_line():
    found = [
        Diagnostic("no-member", "Module 'os' has no 'foo' member", 3),
        Diagnostic("undefined-variable", "Undefined variable 'x'", 10),
        Diagnostic("undefined-variable", "Undefined variable 'x'", 40),
        Diagnostic("undefined-variable", "Undefined variable 'y'", 12),
    ]
    assert locate(found, "undefined-variable", "Undefined variable 'x'", 35).line == 40
    assert locate(found, "undefined-variable", "Undefined  variable 'x'", 1).line == 10
    assert locate(found, "undefined-variable", "Undefined variable 'z'", 10) is None
    assert locate(found, "no-member", "Undefined variable 'x'", 10) is None


def test_eslint_rule_definition_messages_are_artefacts():
    assert is_artefact("eslint", "Definition for rule 'jest/expect-expect' was not found.")
    assert not is_artefact("eslint", "Unexpected constant condition.")
    assert not is_artefact("pylint", "Definition for rule 'x' was not found.")


def _case(number: int, analyzer: str, path: str, **extra) -> dict:
    return {
        "case_id": f"case-{number}",
        "repo_name": "octo/demo",
        "commit": "abc123",
        "file_path": path,
        "code_snippet": "x\n",
        "line_range": [2, 2],
        "command_specific_fields": {
            "static_analyzer": analyzer,
            "rule": f"{analyzer}-undefined-variable",
            "analyzer_error": "Undefined variable 'x'",
        },
        "language": "python",
        "prompt": "",
        **extra,
    }


def _file_set(tmp_path, cases: list[dict], members: dict[str, bytes]) -> FileSet:
    tar_path = tmp_path / "demo.tar"
    with tarfile.open(tar_path, "w") as archive:
        for name, data in members.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
    paths = {archive_name("octo/demo", "abc123"): tar_path}
    for case in cases:
        path = tmp_path / f"{case['case_id']}.json"
        path.write_text(json.dumps(case))
        paths[f"data/fix/{case['case_id']}.json"] = path
    return FileSet(tmp_path / "list.sha256", paths)


def test_the_reader_takes_each_file_from_the_archive_and_says_why_one_is_missing(tmp_path):
    cases = [
        _case(2, "pylint", "pkg/mod.py"),
        _case(10, "pylint", "pkg/gone.py"),
        _case(1, "pyright", "pkg/mod.py"),
        _case(3, "pylint", "pkg/latin.py"),
    ]
    members = {"pkg/mod.py": b"import os\nprint(x)\n", "pkg/latin.py": "é".encode("latin-1")}
    rows = read_fix_cases(_file_set(tmp_path, cases, members), analyzer="pylint")
    assert [r["case_id"] for r in rows] == ["case-2", "case-3", "case-10"]
    assert rows[0]["file"] == "import os\nprint(x)\n"
    assert rows[0]["rule"] == "undefined-variable" and rows[0]["recorded_line"] == 2
    assert rows[1]["file"] is None and "not UTF-8" in rows[1]["file_error"]
    assert rows[2]["file"] is None and "pkg/gone.py is not in repos/" in rows[2]["file_error"]


def test_a_malformed_case_names_its_file_and_key():
    with pytest.raises(ValueError, match=r"case-9.json: no key 'commit'"):
        case_row(
            {k: v for k, v in _case(9, "pylint", "a.py").items() if k != "commit"},
            "data/fix/case-9.json",
        )
    bad = _case(9, "pylint", "a.py", line_range="7")
    with pytest.raises(ValueError, match="line_range '7'"):
        case_row(bad, "data/fix/case-9.json")


def test_the_file_list_names_every_case_and_the_archives_they_need(tmp_path):
    root = tmp_path / "mirror"
    (root / "copilot_harness" / "fix").mkdir(parents=True)
    (root / "copilot_harness" / "repos").mkdir()
    case = json.dumps(_case(0, "pylint", "a.py")).encode()
    (root / "copilot_harness/fix/case-0.json").write_bytes(case)
    tar = b"tar bytes"
    digest = hashlib.sha256(case).hexdigest()
    tar_digest = hashlib.sha256(tar).hexdigest()
    header = "path\tsuite\ttask\tfile\tsource_repo\tsource_path\tcommit\tbytes\tsha256\tstatus"
    lines = [
        header,
        f"copilot_harness/fix/case-0.json\tc\tfix\tcase-0.json\tr\tp\tc\t1\t{digest}\tok",
        f"copilot_harness/repos/octo+demo@abc123.tar\tc\trepos\tt\tr\tp\tc\t1\t{tar_digest}\tok",
        f"copilot_harness/repos/other+x@1.tar\tc\trepos\tt\tr\tp\tc\t1\t{tar_digest}\tok",
    ]
    (root / "MANIFEST.tsv").write_text("\n".join(lines) + "\n")
    assert file_list_lines(root / "MANIFEST.tsv") == [
        f"{digest}  data/fix/case-0.json",
        f"{tar_digest}  repos/octo+demo@abc123.tar",
    ]
