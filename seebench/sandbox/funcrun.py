"""Function-level tests in two processes: the candidate in one, the assertions in the other.

The candidate (model-written code) is loaded in a process forked by the :class:`Spawner`, a
clean process the worker forks at start-up, before it reads any request: neither it nor the
candidate ever held the tests, the nonce or anything else of a request (the candidate's
source reaches it as a file of the run's work dir). The candidate answers requests (call
this, read that attribute) over a pipe; the tests run in a second process that never executes a line of
the candidate. Values cross as plain data only, in a tagged JSON form: ``None``, ``bool``,
``int``, ``float``, ``str``, ``bytes``, ``complex`` and lists, tuples, dicts, sets and
frozensets of them, matched by exact type (a subclass of ``int`` is not an ``int``), and numpy
arrays and scalars and pandas frames, series and indexes of such data (``funcdata``: rebuilt
from their elements by numpy's and pandas' constructors, never unpickled). Every
other object stays in the candidate's process and the tests see a :class:`Remote` handle whose
equality is identity, so an object that claims to equal everything equals nothing.

The tests' process binds only names it asked for: the trusted ``prompt`` (the task's own code)
runs there first, and a name the tests read is taken from the candidate only when it is one of
``from_candidate`` (the entry point) or neither a builtin nor defined by the prompt. The
candidate's exceptions come back as builtin exception types, never as control flow
(``StopIteration``, ``StopAsyncIteration``, ``GeneratorExit``, ``KeyboardInterrupt``,
``SystemExit`` arrive as :class:`CandidateError`). How the tests' process ends tells the
verdict: :data:`EXIT_ERROR` when the candidate raised or could not answer,
:data:`EXIT_TAMPERED` when it broke the protocol (a reply to a question not asked).

Only the tests' process holds the completion token's descriptor, and it is undumpable, so
the candidate can neither reach the token nor the comparison. Like the zygote, this file is
loaded by path inside the sandbox and imports only the standard library.
"""

from __future__ import annotations

import base64
import builtins
import contextlib
import importlib.util
import json
import os
import socket
import struct
import sys
import traceback
import types
from collections.abc import Callable
from typing import Any, cast

HEADER = struct.Struct(">I")
#: The largest message either side accepts (a reply bigger than this fails the call).
MAX_MESSAGE = 64 * 1024 * 1024
SCALARS = (type(None), bool, int, float, str)
#: Exit status of the tests' process when the candidate raised, crashed or did not answer.
EXIT_ERROR = 3
#: Exit status of the tests' process when the candidate broke the protocol.
EXIT_TAMPERED = 4
#: Exceptions that steer control flow: a candidate's never reaches the tests as itself.
CONTROL_FLOW = frozenset(
    {"StopIteration", "StopAsyncIteration", "GeneratorExit", "KeyboardInterrupt", "SystemExit"}
)


class CandidateError(Exception):
    """The candidate's process failed to load or to answer; the message says how."""


class ProtocolViolation(CandidateError):
    """The candidate's process answered what was not asked (names, shapes): tampering."""


def _load_funcdata() -> types.ModuleType:
    """``funcdata.py`` (numpy and pandas values as plain data), loaded by path from beside
    this file, as this file is inside the sandbox."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "funcdata.py")
    spec = importlib.util.spec_from_file_location("seebench_funcdata", path)
    module = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    return module


funcdata = _load_funcdata()


class _End:
    """The reply to ``next`` on an exhausted iterator of the candidate."""


_END = _End()


class RemoteValueError(TypeError):
    """A value that is not plain data was about to cross from the tests to the candidate."""


# -- framing ------------------------------------------------------------------------------------


def send(fd: int, message: object) -> None:
    """Write one length-prefixed JSON message."""
    body = json.dumps(message, separators=(",", ":")).encode()
    data = HEADER.pack(len(body)) + body
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def _read_exactly(fd: int, size: int) -> bytes:
    chunks, remaining = [], size
    while remaining:
        chunk = os.read(fd, min(remaining, 1 << 20))
        if not chunk:
            raise CandidateError("the candidate's process ended before answering")
        chunks.append(chunk)
        remaining -= len(chunk)
    return b"".join(chunks)


def receive(fd: int) -> object:
    """Read one message; raises :class:`CandidateError` at end of file or on garbage."""
    (size,) = HEADER.unpack(_read_exactly(fd, HEADER.size))
    if size > MAX_MESSAGE:
        raise CandidateError(f"a message of {size} bytes from the candidate is too large")
    try:
        return json.loads(_read_exactly(fd, size))
    except ValueError:
        raise CandidateError("the candidate's process sent a malformed message") from None


# -- plain data ---------------------------------------------------------------------------------


def encode(value: object, handle_of: Callable[[object], int]) -> object:
    """``value`` as tagged JSON; ``handle_of(obj)`` names an object that is not plain data
    (or raises to refuse it)."""
    kind = type(value)
    if kind in SCALARS:
        return value if kind is not str else ["s", value]
    if type(value) is list:
        return ["l", [encode(item, handle_of) for item in value]]
    if type(value) is tuple:
        return ["t", [encode(item, handle_of) for item in value]]
    if type(value) is dict:
        return ["d", [[encode(k, handle_of), encode(v, handle_of)] for k, v in value.items()]]
    if type(value) is set or type(value) is frozenset:
        return ["S" if kind is set else "F", [encode(item, handle_of) for item in value]]
    if type(value) is bytes:
        return ["b", base64.b64encode(value).decode()]
    if type(value) is complex:
        return ["c", value.real, value.imag]
    try:  # a numpy or pandas value of plain data, else (the fallback) a handle
        tagged = funcdata.encode(value, _strict)
    except funcdata.NotPlain:
        tagged = None
    return ["h", handle_of(value)] if tagged is None else tagged


def _strict(value: object) -> object:
    """``value`` encoded as plain data throughout (inside a numpy or pandas value)."""
    return encode(value, _not_plain)


def _not_plain(value: object) -> int:
    raise funcdata.NotPlain(type(value).__name__)


def decode(data: object, resolve: Callable[[int], object]) -> object:
    """The value ``data`` encodes, built from builtin types only; ``resolve(number)`` turns a
    handle into an object. Raises ``ValueError`` on anything malformed."""
    if data is None or type(data) in (bool, int, float):
        return data
    if type(data) is not list or len(data) < 2 or type(data[0]) is not str:
        raise ValueError("malformed value")
    tag, body = data[0], data[1]
    if tag == "s" and type(body) is str:
        return body
    if tag in ("l", "t", "S", "F") and type(body) is list:
        items = [decode(item, resolve) for item in body]
        return {"l": list, "t": tuple, "S": set, "F": frozenset}[tag](items)
    if tag == "d" and type(body) is list:
        out = {}
        for pair in body:
            if type(pair) is not list or len(pair) != 2:
                raise ValueError("malformed dict entry")
            out[decode(pair[0], resolve)] = decode(pair[1], resolve)
        return out
    if tag == "b" and type(body) is str:
        return base64.b64decode(body, validate=True)
    if tag == "c" and len(data) == 3 and all(type(x) in (int, float) for x in data[1:]):
        return complex(data[1], data[2])
    if tag == "h" and type(body) is int:
        return resolve(body)
    if tag in funcdata.TAGS:
        return funcdata.decode(data, lambda item: decode(item, resolve))
    raise ValueError(f"malformed value tagged {tag!r}")


# -- the candidate's side -----------------------------------------------------------------------


class _Server:
    """Holds the candidate's module and the objects the tests hold handles to."""

    def __init__(self, namespace: dict) -> None:
        self.namespace = namespace
        self.objects: dict[int, object] = {}
        self.numbers: dict[int, int] = {}

    def handle_of(self, value: object) -> int:
        number = self.numbers.get(id(value))
        if number is None:
            number = len(self.objects) + 1
            self.objects[number] = value
            self.numbers[id(value)] = number
        return number

    def resolve(self, number: int) -> object:
        if number not in self.objects:
            raise ValueError(f"unknown handle {number}")
        return self.objects[number]

    def answer(self, request: list) -> object:
        op, target = request[0], request[1]
        if op == "globals":
            return {name: self.namespace[name] for name in target if name in self.namespace}
        obj: Any = self.resolve(target)  # the candidate's object: the tests ask anything of it
        args: list[Any] = [decode(a, self.resolve) for a in request[2]] if len(request) > 2 else []
        if op == "call":
            kwargs: Any = decode(request[3], self.resolve)  # a dict, or obj's call raises
            return obj(*args, **kwargs)
        if op == "getattr":
            return getattr(obj, args[0])
        if op == "iter":
            return iter(obj)
        if op == "next":
            return next(obj, _END)
        if op == "len":
            return len(obj)
        if op == "bool":
            return bool(obj)
        if op == "getitem":
            return obj[args[0]]
        if op == "contains":
            return args[0] in obj
        if op in ("repr", "str"):
            return (repr if op == "repr" else str)(obj)
        raise ValueError(f"unknown request {op!r}")

    def reply(self, request: object) -> list:
        try:
            if type(request) is not list or len(request) < 2 or type(request[0]) is not str:
                raise ValueError("malformed request")
            value = self.answer(request)
            if value is _END:
                return ["end"]
            if request[0] == "globals":
                names = cast("dict[str, object]", value)  # what answer() gives for "globals"
                return ["ok", {k: encode(v, self.handle_of) for k, v in names.items()}]
            if request[0] in ("len", "bool", "repr", "str"):
                expected = {"len": int, "bool": bool, "repr": str, "str": str}[request[0]]
                if type(value) is not expected:
                    raise TypeError(f"{request[0]}() returned a non-{expected.__name__}")
            return ["ok", encode(value, self.handle_of)]
        except BaseException as error:  # reported to the tests, which raise it there
            if type(request) is list and request and request[0] == "call":
                traceback.print_exc()
            return ["err", type(error).__name__, _message(error)]


def _message(error: BaseException) -> str:
    try:
        return str(error)[:2000]
    except BaseException:
        return "(unprintable)"


def serve_candidate(source: str, path: str, rfd: int, wfd: int) -> None:
    """Load ``source`` as ``__main__`` and answer the tests' requests until they hang up;
    never returns."""
    main = types.ModuleType("__main__")
    main.__file__ = path
    sys.modules["__main__"] = main
    status = 0
    try:
        exec(compile(source, path, "exec"), main.__dict__)
        send(wfd, ["ready"])
    except BaseException as error:
        traceback.print_exc()
        send(wfd, ["load_error", type(error).__name__, _message(error)])
        status = 1
    if status == 0:
        server = _Server(main.__dict__)
        while True:
            try:
                request = receive(rfd)
            except BaseException:
                break
            reply = server.reply(request)
            try:
                send(wfd, reply)
            except BaseException:
                try:
                    send(wfd, ["err", "ValueError", "the reply could not be encoded"])
                except BaseException:
                    break
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except BaseException:
        pass
    os._exit(status)


# -- the tests' side ----------------------------------------------------------------------------


class _Client:
    def __init__(self, rfd: int, wfd: int) -> None:
        self.rfd, self.wfd = rfd, wfd
        self.proxies: dict[int, Remote] = {}

    def handle_of(self, value: object) -> int:
        if type(value) is Remote and object.__getattribute__(value, "_client") is self:
            return object.__getattribute__(value, "_number")
        raise RemoteValueError(
            f"a {type(value).__name__} cannot be passed to the candidate (plain data only)"
        )

    def resolve(self, number: int) -> Remote:
        proxy = self.proxies.get(number)
        if proxy is None:
            proxy = self.proxies[number] = Remote(self, number)
        return proxy

    def request(self, *request: object) -> object:
        send(self.wfd, list(request))
        reply = receive(self.rfd)
        if type(reply) is not list or not reply:
            raise ProtocolViolation("the candidate's process sent a malformed reply")
        if reply == ["end"] and request[0] == "next":
            return _END
        if reply[0] == "ok" and len(reply) == 2:
            if request[0] == "globals":
                return self._names(request[1], reply[1])  # type: ignore[arg-type]
            return self._value(reply[1])
        if reply[0] == "err" and len(reply) == 3:
            raise _remote_exception(str(reply[1]), str(reply[2]))
        raise ProtocolViolation("the candidate's process sent a malformed reply")

    def _names(self, asked: list[str], data: object) -> dict[str, object]:
        """The values of the names asked for; a name not asked for is tampering."""
        if type(data) is not dict:
            raise ProtocolViolation("the candidate's process sent a malformed reply")
        extra = sorted(str(k) for k in data if k not in asked)
        if extra:
            raise ProtocolViolation(f"the candidate sent names it was not asked for: {extra[:5]}")
        return {name: self._value(value) for name, value in data.items()}

    def _value(self, data: object) -> object:
        try:
            return decode(data, self.resolve)
        except (ValueError, TypeError, RecursionError) as error:
            raise ProtocolViolation(f"the candidate returned a malformed value: {error}") from None

    def op(self, op: str, number: int, *args: object, **kwargs: object) -> object:
        encoded = [encode(a, self.handle_of) for a in args]
        if op == "call":
            return self.request(op, number, encoded, encode(kwargs, self.handle_of))
        return self.request(op, number, encoded)


#: the exceptions rebuilt from the candidate's, by id (to tell its errors from the tests' own);
#: each is kept alive here, so that its id is never reused by another object
_REMOTE_ERRORS: dict[int, BaseException] = {}


def _remote_exception(name: str, message: str) -> BaseException:
    """The candidate's exception rebuilt from its name: a builtin ``Exception`` subclass of
    that name with the message, else (a class of its own, or control flow such as
    ``StopIteration``) :class:`CandidateError`."""
    kind = getattr(builtins, name, None)
    error: BaseException = CandidateError(f"{name}: {message}")
    if name not in CONTROL_FLOW and isinstance(kind, type) and issubclass(kind, Exception):
        try:
            error = kind(message)
        except Exception:  # a builtin that wants other arguments: the generic error stays
            error = CandidateError(f"{name}: {message}")
    _REMOTE_ERRORS[id(error)] = error
    return error


def candidate_caused(error: BaseException) -> str | None:
    """``tampered`` or ``error`` when ``error`` (or what it chains from) came from the
    candidate, else ``None`` (the tests failed on their own)."""
    seen: set[int] = set()
    current: BaseException | None = error
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        if isinstance(current, ProtocolViolation):
            return "tampered"
        if isinstance(current, CandidateError) or id(current) in _REMOTE_ERRORS:
            return "error"
        current = current.__cause__ or current.__context__
    return None


class Remote:
    """An object that lives in the candidate's process. Equality and hashing are identity:
    the candidate's own ``__eq__`` is never consulted."""

    __slots__ = ("_client", "_number")

    def __init__(self, client: _Client, number: int) -> None:
        object.__setattr__(self, "_client", client)
        object.__setattr__(self, "_number", number)

    def _op(self, op: str, *args: object, **kwargs: object) -> object:
        client = object.__getattribute__(self, "_client")
        return client.op(op, object.__getattribute__(self, "_number"), *args, **kwargs)

    def __call__(self, *args: object, **kwargs: object) -> object:
        return self._op("call", *args, **kwargs)

    def __getattr__(self, name: str) -> object:
        if name.startswith("__") and name.endswith("__"):
            raise AttributeError(name)
        return self._op("getattr", name)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("objects of the candidate cannot be changed from the tests")

    def __iter__(self):
        iterator = self._op("iter")
        if type(iterator) is not Remote:  # iter() of the candidate gave plain data
            yield from iterator  # type: ignore[misc]
            return
        while True:
            item = iterator._op("next")
            if item is _END:
                return
            yield item

    def __len__(self) -> int:
        return self._op("len")  # type: ignore[return-value]

    def __bool__(self) -> bool:
        return self._op("bool")  # type: ignore[return-value]

    def __getitem__(self, key: object) -> object:
        return self._op("getitem", key)

    def __contains__(self, item: object) -> bool:
        return bool(self._op("contains", item))

    def __repr__(self) -> str:
        return self._op("repr")  # type: ignore[return-value]

    def __str__(self) -> str:
        return self._op("str")  # type: ignore[return-value]

    def __eq__(self, other: object) -> bool:
        return self is other

    def __ne__(self, other: object) -> bool:
        return self is not other

    def __hash__(self) -> int:
        return object.__hash__(self)


def free_names(code: types.CodeType) -> list[str]:
    """Names the compiled tests may read that are not builtins (the candidate may define them):
    every name of every code object in ``code`` (attribute names too, which are harmless:
    only names the candidate's module defines are bound)."""
    names: set[str] = set()
    stack = [code]
    while stack:
        current = stack.pop()
        names.update(current.co_names)
        stack.extend(c for c in current.co_consts if isinstance(c, types.CodeType))
    return sorted(name for name in names if not hasattr(builtins, name))


def run_tests(
    source: str,
    path: str,
    rfd: int,
    wfd: int,
    prompt: str = "",
    from_candidate: tuple[str, ...] | list[str] = (),
) -> None:
    """Wait for the candidate to load; run the trusted ``prompt``; bind from the candidate
    the names of ``from_candidate`` and those the tests read that neither the builtins nor
    the prompt define; run the tests (an exception propagates to the caller: the run fails)."""
    client = _Client(rfd, wfd)
    hello = receive(rfd)
    if hello != ["ready"]:
        if type(hello) is list and len(hello) == 3 and hello[0] == "load_error":
            raise CandidateError(f"the candidate did not load: {hello[1]}: {hello[2]}")
        raise ProtocolViolation("the candidate's process sent a malformed greeting")
    main = types.ModuleType("__main__")
    main.__file__ = path
    sys.modules["__main__"] = main
    if prompt:
        exec(compile(prompt, path, "exec"), main.__dict__)
    code = compile(source, path, "exec")
    names = [n for n in free_names(code) if n not in main.__dict__ or n in from_candidate]
    names = sorted({*names, *(n for n in from_candidate if not hasattr(builtins, n))})
    bound = cast("dict[str, object]", client.request("globals", names)) if names else {}
    missing = [name for name in from_candidate if name not in bound]
    if missing:  # never the trusted code's stub (or reference) in its place
        raise CandidateError(f"the candidate does not define {', '.join(missing)}")
    main.__dict__.update(bound)
    exec(code, main.__dict__)


# -- the spawner ---------------------------------------------------------------------------------

#: Seconds the worker waits for the spawner's answer (it answers at once unless it is gone).
SPAWNER_TIMEOUT_S = 10.0


class Spawner:
    """A clean process that forks the candidates' processes.

    The worker starts it before it reads its first request, so the spawner's memory (and so
    every candidate's) never holds a request: the tests, the nonce, the trusted prompt. Per
    run the worker sends it only where the candidate's file is, its limits and environment,
    and the descriptors the candidate gets (over a unix socket); the spawner forks, ``prepare``
    sets the child up (descriptors 0-4, limits, signals, environment) and the child serves the
    candidate. The worker supervises the candidate by its pid, kills it, then asks the spawner
    to reap it (its exit signal and resource use)."""

    def __init__(self, prepare: Callable[[dict, list[int]], None], close: tuple[int, ...]) -> None:
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        pid = os.fork()
        if pid == 0:  # pragma: no cover - runs in the spawner
            try:
                ours.close()
                for fd in close:
                    os.close(fd)
                _spawner_loop(theirs, prepare)
            finally:
                os._exit(0)
        theirs.close()
        ours.settimeout(SPAWNER_TIMEOUT_S)
        self.pid, self.sock = pid, ours

    def spawn(self, spec: dict, fds: list[int]) -> int:
        """Fork a candidate's process for ``spec`` (``path``, ``run_dir``, ``limits``, ``env``,
        ``program.filename``) holding ``fds``; its pid. Raises ``OSError`` when the spawner is
        gone."""
        socket.send_fds(self.sock, [json.dumps(["spawn", spec]).encode()], fds)
        return int(self._reply()["pid"])

    def reap(self, pid: int) -> dict:
        """Reap the (killed) candidate ``pid``: ``signal``, ``cpu_s``, ``max_rss_kb``."""
        self.sock.send(json.dumps(["reap", pid]).encode())
        return self._reply()

    def _reply(self) -> dict:
        data = self.sock.recv(65536)
        if not data:
            raise OSError("the candidate spawner is gone")
        return json.loads(data)

    def alive(self) -> bool:
        """Whether the spawner still runs and is not stopped (a candidate with the same uid
        may have killed or stopped it)."""
        try:
            if os.waitpid(self.pid, os.WNOHANG) != (0, 0):
                return False
            with open(f"/proc/{self.pid}/stat", "rb") as handle:
                state = handle.read().rsplit(b")", 1)[1].split()[0]
        except (ChildProcessError, OSError, IndexError):
            return False
        return state not in (b"T", b"t", b"Z")


def _spawner_loop(sock: socket.socket, prepare: Callable[[dict, list[int]], None]) -> None:
    """Serve the worker's ``spawn`` and ``reap`` requests until it hangs up."""
    while True:
        try:
            data, fds, _, _ = socket.recv_fds(sock, 65536, 8)
        except OSError:
            return
        if not data:
            return
        op, argument = json.loads(data)
        if op == "spawn":
            pid = os.fork()
            if pid == 0:  # pragma: no cover - runs in the candidate's process
                sock.close()
                _candidate_process(argument, fds, prepare)
            for fd in fds:
                os.close(fd)
            reply: dict = {"pid": pid}
        else:
            reply = _reap(int(argument))
        try:
            sock.send(json.dumps(reply).encode())
        except OSError:
            return


def _candidate_process(spec: dict, fds: list[int], prepare: Callable) -> None:
    """Set the process up, load the candidate's file and serve it; never returns."""
    try:
        prepare(spec, fds)
        with open(spec["path"], encoding="utf-8", errors="surrogateescape") as handle:
            source = handle.read()
        serve_candidate(source, spec["path"], 3, 4)
    except BaseException as error:
        with contextlib.suppress(BaseException):
            os.write(2, f"sandbox: cannot start the candidate: {error!r}\n".encode())
    finally:
        os._exit(126)


def _reap(pid: int) -> dict:
    try:
        _, status, usage = os.wait4(pid, 0)
    except ChildProcessError:
        return {"signal": None, "cpu_s": 0.0, "max_rss_kb": 0}
    return {
        "signal": os.WTERMSIG(status) if os.WIFSIGNALED(status) else None,
        "cpu_s": usage.ru_utime + usage.ru_stime,
        "max_rss_kb": usage.ru_maxrss,
    }
