"""Planning a sweep: the (model, method, task) units of ``seebench eval --model A,B,C`` and
what each unit needs to run (CPU, GPU, sandbox, memory).

Planning happens in the driver and is cheap: models are resolved (no weights are loaded),
tasks selected, and the unit list is split by ``--shard`` across the whole sweep (unit ``k``
belongs to shard ``k mod n``), so for one model it splits the task list exactly as before.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from seebench.errors import SeebenchError
from seebench.models import backend_placement
from seebench.runner.config import EvalConfig

#: Scorer options that only scorers running model-written code take.
_SANDBOX_OPTIONS = ("unsafe_host_exec", "sandbox_workers", "workers")


@dataclass(frozen=True)
class Resources:
    """What one unit needs while it runs: logical CPUs, GPUs, sandbox slots, memory (bytes).

    ``gpu_if_available``: use a GPU when the executor has one, run on the CPU otherwise
    (a model whose device is ``auto``). ``waits_on_server``: the unit's work is requests to a
    model server and its method may run in several threads at once, so the local executor
    runs such units side by side in the driver's process, their requests sharing the
    process's request loop (:mod:`seebench.models.backends.request_loop`).
    """

    cpu: float = 1.0
    gpu: float = 0.0
    sandbox: float = 0.0
    memory: int = 0
    gpu_if_available: bool = False
    waits_on_server: bool = False

    def describe(self) -> str:
        """``cpu=1 gpu=1 sandbox=1`` (only what is asked for)."""
        parts = [f"cpu={self.cpu:g}"]
        if self.gpu:
            parts.append(f"gpu={self.gpu:g}")
        elif self.gpu_if_available:
            parts.append("gpu=if-available")
        if self.sandbox:
            parts.append(f"sandbox={self.sandbox:g}")
        if self.waits_on_server:
            parts.append("waits-on-server")
        if self.memory:
            parts.append(f"memory={self.memory / 2**30:.1f}GiB")
        return " ".join(parts)


@dataclass(frozen=True)
class Unit:
    """One (model, method, task) unit of a sweep, as an executor receives it.

    ``config`` is the unit's model's :class:`EvalConfig` (``tasks`` is the one task name);
    everything here is picklable so that a unit can travel to a process or a Ray worker.
    """

    model_spec: str
    model_id: str
    method: str
    task: str
    config: EvalConfig
    resources: Resources = field(default_factory=Resources)

    @property
    def key(self) -> str:
        """``model-id/method/task``: the unit's name in logs, events and summaries."""
        return f"{self.model_id}/{self.method}/{self.task}"

    def result_path(self) -> Path:
        from seebench.results.io import result_paths

        return result_paths(self.config.output, self.model_id, self.method, self.task)[0]


def parse_models(model: str | None, models_file: Path | None) -> list[str]:
    """The model specs of ``--model A,B,C`` and ``--models-file`` (one spec a line; blank
    lines and ``#`` comments ignored), in order, without duplicates."""
    specs: list[str] = []
    if model:
        specs.extend(part.strip() for part in model.split(",") if part.strip())
    if models_file is not None:
        from seebench import safe_files

        try:  # a regular UTF-8 file of at most 16 MiB: a FIFO or /dev/zero is refused
            text = safe_files.read_text(models_file, 16 * 1024 * 1024)
        except UnicodeDecodeError:
            raise SeebenchError(f"--models-file {models_file}: not UTF-8 text") from None
        except safe_files.UnsafeFileError as exc:
            raise SeebenchError(f"--models-file {exc}") from None
        except OSError as exc:
            raise SeebenchError(
                f"--models-file {models_file}: cannot read: {exc.strerror or exc}"
            ) from None
        for number, line in enumerate(text.splitlines(), start=1):
            spec = line.split("#", 1)[0].strip()
            if not spec:
                continue
            if any(c.isspace() for c in spec):
                raise SeebenchError(
                    f"--models-file {models_file}: line {number}: {spec!r} is not one model spec"
                )
            specs.append(spec)
        if not any(True for _ in specs):
            raise SeebenchError(f"--models-file {models_file}: names no model")
    if not specs:
        raise SeebenchError("no model: give --model A[,B...] or --models-file FILE")
    return list(dict.fromkeys(specs))


def unit_resources(runner: Any, task: Any) -> Resources:
    """What ``runner``'s model and method need for ``task``.

    A method may declare it with ``resources(task, model, options) -> dict`` (keys ``cpu``,
    ``gpu``, ``sandbox``, ``memory``); otherwise: in-process transformers and fine-tuning ask
    for a GPU where the model is on CUDA (``device: cuda``; ``auto`` takes one if there is
    one), a task scored by running model-written code asks for the ``sandbox``, API models ask
    for little (the work is on the server) and, with a method whose ``runs_in_threads`` is
    true, wait on it (``waits_on_server``).
    """
    model = runner.model
    options = {**task.method_options(runner.method_name), **runner.config.method_options}
    declare = getattr(runner.method, "resources", None)
    if callable(declare):
        asked = declare(task, model, options) or {}
        known = {"cpu", "gpu", "sandbox", "memory", "gpu_if_available", "waits_on_server"}
        unknown = set(asked) - known
        if unknown:
            raise SeebenchError(
                f"method {runner.method_name!r} declares unknown resources {sorted(unknown)}; "
                "known: cpu, gpu, sandbox, memory, waits_on_server"
            )
        return Resources(**asked)
    sandbox = 1.0 if _runs_code(runner.registry, task) else 0.0
    placement = backend_placement(model, runner.registry)  # where the model's backend runs
    if placement == "remote":
        waits = bool(getattr(runner.method, "runs_in_threads", False))
        return Resources(cpu=0.25, sandbox=sandbox, waits_on_server=waits)
    device = str(options.get("device") or model.options.get("device") or "auto")
    in_process_torch = placement == "local" or runner.method_name in ("finetune", "minilm")
    if in_process_torch and device.startswith("cuda"):
        return Resources(gpu=1.0, sandbox=sandbox)
    if in_process_torch and device == "auto":
        return Resources(gpu_if_available=True, sandbox=sandbox)
    return Resources(sandbox=sandbox)


def _runs_code(registry: Any, task: Any) -> bool:
    """Whether one of ``task``'s scorers runs model-written code (so needs the sandbox)."""
    for name in task.scorers:
        entry = registry.scorers.get(name)
        if entry is None:
            continue
        options = entry.options or {}
        if any(o in options for o in _SANDBOX_OPTIONS) or "sandbox" in entry.description.lower():
            return True
    return False


def plan_sweep(
    config: EvalConfig,
    models: list[str],
    registry: Any,
    index: Any,
    runners: dict[str, Any] | None = None,
) -> list[Unit]:
    """Every unit of ``models`` x the selected tasks, in model-major order, cut to
    ``config.shard`` (``(i, n)``, 1-based) across the whole sweep.

    ``runners`` (model spec -> :class:`~seebench.runner.runner.Runner`) is filled with the
    runner of each model so that the caller can reuse it (the local serial executor does).
    """
    from seebench.runner.runner import Runner

    units: list[Unit] = []
    for spec in models:
        # the run's budget stays with the driver; a unit carries only its time limit
        budget = config.budget.without_spending() if config.budget is not None else None
        model_config = dataclasses.replace(config, model=spec, budget=budget)
        try:
            runner = Runner(model_config, registry, index)
        except SeebenchError as exc:
            if len(models) == 1:
                raise
            raise SeebenchError(f"model {spec!r}: {exc}") from None
        if runners is not None:
            runners[spec] = runner
        for task in runner.planned_tasks():
            units.append(
                Unit(
                    model_spec=spec,
                    model_id=runner.model.id,
                    method=runner.method_name,
                    task=task.name,
                    config=dataclasses.replace(model_config, tasks=task.name),
                    resources=unit_resources(runner, task),
                )
            )
    counts = Counter(u.key for u in units)
    duplicate = next((k for k, c in counts.items() if c > 1), None)
    if duplicate:
        raise SeebenchError(f"two model specs name the same unit {duplicate!r}; list each once")
    if config.shard:
        i, n = config.shard
        units = [u for position, u in enumerate(units) if position % n == i - 1]
    return units
