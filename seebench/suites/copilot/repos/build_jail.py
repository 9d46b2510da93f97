"""Where environment builds run: a bubblewrap jail WITH network (PyPI, npm) and a narrow view.

Installing a repository's dependencies runs code from the registries (``setup.py``, build
backends; npm install scripts are off, see :mod:`.node_env`). The jail shows that code only
what a build needs, read-only (``/usr``, the base interpreter, a few files of ``/etc`` for
name resolution and certificates), plus, writable, the environment folder being built and the
shared download cache. It is the sandbox's ``build`` profile (:mod:`seebench.sandbox.bwrap`):
the same namespaces, uid 65534 (dropped to before the command runs where the host has no
user namespaces), no capabilities, no new user namespaces, a private ``/tmp``, but the
network kept (the build downloads). Test runs never use this profile: they run in the
``run`` profile with the network off.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from seebench.sandbox.bwrap import BUILD, build_argv, dropped, minimal_bwrap_env
from seebench.sandbox.mechanism import detect, find_bwrap

#: the files of ``/etc`` a build needs (resolver, certificates, users)
ETC_FILES = BUILD.etc_files
BUILD_PATH = "/usr/local/bin:/usr/bin:/bin"
#: host variables a build keeps: where the certificate authorities are (a TLS-inspecting
#: egress proxy may add its own) and the proxy itself
PASSED_VARIABLES = (
    "SSL_CERT_FILE",
    "SSL_CERT_DIR",
    "NODE_EXTRA_CA_CERTS",
    "REQUESTS_CA_BUNDLE",
    "PIP_CERT",
    "HTTP_PROXY",
    "HTTPS_PROXY",
    "NO_PROXY",
    "http_proxy",
    "https_proxy",
    "no_proxy",
)


@dataclass(frozen=True)
class BuildResult:
    """What one build command did: exit status, wall seconds, the tail of its output."""

    exit_code: int | None
    seconds: float
    output: str

    @property
    def ok(self) -> bool:
        return self.exit_code == 0


@cache
def _mechanism() -> str:
    return detect().name


def jail_available() -> str | None:
    """``None`` when a build jail can start, else the one-line reason."""
    if find_bwrap() is None:
        return "no bwrap found for the build jail (pip install 'seebench[sandbox]')"
    try:
        _mechanism()
    except Exception as error:  # SandboxUnavailable or a probe failure: say why
        return f"the build jail cannot start: {error}"
    return None


def _jail_argv(writable: Sequence[Path], readable: Sequence[Path], workdir: Path) -> list[str]:
    bwrap = find_bwrap()
    assert bwrap is not None
    return build_argv(bwrap, _mechanism(), writable=writable, readable=readable, workdir=workdir)


def run_build(
    command: Sequence[str],
    *,
    workdir: Path,
    writable: Sequence[Path],
    readable: Sequence[Path] = (),
    env: Mapping[str, str] | None = None,
    timeout_s: float = 900.0,
    output_lines: int = 60,
) -> BuildResult:
    """Run ``command`` in the build jail (network on) with ``writable`` folders bound
    read-write and ``readable`` ones read-only; the environment is ``env`` plus ``PATH``,
    ``HOME=/tmp``, ``LANG`` and the host's certificate and proxy variables. A command that overruns ``timeout_s`` is killed."""
    import time

    argv = _jail_argv(writable, readable, workdir)
    variables = {key: os.environ[key] for key in PASSED_VARIABLES if key in os.environ}
    variables |= {"PATH": BUILD_PATH, "HOME": "/tmp", "LANG": "C.UTF-8", **(env or {})}
    for key, value in variables.items():
        argv += ["--setenv", key, value]
    argv += ["--", *dropped(_mechanism(), command)]
    started = time.monotonic()
    try:
        done = subprocess.run(
            argv,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            errors="replace",
            timeout=timeout_s,
            env=minimal_bwrap_env(),
            check=False,
        )
    except subprocess.TimeoutExpired:
        return BuildResult(None, time.monotonic() - started, f"timed out after {timeout_s:.0f} s")
    text = (done.stdout or "") + (done.stderr or "")
    tail = "\n".join(text.splitlines()[-output_lines:])
    return BuildResult(done.returncode, time.monotonic() - started, tail)


def last_meaningful_line(output: str) -> str:
    """The installer's last line that says something (not blank, not a hint or a bar)."""
    skip = (
        "hint:",
        "note:",
        "help:",
        "npm notice",
        "npm warn",
        "npm error a complete log",
        "npm err! a complete log",
        "npm error log files were not written",
    )
    lines = [line.strip() for line in output.splitlines()]
    for line in reversed(lines):
        if line and not line.lower().startswith(skip) and set(line) - set("-=~^ "):
            return line[:300]
    return "no output"
