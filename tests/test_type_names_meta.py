"""Meta-test: outside the built-in task-type plugin, no module branches on a task type's name.

Task types are behaviour (``task.behaviour``); generic code asks the type, or checks the
target kinds a method or metric declared. A comparison of ``.type`` (or a ``task_type``
variable) with a string literal, or membership in a tuple of literals, is type-name
branching and fails this test.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
ALLOWED = {Path("seebench/tasks/plugin.py")}


#: objects whose ``.type`` is not a task type: torch devices and tree-sitter syntax nodes
#: (variables named ``device``, ``node``, ``*_node``, ``child``, ``parent``...)
NOT_TASKS = re.compile(r"^(device|node|\w+_node|child|parent|sibling|current|kid)$")


def _names_a_type(node: ast.AST) -> bool:
    if isinstance(node, ast.Attribute) and node.attr == "type":
        owner = node.value
        return not (isinstance(owner, ast.Name) and NOT_TASKS.match(owner.id))
    return isinstance(node, ast.Name) and node.id in ("task_type", "type_name")


def _is_literal(node: ast.AST) -> bool:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return True
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        return bool(node.elts) and all(_is_literal(e) for e in node.elts)
    return False


def type_name_comparisons(source: str) -> list[int]:
    """Line numbers where a task type's name is compared with a string literal."""
    lines = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Compare):
            operands = [node.left, *node.comparators]
            if any(_names_a_type(o) for o in operands) and any(_is_literal(o) for o in operands):
                lines.append(node.lineno)
    return lines


def test_the_detector_finds_what_it_must():
    assert type_name_comparisons('if task.type == "regression": pass') == [1]
    assert type_name_comparisons('x = task.type in ("binary", "multiclass")') == [1]
    assert type_name_comparisons('if task_type != "ner": pass') == [1]
    assert type_name_comparisons("if task.target_kind == NUMBER: pass") == []
    assert type_name_comparisons('if device.type == "cuda": pass') == []  # a torch device
    assert type_name_comparisons('if node.type == "identifier": pass') == []  # a syntax node
    assert type_name_comparisons('ok = child.type in ("comment", "string")') == []
    assert type_name_comparisons('if spec.type == "ner": pass') == [1]


def test_no_module_outside_the_type_plugins_compares_type_names():
    offenders = []
    for path in sorted((REPO_ROOT / "seebench").rglob("*.py")):
        relative = path.relative_to(REPO_ROOT)
        if relative in ALLOWED:
            continue
        source = path.read_text(encoding="utf-8")
        for line in type_name_comparisons(source):
            text = source.splitlines()[line - 1].strip()
            offenders.append(f"{relative}:{line}: {text}")
    assert offenders == [], "type-name branching:\n" + "\n".join(offenders)
