"""The ray executor on a local multi-node Ray (``ray.cluster_utils.Cluster``): a head with no
CPUs and two worker "nodes", one with the only ``sandbox`` slot, one with the only GPU (all
logical: nothing here needs a GPU)."""

from __future__ import annotations

import datetime as dt
import json
import os

import pytest

from seebench.errors import SeebenchError
from seebench.executors.events import EventLog, read_events
from seebench.executors.local import LocalExecutor
from seebench.executors.ray_executor import RayExecutor
from tests.conftest import REPO_ROOT

ray = pytest.importorskip("ray")
pytestmark = pytest.mark.slow

NODE = {"object_store_memory": 80 * 2**20, "num_cpus": 2}


@pytest.fixture(scope="module")
def cluster():
    from ray.cluster_utils import Cluster

    old = os.environ.get("PYTHONPATH")
    os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO_ROOT), old]))
    os.environ.setdefault("RAY_AUTH_MODE", "disabled")
    cluster = Cluster(
        initialize_head=True,
        head_node_args={
            "num_cpus": 0,
            "object_store_memory": 80 * 2**20,
            "include_dashboard": False,
        },
    )
    sandbox_node = cluster.add_node(**NODE, resources={"sandbox": 1})
    gpu_node = cluster.add_node(**NODE, num_gpus=1)
    ray.init(
        address=cluster.address,
        log_to_driver=False,
        logging_level="WARNING",
    )
    try:
        yield {"sandbox": sandbox_node.node_id, "gpu": gpu_node.node_id}
    finally:
        ray.shutdown()
        cluster.shutdown()
        if old is None:
            os.environ.pop("PYTHONPATH", None)
        else:
            os.environ["PYTHONPATH"] = old


def spans(events, model_id):
    """(start, end, node) of each unit of ``model_id`` from the event log."""
    starts = {e["unit"]: e for e in events if e["event"] == "unit_start"}
    found = []
    for end in (e for e in events if e["event"] == "unit_end" and e.get("node")):
        if end["unit"].startswith(model_id + "/"):
            start = starts[end["unit"]]
            found.append(
                (
                    dt.datetime.fromisoformat(start["time"]),
                    dt.datetime.fromisoformat(end["time"]),
                    end["node"],
                )
            )
    return sorted(found)


def comparable(path):
    """A result without the fields that say when, how long and where it ran."""
    result = json.loads(path.read_text())
    for key in ("timings", "created_at", "environment"):
        result.pop(key, None)
    result["attempts"] = [(a["attempt"], a["reason"]) for a in result.get("attempts", [])]
    return result


MODELS = ["xecho:plain-a", "xecho:sandbox-s", "xecho:gpu-g", "xecho:flaky-f"]


def test_sweep_on_two_nodes_equals_the_serial_run(cluster, sweep_env, tmp_path, monkeypatch):
    monkeypatch.setenv("SEEBENCH_TEST_SLEEP", "0.4")
    log = tmp_path / "ray-events.jsonl"
    result = sweep_env.run(
        MODELS, RayExecutor(sweep_env.options()), events=EventLog(log), output=tmp_path / "ray"
    )
    assert {o.status for o in result.outcomes} == {"ok"}
    assert result.executed == 12 + 3  # each flaky unit twice
    events = read_events(log)

    all_nodes = {
        node.split("@")[0]
        for model in ("xecho-plain-a", "xecho-sandbox-s", "xecho-gpu-g", "xecho-flaky-f")
        for *_, node in spans(events, model)
    }
    assert all_nodes == {cluster["sandbox"][:12], cluster["gpu"][:12]}  # both nodes ran units

    for model, node in (("xecho-sandbox-s", "sandbox"), ("xecho-gpu-g", "gpu")):
        runs = spans(events, model)
        assert len(runs) == 3
        assert {n.split("@")[0] for *_, n in runs} == {cluster[node][:12]}
        for (_, end, _), (start, _, _) in zip(runs, runs[1:], strict=False):
            assert end <= start  # one sandbox slot, one GPU: never two units at once

    recorded = json.loads(
        (tmp_path / "ray" / "xecho-flaky-f" / "resource-echo" / "beta.json").read_text()
    )
    assert len(recorded["attempts"]) == 1 and "ConnectionError" in recorded["attempts"][0]["reason"]
    assert sorted(e["unit"] for e in events if e["event"] == "unit_retry") == [
        f"xecho-flaky-f/resource-echo/{t}" for t in ("alpha", "beta", "gamma")
    ]

    for marker in sweep_env.flaky.iterdir():
        marker.unlink()
    monkeypatch.setenv("SEEBENCH_TEST_SLEEP", "0")
    serial = sweep_env.run(
        MODELS, LocalExecutor(sweep_env.options(capacity={"gpu": 1})), output=tmp_path / "serial"
    )
    assert [o.metrics for o in serial.outcomes] == [o.metrics for o in result.outcomes]
    ray_files = sorted(p.relative_to(tmp_path / "ray") for p in (tmp_path / "ray").rglob("*.json"))
    assert ray_files == sorted(
        p.relative_to(tmp_path / "serial") for p in (tmp_path / "serial").rglob("*.json")
    )
    for relative in ray_files:
        assert comparable(tmp_path / "ray" / relative) == comparable(tmp_path / "serial" / relative)
        samples = relative.with_name(relative.stem + ".samples.jsonl")
        assert (tmp_path / "ray" / samples).read_bytes() == (
            tmp_path / "serial" / samples
        ).read_bytes()

    again = sweep_env.run(MODELS, RayExecutor(sweep_env.options()), output=tmp_path / "ray")
    assert again.executed == 0 and {o.status for o in again.outcomes} == {"cached"}


def test_a_resource_no_node_has_is_one_line_before_any_unit(cluster, sweep_env):
    with pytest.raises(
        SeebenchError, match=r"needs cpu=1 gpu=2 and no node of the Ray cluster"
    ) as err:
        sweep_env.run(["xecho:plain-z", "xecho:twogpu-z"], RayExecutor(sweep_env.options()))
    assert "\n" not in str(err.value)
    assert not sweep_env.out.exists() or not any(sweep_env.out.rglob("*.json"))


def test_a_worker_lost_on_ray_is_retried_and_recorded(cluster, sweep_env):
    result = sweep_env.run(["xecho:crash-r"], RayExecutor(sweep_env.options()), tasks="alpha")
    assert [o.status for o in result.outcomes] == ["ok"]
    recorded = json.loads(
        (sweep_env.out / "xecho-crash-r" / "resource-echo" / "alpha.json").read_text()
    )
    assert [a["attempt"] for a in recorded["attempts"]] == [1]
    assert result.executed == 2
