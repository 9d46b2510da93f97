"""A small results folder for the viewer: three models on three tasks, one Copilot-style fix
sample with its diff and analyzer output, a reply holding ``<script>``, a repeated item."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from seebench.view.catalog import Catalog
from seebench.view.synthetic import classification_records, write_unit

SCRIPT_REPLY = '<script>document.title="pwned"</script><img src=x onerror=alert(1)>'
FIX_ID = "fix-001"
DIFF = """--- a/app/util.py
+++ b/app/util.py
@@ -1,4 +1,4 @@
 def total(xs):
-    l = 0
+    total = 0
     for x in xs:
-        l += x
+        total += x
"""
ANALYSIS = {
    "analyzer": {"name": "pylint", "version": "3.2.7"},
    "original": {"warnings": 2, "diagnostics": [{"rule": "C0103", "line": 2}]},
    "edited": {"warnings": 0, "diagnostics": []},
}


def fix_records() -> list[dict]:
    folder = f"copilot_fix/{FIX_ID}-1a2b3c4d"
    return [
        {
            "id": FIX_ID,
            "input_hash": "00ff",
            "input": "Fix pylint C0103 (invalid-name) at line 2 of app/util.py",
            "prompt": "You are a coding assistant. Fix the warning below.\n...",
            "raw": "```python\ndef total(xs):\n    total = 0\n```",
            "prediction": "def total(xs):\n    total = 0\n    for x in xs:\n        total += x\n",
            "gold": {"rule": "C0103", "line": 2, "file_name": "app/util.py"},
            "score": 1.0,
            "scores": {
                "copilot_fix": {
                    "value": 1.0,
                    "metadata": {
                        "syntax_ok": True,
                        "fixed": True,
                        "warnings_before": 2,
                        "warnings_after": 0,
                        "artifacts": folder,
                    },
                }
            },
        },
        {
            "id": "fix-002",
            "input_hash": "00fe",
            "prediction": None,
            "gold": {"rule": "W0611", "line": 1, "file_name": "app/io.py"},
            "score": 0.0,
            "error": "no python answer",
            "scores": {
                "copilot_fix": {"value": 0.0, "explanation": "no file to analyse (invalid answer)"}
            },
        },
    ]


def make_results(root: Path) -> Path:
    """Write the results folder described in the module docstring under ``root``."""
    for model, accuracy in (("alpha", 0.8), ("beta", 0.6), ("gamma", 0.4)):
        for task in ("issue_type", "sentiment", "review_type"):
            records = list(classification_records(60, accuracy, seed=len(model) + len(task)))
            if model == "alpha" and task == "issue_type":
                records[2]["raw"] = SCRIPT_REPLY
                records[2]["prediction"] = SCRIPT_REPLY
            write_unit(root, model, "zero-shot", task, records)
    write_unit(
        root,
        "alpha",
        "scenario",
        "copilot_fix",
        fix_records(),
        suite="copilot",
        task_type="fix",
        primary="fix_rate",
        artifacts={
            f"copilot_fix/{FIX_ID}-1a2b3c4d/diff.patch": DIFF,
            f"copilot_fix/{FIX_ID}-1a2b3c4d/analysis.json": json.dumps(ANALYSIS),
            f"copilot_fix/{FIX_ID}-1a2b3c4d/edited-util.py": fix_records()[0]["prediction"],
        },
    )
    repeats = [
        {
            "id": f"p{i}",
            "repeat": r,
            "input_hash": f"{i}",
            "prediction": "x",
            "gold": "x",
            "score": float((i + r) % 2),
        }
        for r in range(3)
        for i in range(4)
    ]
    write_unit(
        root,
        "alpha",
        "sampling",
        "humaneval",
        repeats,
        suite="codegen",
        task_type="generate",
        primary="pass@1",
    )
    return root


@pytest.fixture
def results(tmp_path: Path) -> Path:
    return make_results(tmp_path / "results")


@pytest.fixture
def catalog(results: Path) -> Catalog:
    catalog = Catalog([results])
    catalog.refresh()
    return catalog


def unit_of(catalog: Catalog, model: str, task: str, method: str = "zero-shot"):
    [unit] = [u for u in catalog.list() if (u.model, u.task, u.method) == (model, task, method)]
    return unit
