"""Formula cells in CSV exports (class 8 of round 2): a model or task name that a spreadsheet
would run as a formula (``=cmd|/c calc!A0``, ``+...``, ``-...``, ``@...``) is written with a
leading ``'`` in every CSV ``seebench compare`` exports; numbers, negative ones included,
are written unchanged."""

from __future__ import annotations

import csv

import pytest

from tests.reliability.test_damaged_files import cli

HOSTILE = ["=cmd|/c calc!A0", "+1+cmd|' /C notepad'!A0", "-2+3+cmd|x!A0", "@SUM(A1:A9)"]


def _cells(path):
    with path.open(newline="", encoding="utf-8") as handle:
        return [cell for row in csv.reader(handle) for cell in row]


@pytest.mark.parametrize("where", ["model", "task"])
def test_compare_exports_no_formula_cell(tmp_path, capsys, where):
    rows = ["model,task,score"]
    for i, name in enumerate(HOSTILE):
        for t in range(3):
            model, task = (name, f"t{t}") if where == "model" else (f"m{t}", name)
            rows.append(f'"{model}","{task}",{0.1 + 0.05 * i + 0.1 * t:.3f}')
    scores = tmp_path / "scores.csv"
    scores.write_text("\n".join(rows) + "\n")
    out = tmp_path / "board"
    code, stdout, stderr = cli(
        capsys,
        ["compare", str(scores), "--out", str(out), "--format", "csv", "--format", "per-task"],
    )
    assert code == 0, stdout + stderr
    written = sorted(out.rglob("*.csv"))
    assert written
    cells = [cell for path in written for cell in _cells(path)]
    risky = [c for c in cells if c[:1] in ("=", "+", "@") or (c[:1] == "-" and not _number(c))]
    assert risky == []
    assert any(c == "'" + HOSTILE[0] for c in cells)  # kept, as text


def _number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


@pytest.mark.parametrize(
    ("value", "written"),
    [
        ("=1+1", "'=1+1"),
        ("\t=1", "'\t=1"),
        ("-0.25", "-0.25"),
        ("+3", "+3"),
        ("-x", "'-x"),
        (-0.5, -0.5),
        ("plain", "plain"),
    ],
)
def test_safe_cell(value, written):
    from seebench.leaderboard.csv_cells import safe_cell

    assert safe_cell(value) == written
