"""Formula cells in CSV exports (class 8 of round 2): a model, task, group or rater name that
a spreadsheet would run as a formula (``=cmd|/c calc!A0``, ``+...``, ``-...``, ``@...``) is
written with a leading ``'`` in every CSV seebench writes (``compare``'s exports and
``groups.csv``, the annotation and judge reports, the trackers' leaderboard, the study's
table exports); numbers, negative ones included, are written unchanged."""

from __future__ import annotations

import csv

import pytest

from tests.reliability.test_damaged_files import cli

HOSTILE = ["=cmd|/c calc!A0", "+1+cmd|' /C notepad'!A0", "-2+3+cmd|x!A0", "@SUM(A1:A9)"]


def _risky(cells) -> list[str]:
    return [
        c
        for c in cells
        if c[:1] in ("=", "+", "@", "\t", "\r") or (c[:1] == "-" and not _number(c))
    ]


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
    assert _risky(cells) == []
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
    from seebench.csv_files import safe_cell
    from seebench.leaderboard.csv_cells import safe_cell as leaderboard_cell

    assert safe_cell(value) == written
    assert leaderboard_cell is safe_cell  # one helper


def test_groups_csv_has_no_formula_cell(tmp_path, capsys):
    from tests.conftest import REPO_ROOT

    table = (REPO_ROOT / "tests" / "stats" / "data" / "selu_table_vi.csv").read_text()
    scores = tmp_path / "scores.csv"
    scores.write_text(table.replace("\nBERT base,", "\n=cmd|/c calc!A0,"))
    out = tmp_path / "board"
    args = ["compare", str(scores), "--out", str(out), "--format", "groups", "--nsamples", "100"]
    code, stdout, stderr = cli(capsys, args)
    assert code == 0, stdout + stderr
    cells = _cells(out / "groups.csv")
    assert _risky(cells) == [] and "'" + HOSTILE[0] in cells


def test_writers_neutralise_every_cell(tmp_path):
    from seebench.csv_files import write_records, write_rows

    rows = [{"rater": name, "alpha": -0.25, "note": "-x"} for name in HOSTILE]
    write_records(tmp_path / "records.csv", rows)
    write_rows(tmp_path / "rows.csv", ["model", *HOSTILE], [[name, -1, "-2"] for name in HOSTILE])
    for name in ("records.csv", "rows.csv"):
        cells = _cells(tmp_path / name)
        assert _risky(cells) == [], name
        assert "-0.25" in cells or "-1" in cells  # numbers stay numbers


def test_annotation_report_csv_has_no_formula_cell(tmp_path):
    from seebench.suites.annotation.report import write_csv

    path = write_csv(
        tmp_path / "pairs.csv", [{"a": name, "b": "@r2", "alpha": 0.5} for name in HOSTILE]
    )
    assert _risky(_cells(path)) == []


def test_judge_agreement_csv_has_no_formula_cell(tmp_path, monkeypatch):
    from click.testing import CliRunner

    from seebench.cli.main import build_cli
    from seebench.suites.judge import cli as judge_cli

    found = [(tmp_path / "r.json", {"task": HOSTILE[0]})]
    monkeypatch.setattr(judge_cli, "find_results", lambda paths: found)
    row = {"task": HOSTILE[0], "model": HOSTILE[2], "accuracy": 0.5, "position_bias_rate": -0.1}
    monkeypatch.setattr(judge_cli, "agreement_row", lambda *a, **k: dict(row))
    out = tmp_path / "report"
    run = CliRunner().invoke(build_cli(), ["judge-agreement", str(tmp_path), "--out", str(out)])
    assert run.exit_code == 0, run.output
    cells = _cells(out / "judge_agreement.csv")
    assert _risky(cells) == [] and "'" + HOSTILE[0] in cells and "-0.1" in cells


def test_tracker_leaderboard_csv_has_no_formula_cell(tmp_path):
    from seebench.events import UnitFinished
    from seebench.trackers import UnitRecord, write_leaderboard

    units = [
        UnitRecord(
            UnitFinished(model_id=name, method="@m", task="+t", status="ok", metrics={"-f1": 0.5})
        )
        for name in HOSTILE
    ]
    cells = _cells(write_leaderboard(units, tmp_path / "leaderboard.csv"))
    assert _risky(cells) == [] and "'" + HOSTILE[0] in cells


def test_study_csv_export_has_no_formula_cell(tmp_path):
    import pandas as pd

    pytest.importorskip("seebench_study")
    from seebench_study.analysis.export import export_table

    table = pd.DataFrame({"participant": HOSTILE, "score": [-0.5, 0.0, 1.0, 2.5]})
    cells = _cells(export_table(table, tmp_path / "metrics.csv"))
    assert _risky(cells) == [] and "-0.5" in cells
