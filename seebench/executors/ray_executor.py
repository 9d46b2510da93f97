"""The ``ray`` executor: units as Ray tasks that ask for what they need (``num_cpus``,
``num_gpus``, the custom ``sandbox`` resource, ``memory``), so Ray never puts more GPU or
sandbox units on a node than it offers.

It joins the cluster of ``--ray-address`` (or ``$RAY_ADDRESS``), a Ray this process is already
connected to, or starts a local one with this machine's CPUs, its GPUs and ``sandbox=1``
(``--resource`` changes them). Ray itself never retries a unit (``max_retries=0``): the
driver does, so every attempt is recorded. Results go to ``--output`` from the workers, which
must be a file system the driver and every node share.
"""

from __future__ import annotations

import contextlib
import glob
import os
import socket
from collections.abc import Hashable
from typing import Any

from seebench.errors import SeebenchError
from seebench.executors.base import Executor, ExecutorOptions, lost_report
from seebench.executors.plan import Unit
from seebench.executors.ray_failures import Sentinel, start_failed_line, stopped_line
from seebench.executors.retry import is_transient
from seebench.executors.worker import UnitReport, execute_unit

#: The smallest object store Ray accepts; units pass small reports, never data.
LOCAL_OBJECT_STORE_BYTES = 80 * 2**20


def _execute_on_ray(
    unit: Unit, attempts: list[dict[str, Any]], env: dict[str, str], include_paths: tuple[str, ...]
) -> UnitReport:
    """The Ray task: run one unit on whatever node Ray chose; the report names the node."""
    import ray

    report = execute_unit(unit, attempts, env, include_paths)
    context = ray.get_runtime_context()
    report.node = f"{context.get_node_id()[:12]}@{socket.gethostname()}:{os.getpid()}"
    return report


def _import_ray() -> Any:
    try:
        import ray
    except ImportError:
        raise SeebenchError(
            "--executor ray: Ray is not installed; install it with pip install 'seebench[ray]'"
        ) from None
    return ray


def check_address(address: str, timeout: float = 5.0) -> None:
    """A one-line error when nothing listens at a ``host:port`` or ``ray://host:port``
    address (before Ray's own, much longer, connection retries)."""
    if address in ("auto", "local") or not address:
        return
    text = address.removeprefix("ray://")
    host, _, port_text = text.rpartition(":")
    if not host:
        host, port_text = text, "10001" if address.startswith("ray://") else "6379"
    try:
        port = int(port_text)
    except ValueError:
        raise SeebenchError(f"--ray-address {address}: expected HOST:PORT") from None
    try:
        with socket.create_connection((host, port), timeout=timeout):
            pass
    except OSError as exc:
        reason = exc.strerror or type(exc).__name__
        raise SeebenchError(
            f"--ray-address {address}: nothing answers at {host}:{port} ({reason}); start the "
            "cluster's head with 'ray start --head' or correct the address"
        ) from None


class RayExecutor(Executor):
    """Units as Ray tasks; see the module docstring."""

    name = "ray"

    def __init__(self, options: ExecutorOptions):
        self.options = options
        self.address = options.address or os.environ.get("RAY_ADDRESS") or None
        self._ray: Any = None
        self._started_here = False
        self._remote: Any = None
        self._refs: dict[Any, Unit] = {}
        self._has_gpu = False
        self._nodes = 0
        self._sentinel: Sentinel | None = None
        self._output: Any = None
        self._logs: str | None = None

    def describe(self) -> str:
        where = self.address or "a local Ray"
        return f"ray ({where}, {self._nodes} node(s))" if self._ray else f"ray ({where})"

    def start(self, units: list[Unit]) -> None:
        ray = self._ray = _import_ray()
        self._output = units[0].config.output if units else None
        self._sentinel = Sentinel(self._output)  # says what happened if Ray ends this process
        try:
            self._init(ray)
        except SeebenchError:
            self._sentinel.done()
            raise
        except Exception as exc:  # Ray's own start-up failure: one line, not its traceback
            self._sentinel.done()
            raise SeebenchError(start_failed_line(exc, _logs_dir(ray))) from None
        self._logs = _logs_dir(ray)
        if self._logs:
            self._sentinel.tell("logs", self._logs)
        self._check_nodes(ray, units)
        self._remote = ray.remote(max_retries=0)(_execute_on_ray)

    def _init(self, ray: Any) -> None:
        """Join the cluster of ``--ray-address`` or start a local Ray (see the module docs)."""
        if not ray.is_initialized():
            if self.address:
                check_address(self.address)
                ray.init(
                    address=self.address,
                    logging_level="WARNING",
                    log_to_driver=False,
                    configure_logging=False,
                )
            else:
                capacity = dict(self.options.capacity)
                cpus = capacity.pop("cpu", None)
                gpus = capacity.pop("gpu", None)
                capacity.setdefault("sandbox", 1)
                ray.init(
                    address="local",  # a new Ray of our own, never one found on this machine
                    num_cpus=int(cpus) if cpus is not None else None,
                    num_gpus=int(gpus) if gpus is not None else None,
                    resources=capacity,
                    object_store_memory=LOCAL_OBJECT_STORE_BYTES,
                    include_dashboard=False,
                    _node_ip_address="127.0.0.1",  # a local Ray listens on this machine only
                    logging_level="WARNING",
                    log_to_driver=False,
                    configure_logging=False,
                )
            self._started_here = True

    def _check_nodes(self, ray: Any, units: list[Unit]) -> None:
        """Refuse a unit that no live node can take (one line naming it and the nodes)."""
        nodes = [n for n in ray.nodes() if n.get("Alive")]
        self._nodes = len(nodes)
        self._has_gpu = any(n.get("Resources", {}).get("GPU", 0) >= 1 for n in nodes)
        for unit in units:
            demand = self.demand(unit)
            if not any(
                all(n.get("Resources", {}).get(k, 0) >= v for k, v in demand.items() if v)
                for n in nodes
            ):
                offer = "; ".join(_describe_node(n) for n in nodes) or "no live node"
                raise SeebenchError(
                    f"unit {unit.key} needs {_describe_demand(demand)} and no node of the Ray "
                    f"cluster has that (nodes: {offer})"
                )

    def demand(self, unit: Unit) -> dict[str, float]:
        """What ``unit`` asks Ray for, in Ray's resource names."""
        r = unit.resources
        gpu = r.gpu or (1.0 if r.gpu_if_available and self._has_gpu else 0.0)
        return {"CPU": r.cpu, "GPU": gpu, "sandbox": r.sandbox, "memory": float(r.memory)}

    def submit(self, unit: Unit, attempts: list[dict[str, Any]]) -> Hashable:
        demand = self.demand(unit)
        options: dict[str, Any] = {"num_cpus": demand["CPU"], "name": unit.key}
        if demand["GPU"]:
            options["num_gpus"] = demand["GPU"]
        if demand["sandbox"]:
            options["resources"] = {"sandbox": demand["sandbox"]}
        if demand["memory"]:
            options["memory"] = int(demand["memory"])
        try:
            ref = self._remote.options(**options).remote(
                unit, attempts, self.options.env, self.options.include_paths
            )
        except Exception as exc:  # the local Ray is gone
            raise self._stopped(exc) from None
        self._refs[ref] = unit
        return ref

    def wait(self, timeout: float) -> list[tuple[Hashable, UnitReport]]:
        if not self._refs:
            return []
        ray = self._ray
        gone = _dead_ray_process(ray) if self._started_here else None
        if gone is not None:  # its units would never end: say so, keep what finished
            raise SeebenchError(stopped_line(self._output, self._logs, gone))
        try:
            ready, _ = ray.wait(list(self._refs), num_returns=1, timeout=timeout)
            if ready:  # everything else that is ready too
                ready, _ = ray.wait(list(self._refs), num_returns=len(self._refs), timeout=0)
        except Exception as exc:  # the local Ray is gone: not a unit's failure
            raise self._stopped(exc) from None
        reports = []
        for ref in ready:
            unit = self._refs.pop(ref)
            try:
                report = ray.get(ref)
            except ray.exceptions.RayError as exc:
                line = (str(exc).strip().splitlines() or [""])[0]
                report = lost_report(unit, f"{type(exc).__name__}: {line}")
                report.transient = is_transient(exc)
            reports.append((ref, report))
        return reports

    def cancel(self) -> None:
        for ref in list(self._refs):
            with contextlib.suppress(Exception):  # already finished or gone
                self._ray.cancel(ref, force=True)
        self._refs.clear()

    def _stopped(self, error: BaseException) -> SeebenchError:
        detail = (str(error).strip().splitlines() or [type(error).__name__])[0][:200]
        return SeebenchError(stopped_line(self._output, self._logs, detail))

    def close(self) -> None:
        try:
            if self._started_here and self._ray is not None:
                self._ray.shutdown()
                self._started_here = False
        finally:
            if self._sentinel is not None:  # ended here, with a line of its own if any
                self._sentinel.done()
                self._sentinel = None


def _dead_ray_process(ray: Any) -> str | None:
    """Which process of the local Ray started here has died (``"Ray's raylet exited with
    code -9"``), or ``None`` while all live (or Ray cannot say)."""
    try:
        dead = ray._private.worker._global_node.dead_processes()
    except Exception:  # no node of ours, or Ray moved its internals
        return None
    for kind, process in dead:
        if kind in ("raylet", "gcs_server"):
            return f"Ray's {kind} exited with code {process.returncode}"
    return None


def _logs_dir(ray: Any) -> str | None:
    """The log folder of this process's Ray session (``None`` when there is none): Ray's own
    answer, else the newest ``session_*_<this pid>`` folder of a local Ray that failed to
    start (Ray names a session after the driver's pid)."""
    with contextlib.suppress(Exception):  # no session, or Ray moved its internals
        return str(ray._private.worker._global_node.get_logs_dir_path())
    try:
        root = ray._private.utils.get_ray_temp_dir()
    except Exception:
        root = os.path.join(os.environ.get("RAY_TMPDIR") or "/tmp", "ray")
    found = sorted(glob.glob(os.path.join(glob.escape(root), f"session_*_{os.getpid()}")))
    return os.path.join(found[-1], "logs") if found else None


def _describe_demand(demand: dict[str, float]) -> str:
    names = {"CPU": "cpu", "GPU": "gpu", "sandbox": "sandbox", "memory": "memory"}
    return " ".join(f"{names[k]}={v:g}" for k, v in demand.items() if v)


def _describe_node(node: dict[str, Any]) -> str:
    have = node.get("Resources", {})
    shown = [
        f"{name}={have[key]:g}"
        for key, name in (("CPU", "cpu"), ("GPU", "gpu"), ("sandbox", "sandbox"))
        if key in have
    ]
    return f"{node.get('NodeManagerAddress', '?')} " + (" ".join(shown) or "nothing")


def create_ray(options: ExecutorOptions) -> RayExecutor:
    """The ``ray`` executor's factory."""
    return RayExecutor(options)
