"""Memory of ``seebench study serve`` receiving a 600 MB request body (issue 26, item 9).

Starts the server on 127.0.0.1 with a one-condition study (no model), sends a 600 MiB body to
``/api/events`` twice (chunked, then with a declared Content-Length), and prints the answer
and the server's resident memory (VmRSS, and its peak VmHWM) before and after. The body must
be refused with 413 and the peak must stay near the starting size.

    python benchmarks/study_body_limit.py          # needs seebench-study installed
"""

from __future__ import annotations

import os
import socket
import tempfile
import time
from pathlib import Path

MIB = 1 << 20


def memory_mb(pid: int) -> dict[str, int]:
    """VmRSS and VmHWM of ``pid`` in MB (Linux)."""
    found = {}
    with open(f"/proc/{pid}/status", encoding="ascii") as status:
        for line in status:
            if line.startswith(("VmHWM", "VmRSS")):
                found[line.split(":")[0]] = int(line.split()[1]) // 1024
    return found


def send(port: int, size: int, chunked: bool) -> tuple[str, int]:
    """POST ``size`` bytes; the status line and how many MiB went out before it came."""
    chunk, sent = b" " * MIB, 0
    head = b"Transfer-Encoding: chunked\r\n" if chunked else b"Content-Length: %d\r\n" % size
    with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
        sock.sendall(b"POST /api/events HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n")
        sock.sendall(head + b"\r\n")
        try:
            while sent < size:
                sock.sendall(b"%x\r\n%s\r\n" % (len(chunk), chunk) if chunked else chunk)
                sent += len(chunk)
        except OSError:
            pass  # the server closed the connection after answering
        status = sock.recv(100).split(b"\r\n")[0].decode()
    return status, sent // MIB


def main() -> int:
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mib", type=int, default=600, help="body size in MiB (default 600)")
    size = parser.parse_args().mib
    from seebench_study.loadtest import Server, free_port, write_load_study

    with tempfile.TemporaryDirectory(prefix="study-body-") as tmp:
        study = write_load_study(Path(tmp))
        port = free_port()
        server = Server(study, Path(tmp) / "db.sqlite", port, dict(os.environ))
        server.start()
        try:
            assert server.process is not None
            pid = server.process.pid
            print(f"server before: {memory_mb(pid)} MB")
            ok = True
            for chunked in (True, False):
                started = time.monotonic()
                status, sent = send(port, size * MIB, chunked)
                took = time.monotonic() - started
                print(
                    f"{'chunked' if chunked else 'declared'} {size} MiB: {status} after {took:.2f} s "
                    f"({sent} MiB written by the client); server now {memory_mb(pid)} MB"
                )
                ok = ok and " 413 " in status
        finally:
            server.stop()
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
