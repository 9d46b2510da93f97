"""An infinite score is an error naming the file and line, never ranked first."""

from __future__ import annotations

import pytest

from seebench.cli.main import main


@pytest.mark.parametrize("spelling", ["inf", "-Infinity", "1e999"])
def test_compare_refuses_an_infinite_score(tmp_path, capsys, spelling):
    scores = tmp_path / "scores.csv"
    scores.write_text(f"model,task,score\na,t1,{spelling}\nb,t1,0.5\na,t2,0.3\nb,t2,0.4\n")
    with pytest.raises(SystemExit) as exit_info:
        main(["compare", str(scores), "--out", str(tmp_path / "board")])
    assert exit_info.value.code == 1
    assert (
        capsys.readouterr().err == f"error: {scores}:2: score '{spelling}' is not a finite number\n"
    )
    assert not (tmp_path / "board").exists()
