"""``seebench results push`` on huggingface_hub, against a local stand-in of the Hub API."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("huggingface_hub")

from tests.conftest import make_binary_task  # noqa: E402
from tests.results.fake_hub import FakeHub  # noqa: E402

TOKEN = "hf_fake_DO_NOT_WRITE_0123456789"


def _cli(args, capsys) -> tuple[int, str, str]:
    from seebench.cli.main import main

    with pytest.raises(SystemExit) as done:
        main(args)
    out = capsys.readouterr()
    return int(done.value.code or 0), out.out, out.err


@pytest.fixture
def results(tmp_path, monkeypatch, capsys):
    make_binary_task(tmp_path / "tasks", "tiny", rows=20)
    monkeypatch.setenv("SEEBENCH_PLUGINS", "tests.plugins.tmp_tasks_plugin")
    monkeypatch.setenv("SEEBENCH_TEST_TASK_DIR", str(tmp_path / "tasks"))
    monkeypatch.setenv("HF_TOKEN", TOKEN)
    out = tmp_path / "out"
    code, _, err = _cli(
        ["eval", "--model", "majority", "--tasks", "tiny", "--output", str(out), "--no-progress"],
        capsys,
    )
    assert code == 0, err
    (out / "majority" / "baseline" / ".tiny.work").mkdir()
    (out / "majority" / "baseline" / ".tiny.work" / "scratch.txt").write_text("x")
    (out / "majority" / "baseline" / "tiny.json.lock").write_text("")
    return out


def test_push_sends_every_result_file_in_one_commit(results, capsys):
    with FakeHub(TOKEN) as hub:
        code, stdout, err = _cli(
            ["results", "push", str(results), "--repo", "me/runs", "--endpoint", hub.url], capsys
        )
    assert code == 0, err
    assert hub.created == [
        {"name": "runs", "organization": "me", "visibility": "public", "type": "dataset"}
    ]
    pushed = hub.repos["dataset/me/runs"]
    local = {
        p.relative_to(results).as_posix(): p.read_bytes()
        for p in results.rglob("*")
        # hidden folders (the work folder, the event log in .seebench/) are never pushed
        if p.is_file()
        and not any(part.startswith(".") for part in p.relative_to(results).parts)
        and not p.name.endswith(".lock")
    }
    assert pushed == local
    assert {"majority/baseline/tiny.json", "majority/baseline/tiny.samples.jsonl"} <= set(pushed)
    assert any(name.startswith("runs/") and name.endswith(".yaml") for name in pushed)
    assert len(hub.commits) == 1
    assert stdout.startswith(f"pushed {len(local)} files to me/runs: {hub.url}/datasets/me/runs")
    assert TOKEN not in stdout + err
    assert not any(TOKEN.encode() in p.read_bytes() for p in results.rglob("*") if p.is_file())


def test_a_second_push_to_an_existing_repo_commits_again(results, capsys):
    with FakeHub(TOKEN) as hub:
        for _ in range(2):
            code, _, err = _cli(
                [
                    "results",
                    "push",
                    str(results),
                    "--repo",
                    "me/runs",
                    "--endpoint",
                    hub.url,
                    "--path-in-repo",
                    "sweep-1",
                ],
                capsys,
            )
            assert code == 0, err
    assert len(hub.commits) == 2
    assert "sweep-1/majority/baseline/tiny.json" in hub.repos["dataset/me/runs"]


def test_a_broken_result_stops_the_push(results, capsys):
    path = results / "majority" / "baseline" / "tiny.json"
    result = json.loads(path.read_text())
    result["n"] = "many"
    path.write_text(json.dumps(result))
    with FakeHub(TOKEN) as hub:
        code, _, err = _cli(
            ["results", "push", str(results), "--repo", "me/runs", "--endpoint", hub.url], capsys
        )
    assert code == 1 and hub.repos == {}
    lines = err.strip().splitlines()
    assert len(lines) == 1 and str(path) in lines[0] and "nothing was pushed" in lines[0]


def test_a_refused_token_and_an_unreachable_hub_are_one_line(results, capsys, monkeypatch):
    with FakeHub("another-token-0000000000") as hub:
        code, _, err = _cli(
            ["results", "push", str(results), "--repo", "me/runs", "--endpoint", hub.url], capsys
        )
    assert code == 1 and err.strip().splitlines() == [
        "error: results push to me/runs: HTTP 401 from the Hub"
    ]
    code, _, err = _cli(
        ["results", "push", str(results), "--repo", "me/runs", "--endpoint", hub.url], capsys
    )
    assert code == 1 and len(err.strip().splitlines()) == 1
    assert err.startswith("error: results push to me/runs: cannot reach the Hub")
