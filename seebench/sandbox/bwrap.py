"""The bubblewrap command line: what the sandbox sees of the host, read-only."""

from __future__ import annotations

import glob
import os
import sys
from pathlib import Path

#: Where the work directory, the worker script and the scratch dirs live inside the sandbox.
WORK_ROOT = "/sandbox"
ZYGOTE_PATH = "/opt/seebench/zygote.py"
#: The two-process function-test helper, next to the worker script (see ``funcrun``).
FUNCRUN_PATH = "/opt/seebench/funcrun.py"
SCRATCH_DIRS = ("/tmp", "/dev/shm")
SANDBOX_UID = 65534
#: The environment a run sees (before the request's own ``env``).
BASE_ENV = {"PATH": "/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8", "TMPDIR": "/tmp"}
MIB = 1024 * 1024


def minimal_bwrap_env() -> dict[str, str]:
    """The environment bwrap itself is started with.

    ``--clearenv`` only clears the sandboxed program's environment: bwrap's own stays readable
    at ``/proc/1/environ`` inside, so bwrap must never inherit the caller's (API keys).
    """
    return {"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"}


def host_mounts(extra: tuple[str, ...] = ()) -> list[str]:
    """Host paths bound read-only: the interpreter, its environment and runtime files."""
    paths = [sys.base_prefix, sys.prefix, *extra]
    paths += glob.glob("/etc/java-*")  # the JDK's conf/ links here
    paths += ["/etc/alternatives", "/etc/ld.so.cache", "/etc/localtime", "/etc/ssl/certs"]
    seen: list[str] = []
    for path in paths:
        real = os.path.realpath(path)
        if os.path.exists(real) and not real.startswith("/usr/") and real not in seen:
            seen.append(real)
    for path in list(seen):  # sys.prefix may lie inside sys.base_prefix
        if any(path != other and path.startswith(other + "/") for other in seen):
            seen.remove(path)
    return seen


def _root_links() -> list[str]:
    """``/bin``, ``/lib``… as on the host: symlinks into ``/usr`` or read-only binds."""
    args: list[str] = []
    for name in ("bin", "sbin", "lib", "lib32", "lib64", "libx32"):
        host = Path("/") / name
        if host.is_symlink():
            args += ["--symlink", os.readlink(host), str(host)]
        elif host.is_dir():
            args += ["--ro-bind", str(host), str(host)]
    return args


def bwrap_argv(
    bwrap: str,
    mechanism: str,
    mounts: list[str],
    *,
    disk_mb: int,
    zygote: str | None = None,
) -> list[str]:
    """The bwrap argv up to (not including) the command to run inside."""
    argv = [bwrap]
    if mechanism == "bwrap-userns":
        argv += ["--unshare-all", "--unshare-user", "--disable-userns"]
        argv += ["--uid", str(SANDBOX_UID), "--gid", str(SANDBOX_UID), "--cap-drop", "ALL"]
    else:  # as root without user namespaces: the worker drops to SANDBOX_UID itself
        argv += ["--unshare-pid", "--unshare-net", "--unshare-ipc", "--unshare-uts"]
        argv += ["--unshare-cgroup-try", "--cap-drop", "ALL"]
        argv += ["--cap-add", "CAP_SETUID", "--cap-add", "CAP_SETGID"]
    argv += ["--die-with-parent", "--new-session", "--clearenv", "--hostname", "sandbox"]
    argv += ["--ro-bind", "/usr", "/usr", *_root_links()]
    argv += ["--proc", "/proc", "--dev", "/dev"]
    size = str(max(1, disk_mb) * MIB)
    # the private tmpfs dirs come first: a host mount that lies below one of them (a venv under
    # /tmp, say) is bound on top of the tmpfs instead of being hidden by it
    for directory in (*SCRATCH_DIRS, WORK_ROOT):
        argv += ["--perms", "1777", "--size", size, "--tmpfs", directory]
    # bwrap creates missing parents of mount points as 0700; a dropped uid could not enter them
    parents = {str(p) for path in [*mounts, ZYGOTE_PATH] for p in Path(path).parents}
    for parent in sorted(parents - {"/", *SCRATCH_DIRS, WORK_ROOT}, key=len):
        argv += ["--perms", "0755", "--dir", parent]
    for path in mounts:
        argv += ["--ro-bind", path, path]
    if zygote is not None:
        argv += ["--ro-bind", zygote, ZYGOTE_PATH]
        argv += ["--ro-bind", str(Path(zygote).with_name("funcrun.py")), FUNCRUN_PATH]
    argv += ["--remount-ro", "/", "--chdir", WORK_ROOT]
    for key, value in BASE_ENV.items():
        argv += ["--setenv", key, value]
    return argv + ["--"]
