"""The sandbox's public data types: limits, a request to run something, and its result."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

Verdict = Literal[
    "passed",
    "failed",
    "error",
    "tampered",
    "timeout",
    "memory",
    "crashed",
    "sandbox_unavailable",
]

#: Every verdict a run can get. ``error`` and ``tampered`` come from function-level tests
#: only (the candidate raised or did not answer; it broke the protocol between the two
#: processes). ``sandbox_unavailable`` is never a pass and never a fail of the model: a sample
#: that gets it is left unscored with the result's ``reason``.
VERDICTS: tuple[str, ...] = (
    "passed",
    "failed",
    "error",
    "tampered",
    "timeout",
    "memory",
    "crashed",
    "sandbox_unavailable",
)

MIB = 1024 * 1024


@dataclass(frozen=True)
class Limits:
    """Resource limits of one run. Sizes are in MiB, times in seconds.

    ``cpu_s`` is the main time limit (CPU time, immune to a busy machine); ``wall_s`` is the
    backstop that catches sleeping or blocked programs. ``memory_mb`` caps the address space
    of every process (``RLIMIT_AS``) unless ``address_space_mb`` says otherwise (runtimes
    such as Node and the JVM reserve far more address space than they use), and the total
    memory of the run where a memory cgroup is writable. ``processes`` counts processes and
    threads. ``disk_mb`` is the size of the private work directory; ``file_size_mb`` the
    largest file a program may write. ``output_bytes`` is how much of stdout and of stderr is
    kept; the rest is read and dropped.
    """

    cpu_s: float = 10.0
    wall_s: float = 30.0
    memory_mb: int = 512
    address_space_mb: int | None = None
    processes: int = 32
    file_size_mb: int = 16
    disk_mb: int = 64
    open_files: int = 256
    output_bytes: int = 64 * 1024

    def __post_init__(self) -> None:
        for name in ("cpu_s", "wall_s", "memory_mb", "processes", "file_size_mb", "disk_mb"):
            value = getattr(self, name)
            if not isinstance(value, int | float) or value <= 0:
                raise ValueError(f"sandbox limit {name} must be a positive number, got {value!r}")
        if self.address_space_mb is not None and self.address_space_mb < self.memory_mb:
            raise ValueError(
                f"sandbox limit address_space_mb ({self.address_space_mb}) is below "
                f"memory_mb ({self.memory_mb})"
            )

    def replace(self, **changes: Any) -> Limits:
        """A copy with ``changes`` applied."""
        return dataclasses.replace(self, **changes)

    def as_dict(self) -> dict[str, Any]:
        """The limits as a JSON-ready dict (for result files)."""
        return dataclasses.asdict(self)


@dataclass(frozen=True)
class PythonProgram:
    """Python source run in a fresh child of the sandbox's warm interpreter.

    With ``require_completion`` the run passes only when the program returns normally: the
    harness then writes a per-run nonce to a private file descriptor, so printing a success
    marker, ``sys.exit(0)`` or ``os._exit(0)`` halfway through the tests is not a pass.
    """

    source: str
    filename: str = "main.py"
    require_completion: bool = True


@dataclass(frozen=True)
class FunctionTest:
    """Function-level tests run apart from the code they judge (see ``docs/sandbox.md``).

    ``candidate`` (model-written code) is loaded in a fresh interpreter of its own; ``tests``
    run in another process that never executes a line of it. ``prompt`` is trusted code (the
    task's own: imports, helpers, the entry point's signature) run in the tests' process
    before the tests. A name the tests read is taken from the candidate's module only when it
    is in ``from_candidate`` (the entry point) or neither a builtin nor defined by
    ``prompt``: a helper the prompt defines is the prompt's, whatever the candidate redefines.
    Values cross between the two as plain data (``None``, numbers, strings, bytes and lists,
    tuples, dicts and sets of them), any other object as a handle whose equality is identity.
    The run passes only when the tests' process returns normally (it alone holds the
    completion token); it is ``error`` when the candidate raised or did not answer and
    ``tampered`` when it broke the protocol.
    """

    candidate: str
    tests: str
    filename: str = "main.py"
    require_completion: bool = True
    kind: str = "split"
    prompt: str = ""
    from_candidate: tuple[str, ...] = ()


#: How a verdict's tests ran: ``separate-process`` (candidate and assertions apart, plain data
#: between them) or ``in-process`` (a test suite that must import the code; the candidate can
#: reach the harness, so a pass is only as trustworthy as the code's good faith).
ISOLATION_SPLIT = "separate-process"
ISOLATION_IN_PROCESS = "in-process"


@dataclass(frozen=True)
class SandboxRequest:
    """One run: ``files`` are copied into a fresh private work directory, then ``command``
    (an argv list, looked up on the sandbox's ``PATH``) or ``program`` runs there.

    ``env`` is the whole environment the program sees besides ``PATH``, ``HOME``, ``TMPDIR``
    and ``LANG``; nothing of the caller's environment is passed on.
    """

    files: Mapping[str, bytes | str] = field(default_factory=dict)  # read, never changed
    command: tuple[str, ...] | list[str] | None = None
    program: PythonProgram | FunctionTest | None = None
    limits: Limits = field(default_factory=Limits)
    env: dict[str, str] = field(default_factory=dict)
    stdin: bytes = b""

    def __post_init__(self) -> None:
        if (self.command is None) == (self.program is None):
            raise ValueError("a sandbox request needs exactly one of command or program")
        if self.command is not None and (
            not self.command or not all(isinstance(a, str) for a in self.command)
        ):
            raise ValueError(
                f"sandbox command must be a non-empty list of strings: {self.command!r}"
            )
        for name in self.files:
            check_file_name(name)
        if self.program is not None:
            check_file_name(self.program.filename)
        for key, value in self.env.items():
            if not isinstance(key, str) or not isinstance(value, str) or "=" in key or not key:
                raise ValueError(f"sandbox env entry {key!r} is not a NAME=string pair")


def check_file_name(name: str) -> None:
    """Raise ``ValueError`` unless ``name`` is a relative path that stays in the work dir."""
    parts = name.split("/")
    if not name or name.startswith("/") or any(p in ("", ".", "..") for p in parts) or "\0" in name:
        raise ValueError(f"sandbox file name {name!r} must be a relative path without '..'")


@dataclass(frozen=True)
class SandboxResult:
    """What happened in one run.

    ``signal`` is the number of the signal that ended the program (``None`` when it exited),
    ``cpu_s`` its CPU time (user + system, its children included), ``wall_s`` the time from
    start to exit. ``stdout``/``stderr`` are cut to the limit's ``output_bytes`` (see the
    ``*_truncated`` flags). ``reason`` is a one-line explanation for every verdict but
    ``passed``. ``mechanism`` names what contained the run (``"none"`` under
    ``--unsafe-host-exec``). ``isolation`` says how tests ran: ``separate-process`` for a
    :class:`FunctionTest`, ``in-process`` for a :class:`PythonProgram`, empty for a command.
    """

    verdict: Verdict
    exit_code: int | None = None
    signal: int | None = None
    stdout: str = ""
    stderr: str = ""
    cpu_s: float = 0.0
    wall_s: float = 0.0
    max_rss_mb: float = 0.0
    reason: str = ""
    mechanism: str = ""
    stdout_truncated: bool = False
    stderr_truncated: bool = False
    isolation: str = ""

    @property
    def passed(self) -> bool:
        return self.verdict == "passed"

    @property
    def score(self) -> float | None:
        """1.0 for a pass, 0.0 for any failure of the program, ``None`` (unscored, see
        ``reason``) when no sandbox could run it."""
        if self.verdict == "sandbox_unavailable":
            return None
        return 1.0 if self.verdict == "passed" else 0.0

    def as_dict(self) -> dict[str, Any]:
        """A JSON-ready dict (for a unit's artifacts)."""
        return dataclasses.asdict(self)
