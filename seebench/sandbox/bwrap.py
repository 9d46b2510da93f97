"""The bubblewrap command line: what the sandbox sees of the host, read-only.

One sandbox, two profiles (:class:`Profile`): ``run`` (every program seebench judges: no
network, private tmpfs work and scratch folders, the zygote worker) and ``build`` (the
repository-environment builder of the Copilot suite: the network kept for the registries,
the folders being built bound read-write, a few files of ``/etc`` for name resolution and
certificates). Both share the namespaces, the uid drop, the capabilities and the view of
``/usr`` and the root links built here, so they cannot drift apart.
"""

from __future__ import annotations

import glob
import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass
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


@dataclass(frozen=True)
class Profile:
    """What one use of the sandbox may do beyond the common core (namespaces, uid
    :data:`SANDBOX_UID`, no capabilities, ``/usr`` and the root links read-only)."""

    name: str
    network: bool = False  #: keep the host's network (builds download dependencies)
    etc_files: tuple[str, ...] = ()  #: files of ``/etc`` bound read-only


#: every program seebench judges
RUN = Profile("run")
#: the files of ``/etc`` a dependency build needs (resolver, certificates, users)
BUILD_ETC_FILES = (
    "/etc/resolv.conf",
    "/etc/hosts",
    "/etc/nsswitch.conf",
    "/etc/passwd",
    "/etc/group",
    "/etc/ssl",
    "/etc/ca-certificates",
    "/etc/localtime",
    "/etc/alternatives",
    "/etc/ld.so.cache",
)
#: the repository-environment builder: the network on, the folders it builds writable
BUILD = Profile("build", network=True, etc_files=BUILD_ETC_FILES)
PROFILES = {profile.name: profile for profile in (RUN, BUILD)}


def core_argv(bwrap: str, mechanism: str, profile: Profile) -> list[str]:
    """Namespaces, uid, capabilities, environment and the read-only system folders: the
    part every profile shares."""
    argv = [bwrap]
    if mechanism == "bwrap-userns":
        argv += ["--unshare-all", "--unshare-user", "--disable-userns"]
        argv += ["--share-net"] if profile.network else []
        argv += ["--uid", str(SANDBOX_UID), "--gid", str(SANDBOX_UID), "--cap-drop", "ALL"]
    else:  # as root without user namespaces: the program drops to SANDBOX_UID itself
        argv += ["--unshare-pid", "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try"]
        argv += [] if profile.network else ["--unshare-net"]
        argv += ["--cap-drop", "ALL", "--cap-add", "CAP_SETUID", "--cap-add", "CAP_SETGID"]
    argv += ["--die-with-parent", "--new-session", "--clearenv", "--hostname", "sandbox"]
    argv += ["--ro-bind", "/usr", "/usr", *_root_links()]
    argv += ["--proc", "/proc", "--dev", "/dev"]
    for path in profile.etc_files:
        if os.path.exists(path):
            argv += ["--ro-bind", path, path]
    return argv


#: run by the base interpreter first under bwrap-root: drop to SANDBOX_UID, no groups, no
#: new privileges (a setuid program cannot give them back, as in the zygote), then exec argv
DROP_PRIVILEGES = (
    f"import ctypes, os, sys; os.setgroups([]); os.setgid({SANDBOX_UID}); "
    f"os.setuid({SANDBOX_UID}); "
    "assert ctypes.CDLL(None).prctl(38, 1, 0, 0, 0) == 0, 'PR_SET_NO_NEW_PRIVS'; "
    "os.execvp(sys.argv[1], sys.argv[1:])"
)


def dropped(mechanism: str, command: Sequence[str]) -> list[str]:
    """``command`` as it must be started inside: under bwrap-root (no user namespace: the
    jail starts as root) it first drops to :data:`SANDBOX_UID`, with no groups, through the
    base interpreter; with a user namespace bwrap already made it that uid."""
    if mechanism == "bwrap-userns":
        return list(command)
    python = os.path.realpath(getattr(sys, "_base_executable", sys.executable))
    return [python, "-c", DROP_PRIVILEGES, *command]


def build_argv(
    bwrap: str,
    mechanism: str,
    *,
    writable: Sequence[Path],
    readable: Sequence[Path],
    workdir: Path,
) -> list[str]:
    """The ``build`` profile's bwrap argv up to (not including) the command: the core, a
    private ``/tmp``, the base interpreter and ``readable`` read-only, ``writable`` bound
    read-write (made writable for :data:`SANDBOX_UID` under bwrap-root)."""
    argv = core_argv(bwrap, mechanism, BUILD)
    argv += ["--perms", "1777", "--tmpfs", "/tmp"]
    shown = []
    for path in [Path(sys.base_prefix), *readable]:
        real = os.path.realpath(path)
        if not real.startswith("/usr/") and os.path.exists(real):
            shown.append(real)
    for path in writable:
        path.mkdir(parents=True, exist_ok=True)
        if mechanism != "bwrap-userns" and os.geteuid() == 0:
            _give_to_sandbox_uid(path)
    argv += _parent_dirs([*shown, *map(str, writable)], skip=("/tmp",))
    for real in shown:
        argv += ["--ro-bind", real, real]
    for path in writable:
        argv += ["--bind", str(path), str(path)]
    return argv + ["--remount-ro", "/", "--chdir", str(workdir)]


def _parent_dirs(paths: Sequence[str], skip: Sequence[str] = ()) -> list[str]:
    """``--dir`` options making the missing parents of mount points 0755: bwrap would make
    them 0700, which a dropped uid could not enter."""
    parents = {str(p) for path in paths for p in Path(path).parents}
    argv: list[str] = []
    for parent in sorted(parents - {"/", *skip}, key=len):
        argv += ["--perms", "0755", "--dir", parent]
    return argv


def _give_to_sandbox_uid(path: Path) -> None:
    """Make ``path`` (and what it holds) the sandbox uid's, once: a build that drops to it
    must write there."""
    if path.stat().st_uid == SANDBOX_UID:
        return
    for folder, dirs, files in os.walk(path):
        for name in [*dirs, *files]:
            os.lchown(os.path.join(folder, name), SANDBOX_UID, SANDBOX_UID)
    os.chown(path, SANDBOX_UID, SANDBOX_UID)


def bwrap_argv(
    bwrap: str,
    mechanism: str,
    mounts: list[str],
    *,
    disk_mb: int,
    zygote: str | None = None,
) -> list[str]:
    """The ``run`` profile's bwrap argv up to (not including) the command to run inside."""
    argv = core_argv(bwrap, mechanism, RUN)
    size = str(max(1, disk_mb) * MIB)
    # the private tmpfs dirs come first: a host mount that lies below one of them (a venv under
    # /tmp, say) is bound on top of the tmpfs instead of being hidden by it
    for directory in (*SCRATCH_DIRS, WORK_ROOT):
        argv += ["--perms", "1777", "--size", size, "--tmpfs", directory]
    argv += _parent_dirs([*mounts, ZYGOTE_PATH], skip=(*SCRATCH_DIRS, WORK_ROOT))
    for path in mounts:
        argv += ["--ro-bind", path, path]
    if zygote is not None:
        argv += ["--ro-bind", zygote, ZYGOTE_PATH]
        for helper in ("funcrun.py", "funcdata.py"):  # funcrun loads funcdata from beside it
            argv += ["--ro-bind", str(Path(zygote).with_name(helper)), f"/opt/seebench/{helper}"]
    argv += ["--remount-ro", "/", "--chdir", WORK_ROOT]
    for key, value in BASE_ENV.items():
        argv += ["--setenv", key, value]
    return argv + ["--"]
