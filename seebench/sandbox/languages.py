"""Ready-made requests for the languages seebench runs: Python tests, Node and Java programs."""

from __future__ import annotations

from seebench.sandbox.types import FunctionTest, Limits, PythonProgram, SandboxRequest

#: Runtimes reserve address space far beyond what they touch (V8's heap cage, the JVM's code
#: cache and class space); the address-space cap gets this much on top of the memory limit,
#: while the heap flags and the memory cgroup hold real use to ``memory_mb``.
RUNTIME_ADDRESS_SPACE_MB = 1536


def python_tests_request(
    code: str,
    *,
    files: dict[str, bytes | str] | None = None,
    limits: Limits | None = None,
    env: dict[str, str] | None = None,
) -> SandboxRequest:
    """Run Python ``code`` (a candidate followed by its tests) that passes only by returning.

    The run passes when the code finishes without an exception: exiting early with status 0
    or printing a success marker is a failure (see :class:`PythonProgram`).
    """
    return SandboxRequest(
        files=dict(files or {}),
        program=PythonProgram(code, require_completion=True),
        limits=limits or Limits(),
        env=dict(env or {}),
    )


def function_test_request(
    candidate: str,
    tests: str,
    *,
    files: dict[str, bytes | str] | None = None,
    limits: Limits | None = None,
    env: dict[str, str] | None = None,
) -> SandboxRequest:
    """Run function-level ``tests`` against ``candidate`` in two processes (see
    :class:`FunctionTest`): the candidate's code cannot reach the tests' comparisons or their
    completion token, and only plain data crosses between them."""
    return SandboxRequest(
        files=dict(files or {}),
        program=FunctionTest(candidate, tests),
        limits=limits or Limits(),
        env=dict(env or {}),
    )


def _runtime_limits(limits: Limits | None, processes: int) -> Limits:
    limits = limits or Limits()
    changes: dict[str, int] = {}
    if limits.address_space_mb is None:
        changes["address_space_mb"] = limits.memory_mb + RUNTIME_ADDRESS_SPACE_MB
    if limits.processes < processes:
        changes["processes"] = processes
    return limits.replace(**changes) if changes else limits


def node_request(
    source: str,
    *,
    filename: str = "main.js",
    files: dict[str, bytes | str] | None = None,
    limits: Limits | None = None,
) -> SandboxRequest:
    """Run a Node.js program; its heap is capped at three quarters of ``memory_mb``."""
    limits = _runtime_limits(limits, processes=16)
    heap = max(16, limits.memory_mb * 3 // 4)
    return SandboxRequest(
        files={**(files or {}), filename: source},
        command=["node", f"--max-old-space-size={heap}", filename],
        limits=limits,
    )


def java_flags(memory_mb: int) -> list[str]:
    """JVM flags that keep a JVM inside ``memory_mb``: a capped heap, metaspace and code
    cache, the serial collector (no GC threads per core) and the C1 compiler only."""
    heap = max(16, memory_mb // 2)
    return [
        f"-Xmx{heap}m",
        "-Xss1m",
        "-XX:+UseSerialGC",
        "-XX:TieredStopAtLevel=1",
        "-XX:ReservedCodeCacheSize=32m",
        "-XX:MaxMetaspaceSize=96m",
        "-XX:CompressedClassSpaceSize=32m",
        "-XX:-UsePerfData",
    ]


def java_request(
    source: str,
    *,
    class_name: str = "Main",
    files: dict[str, bytes | str] | None = None,
    limits: Limits | None = None,
) -> SandboxRequest:
    """Run a single-file Java program (``java Main.java``, Java 11 and later)."""
    limits = _runtime_limits(limits, processes=64)
    filename = f"{class_name}.java"
    return SandboxRequest(
        files={**(files or {}), filename: source},
        command=["java", *java_flags(limits.memory_mb), filename],
        limits=limits,
    )
