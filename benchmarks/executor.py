"""A sweep on one machine, serial versus Ray; and the schedule of a simulated 8-node cluster.

    .venv/bin/python benchmarks/executor.py [--models majority,tfidf-xgboost,fasttext]
        [--tasks selu] [--cpus 2] [--full-grid] [--nodes 8] [--scale 0.05] [--out DIR]

(1) Plans models x the tasks whose data is here (``--tasks``: a suite or task names; tasks
    without data are left out) and runs the sweep twice from scratch: with the ``local``
    executor, serially in this process, and with the ``ray`` executor on a local Ray with
    ``--cpus`` logical CPUs. Prints both wall times (the Ray one includes starting Ray), their
    ratio, and whether every unit's metrics are identical.
(2) Replays the Ray run's unit times, scaled by ``--scale``, as sleeping Ray tasks of one CPU
    each on ``--nodes`` logical one-CPU slots, and prints the makespan against the sum of unit
    times and the lower bound max(sum / nodes, longest unit).

Grids are cut to a few points per model unless ``--full-grid`` (the full SELU grids take hours
on two cores): tfidf-xgboost max_depth [3, 6] x min_child_weight [1, 4] with ``jobs=1``,
fastText lr [0.01, 0.1] x epoch [5, 10]. A unit uses one CPU either way, so the serial run
leaves the second core to other work and the Ray run uses both.
"""

from __future__ import annotations

import argparse
import dataclasses
import shutil
import sys
import tempfile
import time
from pathlib import Path

SMALL_GRIDS = {
    "tfidf-xgboost": {"max_depth": [3, 6], "min_child_weight": [1, 4], "jobs": 1},
    "fasttext": {"lr": [0.01, 0.1], "epoch": [5, 10]},
}


def tasks_with_data(selector: str, registry, index) -> list[str]:
    """The selected tasks whose data files are here (loading one test sample of each)."""
    from seebench.data.dataset import load_task_data
    from seebench.errors import SeebenchError

    found = []
    for task in index.select(selector):
        try:
            load_task_data(task, registry, seed=42, limit=1)
        except (SeebenchError, OSError):
            continue
        found.append(task.name)
    return found


def plan(models, tasks, output, registry, index, full_grid):
    """Units of every model, each with its own grid options (one sweep plan)."""
    from seebench.executors.plan import plan_sweep
    from seebench.runner.config import EvalConfig

    units, runners = [], {}
    for model in models:
        options = {} if full_grid else SMALL_GRIDS.get(model, {})
        config = EvalConfig(
            model=model,
            tasks=",".join(tasks),
            output=output,
            progress=False,
            method_options=dict(options),
        )
        units += plan_sweep(config, [model], registry, index, runners)
    return units, runners


def run(executor, units, runners, registry, index):
    from seebench.executors.driver import run_sweep

    started = time.perf_counter()
    result = run_sweep(
        units, executor, runners=runners, progress=False, registry=registry, index=index
    )
    return time.perf_counter() - started, result


def simulate(seconds: list[float], nodes: int, scale: float) -> float:
    """Makespan (unscaled seconds) of the units' times on ``nodes`` one-CPU Ray slots."""
    import ray

    ray.init(
        address="local",
        num_cpus=nodes,
        object_store_memory=80 * 2**20,
        include_dashboard=False,
        _node_ip_address="127.0.0.1",
        logging_level="WARNING",
        log_to_driver=False,
    )
    try:

        @ray.remote(num_cpus=1)
        def unit(duration: float) -> None:
            time.sleep(duration)

        ray.get([unit.remote(0) for _ in range(nodes)])  # workers up before timing
        started = time.perf_counter()
        ray.get([unit.remote(s * scale) for s in sorted(seconds, reverse=True)])
        return (time.perf_counter() - started) / scale
    finally:
        ray.shutdown()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", default="majority,tfidf-xgboost,fasttext")
    parser.add_argument("--tasks", default="selu")
    parser.add_argument("--cpus", type=int, default=2)
    parser.add_argument("--full-grid", action="store_true")
    parser.add_argument("--nodes", type=int, default=8, help="0: no simulation")
    parser.add_argument("--scale", type=float, default=0.05)
    parser.add_argument("--out", type=Path)
    parser.add_argument("--no-ray", action="store_true", help="the serial run only (no Ray)")
    args = parser.parse_args()

    from seebench.executors.base import ExecutorOptions
    from seebench.executors.local import LocalExecutor
    from seebench.executors.worker import driver_env
    from seebench.plugin_manager import get_registry, get_task_index

    registry, index = get_registry(), get_task_index()
    models = [m.strip() for m in args.models.split(",") if m.strip()]
    tasks = tasks_with_data(args.tasks, registry, index)
    if not tasks:
        print(f"no task of {args.tasks!r} has its data here")
        return 1
    out = args.out or Path(tempfile.mkdtemp(prefix="seebench-executor-bench-"))
    print(f"{len(models)} models x {len(tasks)} tasks with data: {', '.join(tasks)}")
    print(f"grids: {'full' if args.full_grid else SMALL_GRIDS}")

    shutil.rmtree(out / "serial", ignore_errors=True)
    units, runners = plan(models, tasks, out / "serial", registry, index, args.full_grid)
    options = ExecutorOptions(env=driver_env(), registry=registry, index=index)
    serial_s, serial = run(LocalExecutor(options), units, runners, registry, index)
    print(f"local, serial:       {serial_s:8.1f} s wall ({len(units)} units)")
    if args.no_ray:
        return 0

    from seebench.executors.ray_executor import RayExecutor

    shutil.rmtree(out / "ray", ignore_errors=True)
    units, runners = plan(models, tasks, out / "ray", registry, index, args.full_grid)
    options = dataclasses.replace(options, capacity={"cpu": args.cpus})
    ray_s, on_ray = run(RayExecutor(options), units, runners, registry, index)
    print(f"ray, {args.cpus} logical CPUs: {ray_s:8.1f} s wall (Ray start included)")
    print(f"ratio serial / ray:  {serial_s / ray_s:8.2f}x")
    same = sum(
        a.metrics == b.metrics for a, b in zip(serial.outcomes, on_ray.outcomes, strict=True)
    )
    statuses = sorted({o.status for o in on_ray.outcomes})
    print(f"units with identical metrics: {same} of {len(units)} (statuses: {', '.join(statuses)})")

    if args.nodes:
        seconds = [o.seconds for o in on_ray.outcomes]
        total, longest = sum(seconds), max(seconds)
        makespan = simulate(seconds, args.nodes, args.scale)
        bound = max(total / args.nodes, longest)
        print(
            f"simulated {args.nodes} one-CPU nodes: makespan {makespan:.1f} s for {total:.1f} s "
            f"of units ({total / makespan:.2f}x); lower bound {bound:.1f} s (longest unit "
            f"{longest:.1f} s)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
