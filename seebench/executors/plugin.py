"""Built-in plugin: the ``local`` and ``ray`` executors of ``seebench eval --executor``."""

from __future__ import annotations

from seebench.hookspecs import RegisterExecutor, hookimpl


@hookimpl
def register_executors(register: RegisterExecutor) -> None:
    register(
        "local",
        "seebench.executors.local:create_local",
        description="This machine: serial in one process (default), or --workers N processes.",
    )
    register(
        "ray",
        "seebench.executors.ray_executor:create_ray",
        description="A Ray cluster (--ray-address or RAY_ADDRESS; a local Ray otherwise); "
        "units ask for cpu, gpu, sandbox and memory (needs the 'ray' extra).",
    )
