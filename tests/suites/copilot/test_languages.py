import pytest

from seebench.errors import SeebenchError
from seebench.suites.copilot.languages import canonical_language, check_syntax

VALID = {
    "python": "def f(x):\n    return x\n",
    "javascript": "function f(a) { return a; }\n",
    "typescript": "function f(a: number): number { return a; }\n",
    "java": "class A { int f(int x) { return x; } }\n",
    "csharp": "class A { int F(int x) { return x; } }\n",
    "cpp": "int f(int x) { return x; }\n",
}
BROKEN = {
    "python": "def f(x)\n    return x\n",
    "javascript": "function f(a) { return a; \n",
    "typescript": "function f(a: number): number { return a; \n",
    "java": "class A { int f(int x) { return x } }\n",
    "csharp": "class A { int F(int x) { return x } }\n",
    "cpp": "int f(int x) { return x }\n",
}


@pytest.mark.parametrize("language", sorted(VALID))
def test_valid_code_parses(language):
    assert check_syntax(VALID[language], language).ok


@pytest.mark.parametrize("language", sorted(BROKEN))
def test_broken_code_is_located(language):
    check = check_syntax(BROKEN[language], language)
    assert not check.ok
    assert check.line is not None and check.message


def test_aliases_and_unknown_language():
    assert canonical_language("C#") == "csharp"
    assert canonical_language("TS") == "typescript"
    with pytest.raises(SeebenchError, match="unknown language 'cobol'"):
        canonical_language("cobol")
