"""Mutants of a focal definition: small AST edits (operators, comparisons, boolean operators,
constants), chosen with a seed, kept only when the item's own hidden tests notice them.

A mutant the hidden tests do not notice (they still pass) is discarded: it may be equivalent
to the solution, and the test-generation score should not ask a generated test to catch what
the reference tests cannot. What is kept is stored once per solution (see :class:`MutantStore`)
so every run and every model faces the same mutants.
"""

from __future__ import annotations

import ast
import hashlib
import json
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from seebench import safe_files

#: the store's file format (a change regenerates every stored set)
FORMAT = 3

BINARY_SWAPS: dict[type, type] = {
    ast.Add: ast.Sub,
    ast.Sub: ast.Add,
    ast.Mult: ast.Div,
    ast.Div: ast.Mult,
    ast.FloorDiv: ast.Div,
    ast.Mod: ast.FloorDiv,
    ast.Pow: ast.Mult,
    ast.LShift: ast.RShift,
    ast.RShift: ast.LShift,
    ast.BitAnd: ast.BitOr,
    ast.BitOr: ast.BitAnd,
}
COMPARE_SWAPS: dict[type, type] = {
    ast.Lt: ast.LtE,
    ast.LtE: ast.Lt,
    ast.Gt: ast.GtE,
    ast.GtE: ast.Gt,
    ast.Eq: ast.NotEq,
    ast.NotEq: ast.Eq,
    ast.In: ast.NotIn,
    ast.NotIn: ast.In,
    ast.Is: ast.IsNot,
    ast.IsNot: ast.Is,
}
BOOL_SWAPS: dict[type, type] = {ast.And: ast.Or, ast.Or: ast.And}


@dataclass(frozen=True)
class Mutant:
    """One mutant: a name (``m01``...), the edit in words, its line and the whole mutated file."""

    name: str
    operator: str
    line: int
    source: str

    def as_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "operator": self.operator,
            "line": self.line,
            "source": self.source,
        }


def _focal_node(module: ast.Module, entry: str) -> ast.AST | None:
    found = None
    for node in module.body:
        definition = ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef
        if isinstance(node, definition) and node.name == entry:
            found = node
    return found


def _docstrings(focal: ast.AST) -> set[int]:
    """ids of the docstring constants inside ``focal`` (never mutated)."""
    out = set()
    for node in ast.walk(focal):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr):
            value = body[0].value
            if isinstance(value, ast.Constant) and isinstance(value.value, str):
                out.add(id(value))
    return out


def _edits(focal: ast.AST) -> Iterator[tuple[ast.AST, str, Callable[[], None]]]:
    """Every possible edit inside ``focal``, in a fixed order: (node, description, apply)."""
    skip = _docstrings(focal)
    for node in ast.walk(focal):
        if isinstance(node, ast.BinOp | ast.AugAssign) and type(node.op) in BINARY_SWAPS:
            new = BINARY_SWAPS[type(node.op)]
            yield node, f"{type(node.op).__name__}->{new.__name__}", _setter(node, "op", new())
        elif isinstance(node, ast.Compare):
            for index, op in enumerate(node.ops):
                if type(op) in COMPARE_SWAPS:
                    new = COMPARE_SWAPS[type(op)]
                    ops = [*node.ops]
                    ops[index] = new()
                    yield node, f"{type(op).__name__}->{new.__name__}", _setter(node, "ops", ops)
        elif isinstance(node, ast.BoolOp) and type(node.op) in BOOL_SWAPS:
            new = BOOL_SWAPS[type(node.op)]
            yield node, f"{type(node.op).__name__}->{new.__name__}", _setter(node, "op", new())
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not | ast.USub):
            yield node, f"drop {type(node.op).__name__}", _setter(node, "op", ast.UAdd())
        elif isinstance(node, ast.Constant) and id(node) not in skip:
            value = node.value
            if isinstance(value, bool):
                yield node, f"{value}->{not value}", _setter(node, "value", not value)
            elif isinstance(value, int | float):
                yield node, f"{value!r}->{value + 1!r}", _setter(node, "value", value + 1)


def _setter(node: ast.AST, attribute: str, value: Any) -> Callable[[], None]:
    return lambda: setattr(node, attribute, value)


def candidates(solution: str, entry: str) -> list[tuple[int, str, int]]:
    """``(index, edit, line)`` of every edit inside the focal definition (fixed order)."""
    module = ast.parse(solution)
    focal = _focal_node(module, entry)
    if focal is None:
        return []
    return [
        (i, what, getattr(node, "lineno", 0)) for i, (node, what, _) in enumerate(_edits(focal))
    ]


def apply_edit(solution: str, entry: str, index: int) -> str | None:
    """The solution with edit ``index`` applied (``ast.unparse``: comments are not kept), or
    ``None`` when the edit leaves the code unchanged."""
    module = ast.parse(solution)
    focal = _focal_node(module, entry)
    assert focal is not None
    for position, (node, _, apply) in enumerate(_edits(focal)):
        if position == index:
            if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not | ast.USub):
                _replace_with_operand(module, node)
            else:
                apply()
            break
    else:
        return None
    mutated = ast.unparse(module)
    return None if mutated == ast.unparse(ast.parse(solution)) else mutated + "\n"


def _replace_with_operand(module: ast.Module, target: ast.UnaryOp) -> None:
    for parent in ast.walk(module):
        for field, value in ast.iter_fields(parent):
            if value is target:
                setattr(parent, field, target.operand)
                return
            if isinstance(value, list):
                for position, element in enumerate(value):
                    if element is target:
                        value[position] = target.operand
                        return


def draw(solution: str, entry: str, seed: int, limit: int) -> list[Mutant]:
    """Up to ``limit`` distinct candidate mutants, in a seeded order (the same for the same
    solution and seed)."""
    order = candidates(solution, entry)
    random.Random(f"{seed}:{sha256(solution)}").shuffle(order)
    out: list[Mutant] = []
    seen: set[str] = set()
    for index, what, line in order:
        source = apply_edit(solution, entry, index)
        if source is None or source in seen:
            continue
        seen.add(source)
        out.append(Mutant(f"c{len(out) + 1:02d}", what, line, source))
        if len(out) >= limit:
            break
    return out


def sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class MutantSet:
    """The kept mutants of one item and how they were chosen."""

    mutants: list[Mutant]
    tried: int
    discarded: int  # candidates the hidden tests did not notice

    def as_dict(self, key: dict[str, Any]) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "key": key,
            "tried": self.tried,
            "discarded_surviving_hidden_tests": self.discarded,
            "mutants": [m.as_dict() for m in self.mutants],
        }


class MutantStore:
    """Kept mutants on disk, one JSON file per key (solution, tests, entry point, seed and
    limits), under ``root``; a file that does not read back as a valid set is ignored."""

    def __init__(self, root: Path) -> None:
        self.root = root

    @staticmethod
    def key(
        target: dict[str, Any],
        seed: int,
        limit: int,
        candidates: int,
        judge: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        """What a kept set depends on: the item, the draw, and ``judge`` (how candidates are
        run against the hidden tests: the filter program, per-test time limit, compat
        prelude, Python version), so a set filtered under other settings is not reused."""
        key = {
            "solution_sha256": sha256(target["solution"]),
            "tests_sha256": sha256(target["tests"]),
            "entry_point": target["entry_point"],
            "seed": seed,
            "max_mutants": limit,
            "max_candidates": candidates,
        }
        return key if judge is None else {**key, "judge": judge}

    def path(self, key: dict[str, Any]) -> Path:
        digest = sha256(json.dumps(key, sort_keys=True))[:32]
        return self.root / f"{digest}.json"

    def load(self, key: dict[str, Any]) -> MutantSet | None:
        path = self.path(key)
        try:
            data = json.loads(safe_files.read_text(path))
            if data.get("format") != FORMAT or data.get("key") != key:
                return None
            mutants = [
                Mutant(str(m["name"]), str(m["operator"]), int(m["line"]), str(m["source"]))
                for m in data["mutants"]
            ]
            for mutant in mutants:
                ast.parse(mutant.source)
            if len(mutants) > key["max_mutants"]:
                return None
            return MutantSet(
                mutants, int(data["tried"]), int(data["discarded_surviving_hidden_tests"])
            )
        except (OSError, ValueError, KeyError, TypeError, SyntaxError, AttributeError):
            return None

    def save(self, key: dict[str, Any], mutants: MutantSet) -> None:
        path = self.path(key)
        path.parent.mkdir(parents=True, exist_ok=True)
        safe_files.atomic_write_text(path, json.dumps(mutants.as_dict(key), indent=1))


def default_store() -> MutantStore:
    """The store under ``$SEEBENCH_HOME/copilot/mutants``."""
    from seebench.data.cache import seebench_home

    return MutantStore(seebench_home() / "copilot" / "mutants")
