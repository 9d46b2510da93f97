"""Meta-test: no module branches on a model's backend kind outside the backend registry.

A model's ``kind`` names the backend registered for it (``register_backends``); generic code
asks the registry (:func:`seebench.models.backend_entry`, ``chat_problem``,
``backend_placement``), so a plugin's backend is handled like a built-in one. Reading
``<model>.kind`` (``model.kind``, ``self.model.kind``, ``ref.kind``...) anywhere else fails
this test.
"""

from __future__ import annotations

import ast
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]
#: where the kind is read: the model reference and the backend lookup
ALLOWED = {Path("seebench/models/__init__.py")}
MODEL_OWNERS = ("model", "ref", "model_ref")


def _owner_name(node: ast.AST) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None


def kind_reads(source: str) -> list[int]:
    """Line numbers where a model reference's ``kind`` is read."""
    lines = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute) and node.attr == "kind":
            owner = _owner_name(node.value)
            if owner is not None and owner.lower() in MODEL_OWNERS:
                lines.append(node.lineno)
    return sorted(set(lines))


def test_the_detector_finds_what_it_must():
    assert kind_reads('if model.kind == "hf": pass') == [1]
    assert kind_reads('x = self.model.kind in ("openai", "api")') == [1]
    assert kind_reads("backend = table[context.model.kind]") == [1]
    assert kind_reads('if ref.kind != "rule": pass') == [1]
    assert kind_reads("if task.target_kind == LABEL: pass") == []
    assert kind_reads('if codec.kind == "mlm": pass') == []
    assert kind_reads('if source.kind == "url": pass') == []


def test_no_backend_kind_branching_outside_the_registry():
    found = []
    for path in sorted((REPO_ROOT / "seebench").rglob("*.py")):
        relative = path.relative_to(REPO_ROOT)
        if relative in ALLOWED:
            continue
        found += [f"{relative}:{line}" for line in kind_reads(path.read_text())]
    assert not found, "ask the backend registry instead of reading model.kind: " + ", ".join(found)
