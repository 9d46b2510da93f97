"""The doc checks on hand-made cases: every check passes on a good answer and fails on an
answer made to break it, in every language."""

from __future__ import annotations

import pytest

from seebench.suites.copilot.doc.cases import build_case
from seebench.suites.copilot.doc.checks import (
    CHECKS,
    FORMAT_CHECKS,
    check_answer,
    code_digest,
    region_nodes,
)
from seebench.suites.copilot.languages import parser
from tests.suites.copilot.doc.cases import CASES, case_json

LANGUAGES = sorted(CASES)


def _target(language: str) -> dict:
    record = build_case(case_json(language), CASES[language]["file"])
    assert record["excluded"] is None
    return record


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_good_answer_passes_every_check(language):
    verdict = check_answer(_target(language), CASES[language]["answers"]["good"])
    assert verdict.checks == dict.fromkeys(CHECKS, True), verdict.problems
    assert verdict.passed


@pytest.mark.parametrize(
    ("language", "check"),
    [(lang, check) for lang in LANGUAGES for check in ("syntax", *FORMAT_CHECKS)],
)
def test_an_answer_made_to_break_a_check_fails_it(language, check):
    verdict = check_answer(_target(language), CASES[language]["answers"][check])
    assert not verdict.checks[check]
    assert not verdict.passed
    if check != "syntax":
        assert not verdict.checks["format"]
        assert check in verdict.problems or "found" in verdict.problems


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_unchanged_function_is_syntax_correct_and_fails_format(language):
    target = _target(language)
    verdict = check_answer(target, target["function"])
    assert verdict.checks["syntax"] and verdict.checks["unchanged"] and verdict.checks["found"]
    assert not verdict.checks["placement"] and not verdict.checks["format"]


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_answer_goes_back_at_the_function_s_indentation(language):
    target = _target(language)
    indented = "\n".join(
        "        " + line for line in CASES[language]["answers"]["good"].splitlines()
    )
    verdict = check_answer(target, indented)
    assert verdict.passed, verdict.problems
    assert verdict.edited.splitlines()[target["start"]].startswith(target["indent"])


def test_no_answer_fails_everything():
    verdict = check_answer(_target("python"), None)
    assert not any(verdict.checks.values())
    assert verdict.problems == {"answer": "no answer"}


PYTHON_HEADER = "def get(self, key, default=None):\n"
PYTHON_BODY = CASES["python"]["answers"]["good"].split('    """\n', 2)[-1]


@pytest.mark.parametrize(
    "docstring",
    [
        '    """Look up a key.\n\n    :param key: the key.\n    :param default: the fallback.\n'
        '    :rtype: object\n    """\n',
        '    """Look up a key.\n\n    Parameters\n    ----------\n    key : str\n        The key.\n'
        "    default : object\n        The fallback.\n\n    Returns\n    -------\n    object\n"
        '        The value.\n    """\n',
        "    '''Look up a key.\n\n    @param key: the key.\n    @param default: the fallback.\n"
        "    @return: the value.\n    '''\n",
    ],
    ids=["sphinx", "numpy", "epydoc"],
)
def test_python_docstring_styles_are_all_read(docstring):
    verdict = check_answer(_target("python"), PYTHON_HEADER + docstring + PYTHON_BODY)
    assert verdict.passed, verdict.problems


def test_a_string_that_is_not_the_first_statement_is_no_docstring():
    """The public harness takes the first string literal anywhere as the docstring."""
    answer = PYTHON_HEADER + '    value = self.data.get(key)\n    "Look up a key."\n' + PYTHON_BODY
    verdict = check_answer(_target("python"), answer)
    assert not verdict.checks["placement"]
    assert not verdict.checks["unchanged"]


def test_f_strings_and_bytes_are_no_docstrings():
    for prefix in ("f", "b"):
        answer = PYTHON_HEADER + f'    {prefix}"""Look up a key."""\n' + PYTHON_BODY
        assert not check_answer(_target("python"), answer).checks["placement"]


def test_cpp_triple_slash_doxygen_is_accepted():
    body = CASES["cpp"]["answers"]["good"].split("*/\n", 1)[1]
    doc = (
        "/// Clamps a value into a range.\n/// \\param value the value\n"
        "/// \\param low the lower bound\n/// \\param high the upper bound\n/// \\return the result\n"
    )
    verdict = check_answer(_target("cpp"), doc + body)
    assert verdict.passed, verdict.problems


def test_csharp_block_comment_is_not_its_convention():
    answer = CASES["java"]["answers"]["good"].split("*/\n", 1)[0] + "*/\n"
    body = CASES["csharp"]["answers"]["good"].split("</returns>\n", 1)[1]
    verdict = check_answer(_target("csharp"), answer + body)
    assert "placement" in verdict.problems


def test_a_doc_comment_left_in_the_file_above_the_answer_does_not_count():
    """Only a doc comment inside the answer is the model's; one above it in the file is not."""
    case = {**case_json("javascript"), "line_range": [3, 9]}
    source = (
        "const cache = {};\n/** Unrelated header. */\n\n"
        + CASES["javascript"]["file"].split("\n", 2)[2]
    )
    source = (
        "const cache = {};\n/** A */\n/** B */\n" + CASES["javascript"]["file"].split("\n", 2)[2]
    )
    target = build_case({**case, "line_range": [3, 9]}, source)
    assert target["oracle"].startswith("/** B */")
    verdict = check_answer(target, target["function"])
    assert not verdict.checks["placement"]


def test_a_void_function_needs_no_return_doc():
    source = "class A {\n    void reset(int to) {\n        this.n = to;\n    }\n}\n"
    target = build_case({**case_json("java"), "line_range": [1, 3]}, source)
    answer = "/**\n * Resets the counter.\n * @param to the new value\n */\n" + target["function"]
    assert check_answer(target, answer).passed


def test_typescript_doc_before_the_decorator_of_a_method_counts():
    source = (
        "class A {\n  /** Saves it.\n   * @param x the thing\n   */\n  @Log()\n"
        "  save(x: number): void {\n    this.x = x;\n  }\n}\n"
    )
    target = build_case({**case_json("typescript"), "line_range": [5, 7]}, source)
    assert "Saves it" not in target["file"]  # taken out of the file the model sees
    assert target["oracle"].startswith("/** Saves it.") and "@Log" not in target["oracle"]
    verdict = check_answer(target, target["oracle"])  # now between decorator and method
    assert verdict.passed, verdict.problems


def test_csharp_xml_doc_that_is_not_well_formed_is_still_read():
    body = CASES["csharp"]["answers"]["good"].split("</returns>\n", 1)[1]
    doc = (
        CASES["csharp"]["answers"]["good"]
        .split(body)[0]
        .replace("Clamps a value", "Clamps a < b & c")
    )
    verdict = check_answer(_target("csharp"), doc + body)
    assert verdict.passed, verdict.problems


@pytest.mark.parametrize("language", LANGUAGES)
def test_an_answer_that_leaves_the_file_as_it_was_has_the_reference_facts(language):
    # such an answer is judged without a digest: its code is the reference's, as a whole
    # parse of the file shows
    target = _target(language)
    verdict = check_answer(target, target["function"], reuse=False)
    assert verdict.edited == target["file"]
    assert verdict.checks["syntax"] and verdict.checks["unchanged"]
    data = target["file"].encode("utf-8")
    root = parser(language).parse(data).root_node
    region = region_nodes(root, target["start"], target["end"])
    assert code_digest(region, language, data) == target["reference"]["code_digest"]


def test_a_changed_body_in_a_file_with_syntax_errors_is_still_compared():
    record = build_case(case_json("python"), CASES["python"]["file"] + "\ndef broken(:\n")
    assert record["reference"]["errors_in_file"] > 0
    same = check_answer(record, record["function"])
    assert same.checks["syntax"] and same.checks["unchanged"]
    changed = check_answer(record, record["function"].replace("return value", "return 0"))
    assert changed.checks["syntax"] and not changed.checks["unchanged"]
    assert changed.problems["unchanged"] == "the code changed"
