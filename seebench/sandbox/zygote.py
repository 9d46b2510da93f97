"""The warm worker that runs inside the sandbox: it forks a fresh, limited child per run.

This file is executed as a script (``python -I zygote.py CONFIG``) inside bubblewrap, so it
imports nothing but the standard library. The host sends one request at a time on standard
input and reads one report per request on standard output (length-prefixed JSON).

The worker itself never runs untrusted code. It makes itself undumpable (so a child with the
same uid can neither ptrace it nor open its ``/proc/PID/fd``), and after every run it kills
every other process of its private PID namespace and empties the work directory, ``/tmp`` and
``/dev/shm``, so nothing is shared between runs.
"""

from __future__ import annotations

import base64
import contextlib
import ctypes
import fcntl
import gc
import importlib.util
import json
import os
import resource
import select
import shutil
import signal
import stat
import struct
import sys
import time
import traceback
import types
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from seebench.sandbox.funcrun import Spawner

HEADER = struct.Struct(">I")
MAX_MESSAGE = 256 * 1024 * 1024
TOKEN_FD = 3
MIB = 1024 * 1024
PR_SET_DUMPABLE = 4
PR_SET_NO_NEW_PRIVS = 38
CPU_POLL_S = 0.05
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


# -- framing, shared with the host -------------------------------------------------------------


def write_message(fd: int, message: dict) -> None:
    """Write ``message`` as a length-prefixed JSON document to ``fd``."""
    body = json.dumps(message).encode()
    data = HEADER.pack(len(body)) + body
    while data:
        written = os.write(fd, data)
        data = data[written:]


def _read_exactly(fd: int, size: int, deadline: float | None) -> bytes | None:
    chunks, remaining = [], size
    while remaining:
        if deadline is not None:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([fd], [], [], left)[0]:
                raise TimeoutError
        chunk = os.read(fd, min(remaining, 1 << 20))
        if not chunk:
            return None
        chunks.append(chunk)
        remaining -= len(chunk)
    return b"".join(chunks)


def read_message(fd: int, deadline: float | None = None) -> dict | None:
    """Read one message from ``fd``; ``None`` at end of file. Raises ``TimeoutError`` when
    ``deadline`` (a ``time.monotonic()`` value) passes first, ``ValueError`` on garbage."""
    header = _read_exactly(fd, HEADER.size, deadline)
    if header is None:
        return None
    (size,) = HEADER.unpack(header)
    if size > MAX_MESSAGE:
        raise ValueError(f"sandbox message of {size} bytes is too large")
    body = _read_exactly(fd, size, deadline)
    if body is None:
        return None
    message = json.loads(body)
    if not isinstance(message, dict):
        raise ValueError("sandbox message is not a JSON object")
    return message


# -- the worker ---------------------------------------------------------------------------------


def _prctl(option: int, value: int) -> None:
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(option, value, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), f"prctl({option}) failed")


def _empty_directory(
    path: str, keep: frozenset[str] = frozenset(), mounts: frozenset[str] = frozenset()
) -> None:
    """Remove everything in ``path`` but mount points and the folders leading to them.

    ``keep`` holds the read-only binds (and every folder above them): a venv bound below
    ``/tmp`` is neither walked nor unlinked (each of its files would be a failing
    ``unlinkat``); any other mount point, told by its device number, is skipped as well.
    """
    try:
        top = os.lstat(path)
        entries = list(os.scandir(path))
    except (FileNotFoundError, NotADirectoryError):
        return
    for entry in entries:
        full = entry.path
        try:
            info = entry.stat(follow_symlinks=False)
        except OSError:
            continue
        if stat.S_ISDIR(info.st_mode):
            if info.st_dev != top.st_dev or full in mounts:  # a mount point: never walked
                continue
            if full in keep:
                _empty_directory(full, keep, mounts)
                continue
            shutil.rmtree(full, ignore_errors=True)
        else:
            with contextlib.suppress(OSError):
                os.unlink(full)


def _kept_paths(mounts: list[str]) -> frozenset[str]:
    """Every mount and every folder above one (what a clean-up must not remove)."""
    kept: set[str] = set()
    for mount in mounts:
        path = os.path.normpath(mount)
        while path not in ("/", ""):
            kept.add(path)
            path = os.path.dirname(path)
    return frozenset(kept)


def _load_funcrun(path: str | None) -> types.ModuleType | None:
    """The two-process function-test helper (``funcrun.py``), loaded by path."""
    if not path or not os.path.isfile(path):
        return None
    spec = importlib.util.spec_from_file_location("seebench_funcrun", path)
    if spec is None or spec.loader is None:
        return None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _other_processes() -> list[int]:
    me = os.getpid()
    return [int(n) for n in os.listdir("/proc") if n.isdigit() and int(n) not in (1, me)]


class Zygote:
    """Runs requests one at a time; see the module docstring."""

    def __init__(self, config: dict) -> None:
        self.work_root = config["work_root"]
        self.scratch_dirs = list(config.get("scratch_dirs", []))
        # Only a worker that owns its PID namespace may kill "every other process": on the
        # host (--unsafe-host-exec) that would be the user's whole session.
        self.own_pid_namespace = bool(config.get("own_pid_namespace")) and (
            os.getpid() == 2 and os.getppid() == 1
        )
        self.drop_uid = config.get("drop_uid")
        self.base_env = dict(config.get("base_env", {}))
        self.devnull = os.open(os.devnull, os.O_RDWR)
        self.mounts = frozenset(os.path.normpath(m) for m in config.get("mounts", []))
        self.kept = _kept_paths(list(self.mounts))
        self.funcrun = _load_funcrun(config.get("funcrun"))
        self.spawner: Spawner | None = None  # started in serve()

    def setup(self) -> tuple[int, int]:
        """Move the protocol off fds 0/1, harden the process; return (read fd, write fd)."""
        proto_in, proto_out = os.dup(0), os.dup(1)
        for fd in (0, 1, 2):
            os.dup2(self.devnull, fd)
        if self.drop_uid is not None:
            os.setgroups([])
            os.setgid(self.drop_uid)
            os.setuid(self.drop_uid)
        _prctl(PR_SET_NO_NEW_PRIVS, 1)
        _prctl(PR_SET_DUMPABLE, 0)
        signal.signal(signal.SIGPIPE, signal.SIG_IGN)
        return proto_in, proto_out

    def serve(self) -> None:
        proto_in, proto_out = self.setup()
        gc.freeze()  # keep the collector from touching (and copying) shared pages in children
        if self.funcrun is not None:  # forked before any request: it never holds one
            self.spawner = self.funcrun.Spawner(self.prepare_candidate, (proto_in, proto_out))
        spawner_pid = self.spawner.pid if self.spawner is not None else None
        ready = {"ready": True, "pid": os.getpid(), "uid": os.getuid(), "spawner": spawner_pid}
        write_message(proto_out, ready)
        while True:
            request = read_message(proto_in)
            if request is None:
                return
            try:
                report = self.run(request, proto_in, proto_out)
            except Exception as error:  # a worker fault, reported rather than fatal
                report = {"worker_error": f"{type(error).__name__}: {error}"}
            finally:
                self.clean_up()
            if self.spawner is not None and not self.spawner.alive():
                report["restart_worker"] = True  # a run killed it: a fresh worker, a clean one
            write_message(proto_out, report)

    # -- one run --------------------------------------------------------------------------------

    def run(self, request: dict, *protocol_fds: int) -> dict:
        run_dir = os.path.join(self.work_root, "run")
        os.makedirs(run_dir, mode=0o755)
        try:
            for name, encoded in request["files"].items():
                path = os.path.join(run_dir, name)
                os.makedirs(os.path.dirname(path), exist_ok=True)
                with open(path, "wb") as handle:
                    handle.write(base64.b64decode(encoded))
        except OSError as error:
            return {"setup_error": f"cannot copy the request's files into the work dir: {error}"}
        limits = request["limits"]
        if (request.get("program") or {}).get("kind") == "split":
            return self.run_split(request, run_dir, protocol_fds)
        out_r, out_w = os.pipe()
        err_r, err_w = os.pipe()
        tok_r, tok_w = os.pipe()
        stdin_path = os.path.join(self.work_root, "stdin")
        with open(stdin_path, "wb") as handle:
            handle.write(base64.b64decode(request.get("stdin", "")))
        in_r = os.open(stdin_path, os.O_RDONLY)
        started = time.monotonic()
        pid = os.fork()
        if pid == 0:  # pragma: no cover - runs in the child
            try:
                for fd in (out_r, err_r, tok_r, *protocol_fds):
                    os.close(fd)
                self.child(request, run_dir, in_r, out_w, err_w, tok_w)
            except BaseException as error:
                with contextlib.suppress(BaseException):
                    os.write(2, f"sandbox: cannot start the program: {error!r}\n".encode())
            finally:
                os._exit(126)
        for fd in (out_w, err_w, tok_w, in_r):
            os.close(fd)
        report = self.supervise(pid, started, limits, out_r, err_r)
        os.set_blocking(tok_r, False)
        try:
            token = os.read(tok_r, 4096)
        except BlockingIOError:
            token = b""
        report["token_ok"] = bool(request.get("nonce")) and token == request["nonce"].encode()
        for fd in (out_r, err_r, tok_r):
            os.close(fd)
        return report

    def supervise(
        self,
        pid: int,
        started: float,
        limits: dict,
        out_r: int,
        err_r: int,
        others: tuple[int, ...] = (),
    ) -> dict:
        """Collect bounded output until the child exits, or the wall limit passes, or the
        child's CPU time passes its (possibly fractional) limit; RLIMIT_CPU, in whole seconds,
        is the backstop for every process of the run."""
        keep = int(limits["output_bytes"])
        streams = {out_r: bytearray(), err_r: bytearray()}
        seen = {out_r: 0, err_r: 0}
        pidfd = os.pidfd_open(pid)
        deadline = started + float(limits["wall_s"])
        open_fds = [out_r, err_r]
        cpu_limit = float(limits["cpu_s"])
        wall_timeout = cpu_timeout = exited = False
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                wall_timeout = True
                break
            ready = select.select([pidfd, *open_fds], [], [], min(left, CPU_POLL_S))[0]
            if not ready and sum(_cpu_time(p) for p in (pid, *others)) > cpu_limit:
                cpu_timeout = True
                break
            for fd in ready:
                if fd == pidfd:
                    exited = True
                    continue
                chunk = os.read(fd, 65536)
                if not chunk:
                    open_fds.remove(fd)
                    continue
                seen[fd] += len(chunk)
                room = keep - len(streams[fd])
                if room > 0:
                    streams[fd] += chunk[:room]
            if exited:
                break
        if wall_timeout or cpu_timeout:
            for victim in (pid, *others):
                self.kill_run(victim)  # leaves the child a zombie, to be reaped just below
        _, status, usage = os.wait4(pid, 0)
        wall = time.monotonic() - started
        os.close(pidfd)
        self.kill_run(pid)
        for fd in open_fds:  # what the child wrote just before exiting
            os.set_blocking(fd, False)
            try:
                while chunk := os.read(fd, 65536):
                    seen[fd] += len(chunk)
                    room = keep - len(streams[fd])
                    if room > 0:
                        streams[fd] += chunk[:room]
            except BlockingIOError:
                pass
        return {
            "exit_code": os.WEXITSTATUS(status) if os.WIFEXITED(status) else None,
            "signal": os.WTERMSIG(status) if os.WIFSIGNALED(status) else None,
            "cpu_s": usage.ru_utime + usage.ru_stime,
            "max_rss_kb": usage.ru_maxrss,
            "wall_s": wall,
            "wall_timeout": wall_timeout,
            "cpu_timeout": cpu_timeout,
            "stdout": base64.b64encode(bytes(streams[out_r])).decode(),
            "stderr": base64.b64encode(bytes(streams[err_r])).decode(),
            "stdout_truncated": seen[out_r] > keep,
            "stderr_truncated": seen[err_r] > keep,
        }

    def kill_run(self, pid: int) -> None:
        """Kill the run's process group and, in a private PID namespace, every other process."""
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(pid, signal.SIGKILL)
        if not self.own_pid_namespace:
            return
        spare: set[int] = {self.spawner.pid} if self.spawner is not None else set()
        for _ in range(200):  # a fork bomb may still be forking: repeat until nothing is left
            # orphans are reaped by bwrap's init (PID 1); only zombies may remain here
            victims = [p for p in _other_processes() if p not in spare and not _is_zombie(p)]
            if not victims:
                return
            if not spare:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(-1, signal.SIGKILL)
            for victim in victims:
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.kill(victim, signal.SIGKILL)
            time.sleep(0.005)

    def clean_up(self) -> None:
        shutil.rmtree(os.path.join(self.work_root, "run"), ignore_errors=True)
        with contextlib.suppress(FileNotFoundError):
            os.unlink(os.path.join(self.work_root, "stdin"))
        for directory in self.scratch_dirs:
            _empty_directory(directory, self.kept, self.mounts)

    def run_split(self, request: dict, run_dir: str, protocol_fds: tuple[int, ...]) -> dict:
        """A function-level test in two processes (see ``funcrun``). The candidate's process
        is forked by the spawner, which the worker started before it read any request (so
        the candidate's memory never holds one: the tests, the nonce), and before the
        completion token's pipe exists; the tests' process holds the token and runs no line
        of the candidate."""
        if self.funcrun is None or self.spawner is None:
            return {"setup_error": "the function-test helper (funcrun.py) is missing"}
        limits = request["limits"]
        candidate_path = self._path(run_dir, request)
        with open(candidate_path, "w", encoding="utf-8", errors="surrogateescape") as handle:
            handle.write(request["program"]["candidate"])
        out_r, out_w = os.pipe()
        err_r, err_w = os.pipe()
        call_r, call_w = os.pipe()  # tests -> candidate
        reply_r, reply_w = os.pipe()  # candidate -> tests
        started = time.monotonic()
        spec = {
            "path": candidate_path,
            "run_dir": run_dir,
            "limits": limits,
            "env": request.get("env", {}),
            "program": {"filename": request["program"].get("filename")},
        }
        try:
            cpid = self.spawner.spawn(spec, [self.devnull, out_w, err_w, call_r, reply_w])
        except (OSError, ValueError, KeyError) as error:
            for fd in (out_r, out_w, err_r, err_w, call_r, call_w, reply_r, reply_w):
                os.close(fd)
            return {"worker_error": f"the candidate spawner failed: {error}"}
        tok_r, tok_w = os.pipe()
        pid = os.fork()
        if pid == 0:  # pragma: no cover - runs in the child
            try:
                for fd in (out_r, err_r, tok_r, call_r, reply_w, *protocol_fds):
                    os.close(fd)
                fds = [self.devnull, out_w, err_w, tok_w, reply_r, call_w]
                self.split_child(request, run_dir, fds)
                _run_split_tests(self.funcrun, request, run_dir)
            except BaseException as error:
                with contextlib.suppress(BaseException):
                    os.write(2, f"sandbox: cannot start the tests: {error!r}\n".encode())
            finally:
                os._exit(126)
        for fd in (out_w, err_w, tok_w, call_r, call_w, reply_r, reply_w):
            os.close(fd)
        report = self.supervise(pid, started, limits, out_r, err_r, others=(cpid,))
        self.kill_run(cpid)
        self.reap_candidate(cpid, report)
        os.set_blocking(tok_r, False)
        try:
            token = os.read(tok_r, 4096)
        except BlockingIOError:
            token = b""
        report["token_ok"] = bool(request.get("nonce")) and token == request["nonce"].encode()
        for fd in (out_r, err_r, tok_r):
            os.close(fd)
        return report

    def reap_candidate(self, cpid: int, report: dict) -> None:
        """Add the killed candidate's CPU time, memory and signal to ``report`` (nothing when
        the spawner is gone: a run may kill it, and the worker is then replaced)."""
        try:
            spawner = self.spawner
            reaped = spawner.reap(cpid) if spawner is not None and spawner.alive() else {}
        except (OSError, ValueError):
            reaped = {}
        report["cpu_s"] += float(reaped.get("cpu_s") or 0.0)
        report["max_rss_kb"] = max(report["max_rss_kb"], int(reaped.get("max_rss_kb") or 0))
        report["candidate_signal"] = reaped.get("signal")

    def prepare_candidate(self, spec: dict, fds: list[int]) -> None:
        """Set up a candidate's process (in the spawner's child): as :meth:`split_child`."""
        self.split_child(spec, spec["run_dir"], fds)

    @staticmethod
    def _path(run_dir: str, request: dict) -> str:
        return os.path.join(run_dir, request["program"].get("filename") or "main.py")

    def split_child(self, request: dict, run_dir: str, fds: list[int]) -> None:
        """Set up one process of a split run: ``fds`` become 0, 1, 2, ...; limits, signals
        and environment as for a program."""
        os.setsid()
        high = [fcntl.fcntl(fd, fcntl.F_DUPFD, 64) for fd in fds]
        for target, fd in enumerate(high):
            os.dup2(fd, target)
        for name in os.listdir("/proc/self/fd"):
            if int(name) >= len(fds):
                with contextlib.suppress(OSError):  # the listing's own descriptor
                    os.close(int(name))
        os.chdir(run_dir)
        _set_limits(request["limits"])
        signal.signal(signal.SIGPIPE, signal.SIG_IGN)
        signal.signal(signal.SIGINT, signal.default_int_handler)
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        signal.signal(signal.SIGXFSZ, signal.SIG_DFL)
        env = {**self.base_env, **request.get("env", {})}
        env["HOME"] = env["PWD"] = run_dir
        os.environ.clear()
        os.environ.update(env)
        sys.argv = [self._path(run_dir, request)]
        if len(fds) == 5:  # the candidate imports its own files; the tests never do
            sys.path.insert(0, run_dir)

    # -- the child ------------------------------------------------------------------------------

    def child(self, request: dict, run_dir: str, in_r: int, out_w: int, err_w: int, tok_w: int):
        os.setsid()
        os.dup2(in_r, 0)
        os.dup2(out_w, 1)
        os.dup2(err_w, 2)
        os.dup2(tok_w, TOKEN_FD)
        for name in os.listdir("/proc/self/fd"):
            if int(name) > TOKEN_FD:
                with contextlib.suppress(OSError):  # the listing's own descriptor
                    os.close(int(name))
        os.chdir(run_dir)
        _set_limits(request["limits"])
        # a program starts with default signal handling, except that hitting the file-size
        # limit kills it (Python ignores SIGXFSZ), so the verdict can name the limit
        python = not request.get("command")
        signal.signal(signal.SIGPIPE, signal.SIG_IGN if python else signal.SIG_DFL)
        signal.signal(signal.SIGINT, signal.default_int_handler if python else signal.SIG_DFL)
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        signal.signal(signal.SIGXFSZ, signal.SIG_DFL)
        env = {**self.base_env, **request.get("env", {})}
        env["HOME"] = env["PWD"] = run_dir
        if request.get("command"):
            os.close(TOKEN_FD)
            try:
                os.execvpe(request["command"][0], request["command"], env)
            except OSError as error:
                os.write(2, f"cannot run {request['command'][0]!r}: {error}\n".encode())
                os._exit(127)
        program = request["program"]
        _run_python(program, run_dir, env, request.get("nonce", ""))


def _cpu_time(pid: int) -> float:
    """User + system CPU seconds of a running process (0 when it is gone)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            fields = handle.read().rsplit(b")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS


def _is_zombie(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            return handle.read().rsplit(b")", 1)[1].split()[0] == b"Z"
    except (OSError, IndexError):
        return True


def _set_limits(limits: dict) -> None:
    cpu = max(1, int(-(-float(limits["cpu_s"]) // 1)))
    address_space = limits.get("address_space_mb") or limits["memory_mb"]
    settings = {
        resource.RLIMIT_CPU: (cpu, cpu + 1),
        resource.RLIMIT_AS: (int(address_space) * MIB,) * 2,
        resource.RLIMIT_NPROC: (int(limits["processes"]),) * 2,
        resource.RLIMIT_FSIZE: (int(limits["file_size_mb"]) * MIB,) * 2,
        resource.RLIMIT_NOFILE: (int(limits["open_files"]),) * 2,
        resource.RLIMIT_CORE: (0, 0),
    }
    for which, (soft, hard) in settings.items():
        _, current_hard = resource.getrlimit(which)
        if current_hard != resource.RLIM_INFINITY:  # never above what the host already set
            soft, hard = min(soft, current_hard), min(hard, current_hard)
        resource.setrlimit(which, (soft, hard))


def _run_split_tests(funcrun: types.ModuleType, request: dict, run_dir: str) -> None:
    """The tests' process of a split run (fds: 3 token, 4 replies, 5 calls); never returns.
    The token is written only when the tests return normally."""
    program = request["program"]
    path = os.path.join(run_dir, "tests.py")
    code_status, completed = 0, False
    try:
        funcrun.run_tests(
            program["tests"],
            path,
            4,
            5,
            prompt=program.get("prompt") or "",
            from_candidate=tuple(program.get("from_candidate") or ()),
        )
        completed = True
    except SystemExit as stop:
        code_status = stop.code if isinstance(stop.code, int) else (0 if stop.code is None else 1)
    except BaseException as error:
        traceback.print_exc()
        cause = funcrun.candidate_caused(error)
        code_status = {"error": funcrun.EXIT_ERROR, "tampered": funcrun.EXIT_TAMPERED}.get(
            cause or "", 1
        )
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except BaseException:
        pass
    if completed and request.get("nonce"):
        os.write(TOKEN_FD, request["nonce"].encode())
    os._exit(code_status & 0xFF)


def _run_python(program: dict, run_dir: str, env: dict, nonce: str) -> None:
    """Run Python source in this (forked) interpreter; never returns."""
    os.environ.clear()
    os.environ.update(env)
    path = os.path.join(run_dir, program["filename"])
    sys.argv = [path]
    sys.path.insert(0, run_dir)
    main = types.ModuleType("__main__")
    main.__file__ = path
    sys.modules["__main__"] = main
    code_status = 0
    completed = False
    try:
        code = compile(program["source"], path, "exec")
        exec(code, main.__dict__)
        completed = True
    except SystemExit as stop:
        code_status = stop.code if isinstance(stop.code, int) else (0 if stop.code is None else 1)
        if stop.code is not None and not isinstance(stop.code, int):
            print(stop.code, file=sys.stderr)
    except BaseException:
        traceback.print_exc()
        code_status = 1
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except BaseException:
        pass
    if completed and program.get("require_completion") and nonce:
        os.write(TOKEN_FD, nonce.encode())
    os._exit(code_status & 0xFF)


if __name__ == "__main__":
    Zygote(json.loads(sys.argv[1])).serve()
