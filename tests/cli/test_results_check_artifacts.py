"""``seebench results check`` skips the per-case files scorers leave in ``<task>.artifacts/``
(Copilot writes one JSON per case there) and still names a damaged result beside them."""

from __future__ import annotations

import json

import pytest

from seebench.cli.main import main
from tests.reliability.helpers import make_tasks


def _cli(capsys: pytest.CaptureFixture, args: list[str]) -> tuple[int, str]:
    with pytest.raises(SystemExit) as exit_info:
        main(args)
    return int(exit_info.value.code or 0), capsys.readouterr().out


def test_artifact_jsons_are_not_results(tmp_path, monkeypatch, capsys) -> None:
    task_dir = make_tasks(tmp_path, ["alpha", "beta"])
    monkeypatch.setenv("SEEBENCH_PLUGINS", "tests.plugins.tmp_tasks_plugin")
    monkeypatch.setenv("SEEBENCH_TEST_TASK_DIR", str(task_dir))
    out = tmp_path / "out"
    evaluate = ["eval", "--model", "majority", "--method", "slow-echo", "--tasks", "tmp"]
    assert _cli(capsys, [*evaluate, "--output", str(out), "--no-progress"])[0] == 0
    folder = out / "majority" / "slow-echo"
    for task in ("alpha", "beta"):
        cases = folder / f"{task}.artifacts" / "cases" / "3"
        cases.mkdir(parents=True)
        (cases / "case.json").write_text(json.dumps({"verdict": "passed"}))
        (cases.parent / "run.samples.jsonl").write_text("not a sample\n")

    code, stdout = _cli(capsys, ["results", "check", str(out)])
    assert code == 0, stdout
    assert stdout.splitlines()[-1].startswith("2 result files: 2 ok, 0 broken")

    (folder / "beta.json").write_text("[]")
    code, stdout = _cli(capsys, ["results", "check", str(out)])
    assert code == 1
    [broken] = [line for line in stdout.splitlines() if line.startswith("BROKEN")]
    assert "/beta.json:" in broken
