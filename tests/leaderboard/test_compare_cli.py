"""``seebench compare`` end to end, through the plugin registry like a user runs it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from seebench.cli.main import main
from seebench.leaderboard import EXPORTERS
from seebench.plugin_manager import get_plugin_manager, get_registry
from tests.leaderboard.builders import DATA, SELU_CSV, write_result_dir

ALL_FILES = {
    "leaderboard.md",
    "leaderboard.tex",
    "leaderboard.csv",
    "pairs.csv",
    "breakdown.csv",
    "leaderboard.json",
    "per_task.csv",
    "per_task.md",
    "index.html",
    "groups.csv",  # the SELU suite declares task groups
    *(
        f"{n}.{e}"
        for n in ("posterior_better", "posterior_equal", "decisions")
        for e in ("png", "svg")
    ),
}


def run(args: list[str]) -> int:
    try:
        main(args)
    except SystemExit as exc:
        return int(exc.code or 0)
    return 0


def test_exporters_and_command_are_registered() -> None:
    registry = get_registry()
    for name in EXPORTERS:
        assert registry.exporters[name].plugin == "seebench.builtin.compare"
    assert get_plugin_manager().has_plugin("seebench.builtin.compare")


def test_compare_selu_csv(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    out = tmp_path / "lb"
    assert (
        run(
            [
                "compare",
                str(SELU_CSV),
                "--out",
                str(out),
                "--nsamples",
                "500",
                "--ci-correction",
                "autorank",
                "--format",
                "json",
                "--format",
                "markdown",
            ]
        )
        == 0
    )
    assert {p.name for p in out.iterdir()} == {"leaderboard.json", "leaderboard.md"}
    captured = capsys.readouterr()
    assert "does not reject normality" in captured.err
    data = json.loads((out / "leaderboard.json").read_text())
    assert data["settings"]["ci_correction"] == "autorank"
    assert [r["model"] for r in data["ranking"][:2]] == ["GPT-2 xl", "Llama 3.2 3B"]
    assert data["ranking"][0]["ci_lower"] == pytest.approx(0.606, abs=0.001)


def test_compare_writes_every_export(tmp_path: Path) -> None:
    """All registered formats (a few models, so that drawing the heatmaps stays quick)."""
    small = tmp_path / "small.csv"
    lines = SELU_CSV.read_text().splitlines()
    keep = ("GPT-2 xl", "BERT base", "T5 small", "FastText", "GPT-4o (3-shot)")
    small.write_text(
        "\n".join([lines[0], *(x for x in lines[1:] if x.split(",")[0] in keep)]) + "\n"
    )
    out = tmp_path / "lb"
    assert run(["compare", str(small), "--out", str(out), "--nsamples", "500"]) == 0
    assert {p.name for p in out.iterdir()} == ALL_FILES
    assert (out / "index.html").read_text().count("<svg") >= 3


def test_compare_result_dir_with_one_format(tmp_path: Path) -> None:
    results = write_result_dir(tmp_path / "results")
    out = tmp_path / "lb"
    assert (
        run(["compare", str(results), "--out", str(out), "--nsamples", "300", "--format", "json"])
        == 0
    )
    assert {p.name for p in out.iterdir()} == {"leaderboard.json"}
    data = json.loads((out / "leaderboard.json").read_text())
    assert data["ranking"][0]["model"] == "GPT-2 xl/fine-tune"
    assert {t["family"] for t in data["tasks"]} == {"from-tags"}


def test_missing_scores_need_a_policy(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    args = [
        "compare",
        str(SELU_CSV),
        str(DATA / "selu_table_vi_ner_mlm.csv"),
        "--out",
        str(tmp_path),
        "--nsamples",
        "300",
        "--format",
        "json",
        "--include-type",
        "ner",
    ]
    assert run([*args, "--missing", "error"]) == 1
    assert "error:" in capsys.readouterr().err
    assert run([*args, "--missing", "drop-models"]) == 0
    data = json.loads((tmp_path / "leaderboard.json").read_text())
    assert "se_entities" in {t["name"] for t in data["tasks"]}
    assert "GPT-2 xl" not in {r["model"] for r in data["ranking"]}


def test_ner_and_mlm_are_left_out_by_default(tmp_path: Path) -> None:
    args = [
        "compare",
        str(SELU_CSV),
        str(DATA / "selu_table_vi_ner_mlm.csv"),
        "--out",
        str(tmp_path),
        "--nsamples",
        "300",
        "--format",
        "json",
    ]
    assert run(args) == 0
    data = json.loads((tmp_path / "leaderboard.json").read_text())
    assert len(data["tasks"]) == 20 and len(data["ranking"]) == 28


def test_unknown_format_is_an_error(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    assert (
        run(
            [
                "compare",
                str(SELU_CSV),
                "--out",
                str(tmp_path),
                "--nsamples",
                "300",
                "--format",
                "pdf",
            ]
        )
        == 1
    )
    assert "unknown exporter 'pdf'" in capsys.readouterr().err


def test_plugin_module_imports_nothing_heavy() -> None:
    code = (
        "import sys, seebench.leaderboard.plugin, seebench.cli.compare\n"
        "print(','.join(m for m in ('numpy', 'pandas', 'scipy', 'matplotlib') if m in sys.modules))"
    )
    repo = Path(__file__).resolve().parents[2]
    proc = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "PYTHONPATH": str(repo)},
        check=True,
    )
    assert proc.stdout.strip() == ""
