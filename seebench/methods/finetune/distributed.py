"""DeepSpeed ZeRO (stage 1/2) fine-tuning launched with ``torchrun`` over N processes.

The parent process pickles the unit (task, data, model dir, options) into the unit's work
directory and runs ``python -m torch.distributed.run --nproc_per_node N -m
seebench.methods.finetune.distributed JOB``. Every worker trains its share of each optimiser step
under a generated DeepSpeed config (gloo on CPU, NCCL on GPUs); rank 0 predicts the test
split and writes the results back; every worker calls ``destroy_process_group()``.
"""

from __future__ import annotations

import os
import pickle
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

from seebench.errors import SeebenchError


def deepspeed_config(
    stage: int, micro: int, accumulation: int, world: int, bf16: bool
) -> dict[str, Any]:
    """The generated DeepSpeed config (recorded in the result's ``info``)."""
    return {
        "train_micro_batch_size_per_gpu": micro,
        "gradient_accumulation_steps": accumulation,
        "train_batch_size": micro * accumulation * world,
        "gradient_clipping": 1.0,
        "zero_optimization": {"stage": stage, "overlap_comm": False, "contiguous_gradients": True},
        "zero_allow_untested_optimizer": True,
        "bf16": {"enabled": bool(bf16)},
        "steps_per_print": 10**9,
        "wall_clock_breakdown": False,
    }


class DeepSpeedContext:
    """Rank, world size and engine creation inside a ``torchrun`` worker."""

    def __init__(self, stage: int):
        import deepspeed
        import torch

        self.stage = stage
        self.backend = "nccl" if torch.cuda.is_available() else "gloo"
        deepspeed.init_distributed(dist_backend=self.backend)
        self.rank = int(os.environ.get("RANK", "0"))
        self.world_size = int(os.environ.get("WORLD_SIZE", "1"))
        self.config: dict[str, Any] = {}

    def initialize(self, model, optimizer, scheduler, plan: dict[str, Any], bf16: bool):
        import math

        import deepspeed

        local_batch = max(1, math.ceil(plan["effective_batch"] / self.world_size))
        micro = plan["per_device_batch"]
        accumulation = max(1, math.ceil(local_batch / micro))
        self.config = deepspeed_config(self.stage, micro, accumulation, self.world_size, bf16)
        engine, _, _, _ = deepspeed.initialize(
            model=model, optimizer=optimizer, lr_scheduler=scheduler, config=self.config
        )
        return engine

    def summary(self) -> dict[str, Any]:
        return {
            "stage": self.stage,
            "world_size": self.world_size,
            "backend": self.backend,
            "launcher": "torchrun",
            "config": self.config,
        }


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def launch(context: Any, directory: Path) -> tuple[list[Any], dict[str, Any]]:
    """Run the unit under DeepSpeed in ``nproc`` processes and collect rank 0's results."""
    from seebench.methods.finetune.config import TrainConfig

    cfg = TrainConfig.from_options(context.options)
    job_dir = Path(context.work_dir) / "deepspeed"
    job_dir.mkdir(parents=True, exist_ok=True)
    job, out = job_dir / "job.pkl", job_dir / "result.pkl"
    out.unlink(missing_ok=True)
    with job.open("wb") as handle:
        pickle.dump(
            {
                "task": context.task,
                "data": context.data,
                "model_dir": str(directory),
                "seed": context.seed,
                "metric": context.registry.metric(context.task.primary_metric),
                "options": dict(context.options),
                "work_dir": str(job_dir),
                "out": str(out),
            },
            handle,
        )
    command = [
        sys.executable,
        "-m",
        "torch.distributed.run",
        f"--nproc_per_node={cfg.nproc}",
        "--nnodes=1",
        f"--master_port={_free_port()}",
        "-m",
        "seebench.methods.finetune.distributed",
        str(job),
    ]
    env = dict(os.environ)
    env.setdefault("OMP_NUM_THREADS", "1")
    log_path = job_dir / "launch.log"
    with log_path.open("w") as log_file:
        code = subprocess.run(
            command, stdout=log_file, stderr=subprocess.STDOUT, env=env
        ).returncode
    if code != 0 or not out.is_file():
        tail = log_path.read_text(errors="replace").strip().splitlines()[-5:]
        raise SeebenchError(
            f"deepspeed run failed (exit {code}, log {log_path}): " + " | ".join(tail)
        )
    with out.open("rb") as handle:
        results, info = pickle.load(handle)
    info.setdefault("deepspeed", {})["command"] = " ".join(command[1:])
    return results, info


def main(argv: list[str] | None = None) -> int:
    """Worker entry point (one per process under ``torchrun``)."""
    import torch.distributed as torch_dist

    from seebench.methods.finetune.train import finetune

    job_path = Path((argv or sys.argv[1:])[0])
    with job_path.open("rb") as handle:
        job = pickle.load(handle)
    stage = int(str(job["options"]["deepspeed"]).lower().removeprefix("zero"))
    context = DeepSpeedContext(stage)
    try:
        results, info = finetune(
            job["task"],
            job["data"],
            Path(job["model_dir"]),
            job["seed"],
            job["options"],
            work_dir=Path(job["work_dir"]),
            dist=context,
            metric=job["metric"],
        )
        if context.rank == 0:
            with open(job["out"], "wb") as handle:
                pickle.dump((results, info), handle)
        torch_dist.barrier()
    finally:
        if torch_dist.is_initialized():
            torch_dist.destroy_process_group()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
