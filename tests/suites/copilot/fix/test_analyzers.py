"""Each analyzer in the sandbox on hand-made files: the warning is found on the original,
gone on a fix, kept by the null answer; artifacts are written per sample."""

from __future__ import annotations

import json

import pytest

from seebench.data.dataset import Sample
from seebench.scoring.core import ScoreContext
from seebench.suites.copilot.fix.analysis import AnalysisRunner
from seebench.suites.copilot.fix.analyzers import analyzer
from seebench.suites.copilot.fix.cases import locate
from seebench.suites.copilot.fix.reproduce import LazySandbox
from seebench.suites.copilot.fix.scorer import FixScorer

CASES = {
    "pylint": (
        "pkg/text.py",
        "python",
        "import os\n\n\ndef f():\n    return unicode(os.sep)\n",
        ("undefined-variable", "Undefined variable 'unicode'", 5),
        "import os\n\n\ndef f():\n    return str(os.sep)\n",
    ),
    "pyright": (
        "pkg/opt.py",
        "python",
        "from typing import Optional\n\n\ndef f(x: Optional[str]) -> int:\n"
        "    return len(x.strip())\n",
        ("reportOptionalMemberAccess", '"strip" is not a known attribute of "None"', 5),
        "from typing import Optional\n\n\ndef f(x: Optional[str]) -> int:\n"
        '    return len((x or "").strip())\n',
    ),
    "eslint": (
        "lib/has.js",
        "javascript",
        "const o = {};\nif (o.hasOwnProperty('a')) {\n  console.log(1);\n}\n",
        (
            "no-prototype-builtins",
            "Do not access Object.prototype method 'hasOwnProperty' from target object.",
            2,
        ),
        "const o = {};\nif (Object.prototype.hasOwnProperty.call(o, 'a')) {\n  console.log(1);\n}\n",
    ),
    "tsc": (
        "src/id.ts",
        "typescript",
        "export function f(x) {\n  return x;\n}\n",
        ("TS7006", "Parameter 'x' implicitly has an 'any' type.", 1),
        "export function f(x: number): number {\n  return x;\n}\n",
    ),
}


#: per analyzer, the original with a directive that silences its warning and fixes nothing
SILENCED = {
    "pylint": CASES["pylint"][2].replace(
        "unicode(os.sep)", "unicode(os.sep)  # pylint: disable=undefined-variable"
    ),
    "pyright": CASES["pyright"][2].replace("x.strip())", "x.strip())  # type: ignore"),
    "eslint": CASES["eslint"][2].replace(
        "if (o.", "// eslint-disable-next-line no-prototype-builtins\nif (o."
    ),
    "tsc": "// @ts-ignore\n" + CASES["tsc"][2],
}


def case_sample(name: str, case_id: str | None = None) -> Sample:
    """A fix sample of the hand-written case ``name`` (id ``case_id``, default ``hand-NAME``)."""
    case_id = case_id or f"hand-{name}"
    file_name, language, original, (rule, message, line), _ = CASES[name]
    target = {
        "case_id": case_id,
        "analyzer": name,
        "rule": rule,
        "message": message,
        "line": line,
        "language": language,
        "file_name": file_name,
        "original": original,
        "warnings": 1,
    }
    return Sample(case_id, "prompt", target)


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_warning_is_found_fixed_and_kept_by_the_null_answer(name, analyzers_ok, tmp_path):
    sample = case_sample(name)
    fixed = CASES[name][4]
    scorer = FixScorer(name)
    context = ScoreContext(task=None, artifacts=tmp_path)  # type: ignore[arg-type]
    try:
        null, fix = scorer.score_many(
            [(sample, sample.target["original"]), (sample, fixed)], context
        )
    finally:
        scorer.close()
    assert null.value == 0.0, null.explanation
    assert null.metadata["warnings_before"] >= 1 and not null.metadata["target_fixed"]
    assert fix.value == 1.0, fix.explanation
    assert (null.metadata["verdict"], fix.metadata["verdict"]) == ("failed", "passed")
    assert fix.metadata["target_fixed"] and not fix.metadata["new_warnings"]
    folder = tmp_path / fix.metadata["artifacts"]
    assert "+" in (folder / "diff.patch").read_text()
    analysis = json.loads((folder / "analysis.json").read_text())
    found = [d for d in analysis["original"]["diagnostics"] if d["rule"] == sample.target["rule"]]
    assert found and found[0]["line"] == sample.target["line"]
    assert (folder / f"edited-{sample.target['file_name'].rsplit('/', 1)[-1]}").read_text() == fixed


@pytest.mark.parametrize("name", sorted(CASES))
def test_an_answer_that_silences_the_analyzer_is_tampered(name, analyzers_ok, tmp_path):
    sample = case_sample(name)
    scorer = FixScorer(name)
    context = ScoreContext(task=None, artifacts=tmp_path)  # type: ignore[arg-type]
    try:
        [score] = scorer.score_many([(sample, SILENCED[name])], context)
    finally:
        scorer.close()
    metadata = score.metadata
    # the analyzer honours the directive: by its count alone this would be a fix
    assert metadata["warnings_after"] < metadata["warnings_before"], metadata
    assert score.value == 0.0 and metadata["verdict"] == "tampered"
    assert not metadata["fixed"] and not metadata["target_fixed"] and metadata["suppressed"]
    assert score.explanation.startswith("tampered: adds analyzer directives")


def test_files_are_analysed_alone_and_cached(analyzers_ok, tmp_path):
    """Two files of one batch cannot see each other; a second run reads the cache."""
    tool = analyzer("pylint")
    files = [
        ("helper.py", "VALUE = 1\n"),
        ("main.py", "import helper\n\nprint(helper.VALUE, undefined_name)\n"),
    ]
    sandbox = LazySandbox(tool, workers=1)
    try:
        runner = AnalysisRunner(tool, sandbox)
        first = runner.analyse(files)
        assert runner.ran == 2
        rules = {d.rule for d in first[1].diagnostics}
        assert "import-error" in rules and "undefined-variable" in rules
        again = AnalysisRunner(tool, sandbox)
        assert again.analyse(files) == [type(a)(a.diagnostics) for a in first] and again.ran == 0
    finally:
        sandbox.close()
    assert (
        locate(
            first[1].diagnostics, "undefined-variable", "Undefined variable 'undefined_name'", 1
        ).line
        == 3
    )


def test_a_files_pylint_diagnostics_do_not_depend_on_the_files_before_it(analyzers_ok):
    """The pylint driver keeps standard-library trees between files, nothing else: a file
    that shadows a standard module or imports relatively does not change what the next file
    gets, and each file's diagnostics are those it gets alone."""
    from seebench.suites.copilot.fix.analyzers import folder_name

    tool = analyzer("pylint")
    files = [
        ("helper.py", "VALUE = 1\n"),
        ("os.py", "import sys\n\nSEP = sys.platform\n"),
        ("rel.py", "from . import sibling\n\nprint(sibling.VALUE)\n"),
        ("main.py", "import os\nimport helper\n\nprint(os.SEP, os.sep, helper.VALUE, nope)\n"),
    ]

    def analyse(chosen: list[tuple[str, str]]) -> dict[str, list]:
        batch = {folder_name(i, name): text for i, (name, text) in enumerate(chosen)}
        (result,) = sandbox.run_many([tool.request(batch)])
        parsed = tool.parse(result.stdout, list(batch))
        return {name.rsplit("/", 1)[-1]: parsed[name] for name in batch}

    sandbox = LazySandbox(tool, workers=1)
    try:
        together = analyse(files)
        alone = {name: analyse([(name, text)])[name] for name, text in files}
    finally:
        sandbox.close()
    assert together == alone
    main = together["main.py"]
    assert any(d.rule == "undefined-variable" and "nope" in d.message for d in main)
    assert any(d.rule == "import-error" and "helper" in d.message for d in main)
    # the standard os, not the os.py analysed before it
    assert any(d.rule == "no-member" and "SEP" in d.message for d in main)


def test_a_missing_tool_leaves_samples_unscored_with_the_reason(tmp_path, monkeypatch):
    monkeypatch.setenv("SEEBENCH_COPILOT_TOOLS", str(tmp_path / "no-tools"))
    sample = case_sample("eslint")
    scorer = FixScorer("eslint")
    context = ScoreContext(task=None, artifacts=tmp_path)  # type: ignore[arg-type]
    (score,) = scorer.score_many([(sample, CASES["eslint"][4])], context)
    scorer.close()
    assert score.value is None
    assert "seebench copilot tools install" in score.explanation
