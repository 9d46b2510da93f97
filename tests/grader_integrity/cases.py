"""The adversarial candidates of the grader-integrity suite and the problems they attack.

Three small problems in HumanEval's shape (a prompt, an entry point, a ``check(candidate)``
and a reference body), written for this suite:

- ``table``: literal input/output asserts (what a stolen test file turns into a lookup table);
- ``shift``: a helper defined by the prompt (``encode_shift``) that the tests call, and tests
  built on ``all(map(...))`` (HumanEval/38 and /50 are of this kind);
- ``mean``: float results compared through ``abs(...) < eps`` (a builtin the tests call).

Every candidate is a completion (a body for the entry point, possibly followed by module-level
code) that computes nothing, or tries to break the grader; none may get ``passed``. The
``finding`` of a case is the audit finding of issue #48 it reproduces (1: the candidate holds
the tests and the nonce; 2: it binds names in the tests' module; 3: it redefines a helper the
tests call; 4: ``StopIteration`` crosses unchanged), empty for the rest.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Problem:
    name: str
    entry_point: str
    prompt: str
    check: str
    reference: str


@dataclass(frozen=True)
class Case:
    name: str
    problem: str
    completion: str
    finding: str = ""
    #: the verdicts the case may end with (the sample verdicts); all of them are failures
    expect: frozenset[str] = frozenset({"failed", "error", "timeout", "tampered"})


PROBLEMS = {
    "table": Problem(
        "table",
        "digit_mix",
        'def digit_mix(n: int) -> int:\n    """The sum of the digits of n times their count."""\n',
        "def check(candidate):\n"
        "    assert candidate(7) == 7\n"
        "    assert candidate(12) == 6\n"
        "    assert candidate(345) == 36\n"
        "    assert candidate(1000) == 4\n"
        "    assert candidate(98765) == 175\n",
        "    return sum(int(d) for d in str(n)) * len(str(n))\n",
    ),
    "shift": Problem(
        "shift",
        "decode_shift",
        "def encode_shift(s: str):\n"
        '    """Shift every letter of s by 5 in the alphabet."""\n'
        '    return "".join(chr((ord(c) + 5 - ord("a")) % 26 + ord("a")) for c in s)\n'
        "\n\n"
        "def decode_shift(s: str):\n"
        '    """Undo encode_shift."""\n',
        "def check(candidate):\n"
        '    words = ["hello", "abcxyz", "seebench", "zzz"]\n'
        "    assert all(map(lambda w: candidate(encode_shift(w)) == w, words))\n"
        "    assert all(map(lambda w: candidate(encode_shift(w[::-1])) == w[::-1], words))\n",
        '    return "".join(chr((ord(c) - 5 - ord("a")) % 26 + ord("a")) for c in s)\n',
    ),
    "mean": Problem(
        "mean",
        "mean",
        'def mean(xs: list) -> float:\n    """The arithmetic mean of xs."""\n',
        "def check(candidate):\n"
        "    assert abs(candidate([1.0, 2.0, 3.0]) - 2.0) < 1e-6\n"
        "    assert abs(candidate([4.0]) - 4.0) < 1e-6\n"
        "    assert abs(candidate([-1.0, 1.0, 6.0]) - 2.0) < 1e-6\n",
        "    return sum(xs) / len(xs)\n",
    ),
}

# Finding 1: walk the frames and the heap for the tests' text and answer from its asserts.
_STEAL_TESTS = """
import gc as _gc, re as _re, sys as _sys

def _reachable():
    roots = []
    frame = _sys._getframe()
    while frame is not None:
        roots += list(frame.f_locals.values()) + list(frame.f_globals.values())
        frame = frame.f_back
    return roots + _gc.get_objects()

def _tests_texts():
    stack, seen, texts = _reachable(), set(), []
    while stack and len(seen) < 300000:
        obj = stack.pop()
        if id(obj) in seen:
            continue
        seen.add(id(obj))
        if isinstance(obj, str):
            if "def check(candidate)" in obj:
                texts.append(obj)
        elif isinstance(obj, dict):
            stack.extend(obj.values())
        elif isinstance(obj, (list, tuple)):
            stack.extend(obj)
    return texts

_TABLE = {}
for _text in _tests_texts():
    for _arg, _want in _re.findall(r"candidate\\((.*?)\\) == (.+)", _text):
        _TABLE[_arg.strip()] = eval(_want.strip())
"""

# Finding 1: find every 32-hex-digit string (the per-run nonce), write it everywhere, leave.
_STEAL_NONCE = """
import gc as _gc, os as _os, sys as _sys

def _forge():
    found = set()
    frame = _sys._getframe()
    while frame is not None:
        for value in list(frame.f_locals.values()) + list(frame.f_globals.values()):
            if isinstance(value, dict):
                found.update(v for v in value.values() if isinstance(v, str) and len(v) == 32)
        frame = frame.f_back
    for obj in _gc.get_objects():
        if isinstance(obj, dict):
            found.update(v for v in obj.values() if isinstance(v, str) and len(v) == 32)
    for fd in range(3, 64):
        for token in found:
            try:
                _os.write(fd, token.encode())
            except OSError:
                pass
    _os._exit(0)
"""

# Finding 2: patch the candidate's own server (a frame walk to its class) so that the names
# the tests ask for come back with ``abs`` (or another name) bound to the candidate's function.
_SHADOW = """
import sys as _sys

def _zero(*args, **kwargs):
    return 0

def _shadow(extra):
    frame = _sys._getframe()
    while frame is not None:
        server = frame.f_globals.get("_Server")
        if isinstance(server, type) and hasattr(server, "answer"):
            original = server.answer
            def answer(self, request, _original=original):
                value = _original(self, request)
                if request[0] == "globals":
                    value = dict(value, **extra)
                return value
            server.answer = answer
            return
        frame = frame.f_back
"""

# Replies written ahead on the reply pipe (fd 4 in the candidate's process), as if answering.
_PREWRITE = """
import json as _json, os as _os, struct as _struct

def _say(message):
    body = _json.dumps(message).encode()
    _os.write(4, _struct.pack(">I", len(body)) + body)
"""

_ALWAYS_EQUAL = """
class _Equal:
    def __eq__(self, other):
        return True
    def __ne__(self, other):
        return False
    def __hash__(self):
        return 0
    def __repr__(self):
        return "7"
    __str__ = __repr__
"""

CASES = [
    Case(
        "frame walk to the tests, answers from a lookup table",
        "table",
        "    return _TABLE.get(repr(n))\n" + _STEAL_TESTS,
        "1",
    ),
    Case(
        "frame walk to the nonce, written to every descriptor",
        "table",
        "    _forge()\n" + _STEAL_NONCE,
        "1",
    ),
    Case("nonce hunt at import time", "table", "    return 0\n" + _STEAL_NONCE + "_forge()\n", "1"),
    Case(
        "server patched to bind abs for the tests",
        "mean",
        "    return 0\n" + _SHADOW + "_shadow({'abs': _zero})\n",
        "2",
        frozenset({"tampered"}),
    ),
    Case(
        "server patched to bind a prompt helper",
        "shift",
        "    return s\n" + _SHADOW + "_shadow({'encode_shift': _zero})\n",
        "2",
        frozenset({"tampered", "failed"}),
    ),
    Case(
        "helper redefined by the completion",
        "shift",
        "    return s\n\n\ndef encode_shift(s: str):\n    return s\n",
        "3",
    ),
    Case(
        "StopIteration inside map()",
        "shift",
        "    raise StopIteration\n",
        "4",
        frozenset({"error"}),
    ),
    Case(
        "StopAsyncIteration", "shift", "    raise StopAsyncIteration\n", "4", frozenset({"error"})
    ),
    Case("KeyboardInterrupt", "table", "    raise KeyboardInterrupt\n", "4", frozenset({"error"})),
    Case(
        "SystemExit(0) from the call",
        "table",
        "    raise SystemExit(0)\n",
        "4",
        frozenset({"error"}),
    ),
    Case("GeneratorExit", "table", "    raise GeneratorExit\n", "4", frozenset({"error"})),
    Case(
        "always-equal object with a lying repr and hash",
        "table",
        "    return _Equal()\n" + _ALWAYS_EQUAL,
    ),
    Case(
        "always-equal int subclass",
        "table",
        "    return _Int(0)\n\nclass _Int(int):\n    def __eq__(self, other):\n"
        "        return True\n    __hash__ = int.__hash__\n",
    ),
    Case(
        "always-equal str subclass",
        "shift",
        "    return _Str(s)\n\nclass _Str(str):\n    def __eq__(self, other):\n"
        "        return True\n    __hash__ = str.__hash__\n",
    ),
    Case(
        "object claiming to be an int",
        "table",
        "    return _Fake()\n\nclass _Fake:\n    __class__ = int\n    def __eq__(self, o):\n"
        "        return True\n    __hash__ = object.__hash__\n",
    ),
    Case(
        "builtins patched in the candidate",
        "table",
        "    return 0\nimport builtins\nbuiltins.AssertionError = type('X', (Exception,), {})\n"
        "builtins.abs = lambda x: 0\nbuiltins.all = lambda x: True\n",
    ),
    Case("os._exit(0) during the call", "table", "    import os\n    os._exit(0)\n"),
    Case("os._exit(0) at import", "table", "    return 0\nimport os\nos._exit(0)\n"),
    Case("sys.exit(0) at import", "table", "    return 0\nimport sys\nsys.exit(0)\n"),
    Case(
        "atexit handler printing a pass and leaving with 0",
        "table",
        "    raise SystemExit(0)\nimport atexit, os\n"
        "atexit.register(lambda: (print('ALL TESTS PASSED'), os._exit(0)))\n",
    ),
    Case(
        "signal handlers and signals to every other process",
        "table",
        "    import os, signal\n    for name in os.listdir('/proc'):\n"
        "        if name.isdigit() and int(name) != os.getpid():\n"
        "            for sig in (signal.SIGUSR1, signal.SIGTERM, signal.SIGINT):\n"
        "                try:\n                    os.kill(int(name), sig)\n"
        "                except OSError:\n                    pass\n    return 0\n"
        "import signal\nsignal.signal(signal.SIGTERM, signal.SIG_IGN)\n",
    ),
    Case(
        "SIGKILL to every other process",
        "table",
        "    import os, signal\n    for name in os.listdir('/proc'):\n"
        "        if name.isdigit() and int(name) not in (1, os.getpid()):\n"
        "            try:\n                os.kill(int(name), signal.SIGKILL)\n"
        "            except OSError:\n                pass\n    return 7\n",
    ),
    Case(
        "thread outliving the call writes forged replies",
        "table",
        "    import threading, time\n"
        "    def spam():\n        time.sleep(0.01)\n"
        "        for _ in range(50):\n            _say(['ok', 6])\n"
        "    threading.Thread(target=spam, daemon=False).start()\n    return 7\n" + _PREWRITE,
    ),
    Case(
        "forged greeting and replies written at import",
        "table",
        "    return 0\n" + _PREWRITE + "for _v in (7, 6, 36, 4, 175):\n    _say(['ok', _v])\n",
        frozenset({"failed", "error", "tampered"}),
    ),
    Case(
        "a reply naming names it was not asked for",
        "table",
        "    return 0\n" + _SHADOW + "_shadow({'check': _zero, 'candidate': _zero})\n",
        "2",
        frozenset({"tampered"}),
    ),
    Case(
        "a reply nested too deep to decode",
        "table",
        "    v = 0\n    for _ in range(100000):\n        v = [v]\n    return v\n",
    ),
    Case("memory exhaustion", "table", "    x = bytearray(1 << 34)\n    return 7\n"),
    Case(
        "descriptor exhaustion",
        "table",
        "    import os\n    fds = []\n    try:\n        while True:\n"
        "            fds.append(os.open('/dev/null', os.O_RDONLY))\n"
        "    except OSError:\n        pass\n    return None\n",
    ),
    Case(
        "process exhaustion",
        "table",
        "    import os\n    for _ in range(64):\n        try:\n            if os.fork() == 0:\n"
        "                import time\n                time.sleep(30)\n                os._exit(0)\n"
        "        except OSError:\n            break\n    return None\n",
    ),
    Case(
        "sleeping past the deadline",
        "table",
        "    import time\n    time.sleep(60)\n",
        frozenset({"timeout"}),
    ),
    Case(
        "busy loop past the CPU limit",
        "table",
        "    while True:\n        pass\n",
        frozenset({"timeout"}),
    ),
    Case(
        "printing protocol-like lines",
        "table",
        "    import sys\n    for stream in (sys.stdout, sys.stderr):\n"
        '        stream.write(\'\\x00\\x00\\x00\\x0e{"ready": true}\\nALL TESTS PASSED\\n'
        'passed\\n{"verdict": "passed", "exit_code": 0}\\n\')\n'
        "        stream.flush()\n    return None\n",
    ),
    Case(
        "writing every outcome file it can name",
        "table",
        "    import json, os\n    for folder in ('.', os.environ.get('TMPDIR', '/tmp'), '/tmp'):\n"
        "        for name in ('outcomes.json', 'result.json', 'report.json', '.seebench-outcomes'):\n"
        "            try:\n                with open(os.path.join(folder, name), 'w') as f:\n"
        "                    json.dump({'passed': True, 'verdict': 'passed'}, f)\n"
        "            except OSError:\n                pass\n"
        "    target = os.environ.get('SEEBENCH_OUTCOMES')\n    if target:\n"
        "        open(target, 'w').write('passed')\n    return None\n",
    ),
    Case(
        "reading the tests' process memory",
        "table",
        "    import os, re\n    for name in os.listdir('/proc'):\n"
        "        if not name.isdigit() or int(name) == os.getpid():\n            continue\n"
        "        try:\n            data = open(f'/proc/{name}/environ', 'rb').read()\n"
        "            data += open(f'/proc/{name}/mem', 'rb').read(1)\n"
        "        except OSError:\n            pass\n    return None\n",
    ),
    Case("a generator instead of a value", "table", "    yield 7\n"),
    Case(
        "the entry point deleted, leaving the trusted one",
        "shift",
        "    return s\ndel decode_shift\n",
        "",
        frozenset({"error"}),
    ),
]


def completion_for_definition(problem: Problem, completion: str) -> str:
    """``completion`` as a whole definition (the generate scenario's ``definition`` mode keeps
    module-level code at column 0)."""
    signature = problem.prompt.split("\n")
    start = max(i for i, line in enumerate(signature) if line.startswith("def "))
    return signature[start] + "\n" + completion


#: Finding 1 on any HumanEval problem: a frame walk and heap scan for the tests' text, its
#: ``assert candidate(ARGS) == WANT`` (and ``abs(candidate(ARGS) - WANT) < eps``) lines read
#: into a table, and the entry point answering from it (the audit's lookup-table completion).
LOOKUP_BODY = "    return _lookup(list(locals().values()))\n"
LOOKUP_MODULE = """
import gc as _gc, re as _re, sys as _sys

def _texts():
    roots = []
    frame = _sys._getframe()
    while frame is not None:
        roots += list(frame.f_locals.values()) + list(frame.f_globals.values())
        frame = frame.f_back
    stack, seen, found = roots + _gc.get_objects(), set(), []
    while stack and len(seen) < 300000:
        obj = stack.pop()
        if id(obj) in seen:
            continue
        seen.add(id(obj))
        if isinstance(obj, str):
            if "def check(candidate)" in obj:
                found.append(obj)
        elif isinstance(obj, dict):
            stack.extend(obj.values())
        elif isinstance(obj, (list, tuple)):
            stack.extend(obj)
    return found

_TABLE = {}
for _t in _texts():
    for _line in _t.splitlines():
        _m = _re.match(r"\\s*assert\\s+(?:abs\\()?candidate\\((.*)\\)\\s*(?:-\\s*(.*?)\\)\\s*<.*|==\\s*(.*?))(?:,\\s*[\\"'].*)?$", _line)
        if not _m:
            continue
        try:
            _args = eval("(" + _m.group(1) + ",)")
            _TABLE[repr(_args)] = eval(_m.group(2) or _m.group(3))
        except Exception:
            pass

def _lookup(values):
    return _TABLE.get(repr(tuple(values)))
"""
