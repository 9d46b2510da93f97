"""Load and crash test of the study server (``seebench study serve``) on 127.0.0.1.

Simulated participants (default 50) create telemetry events and send them concurrently for a
bounded time, re-sending some already acknowledged ones; the server is killed with SIGKILL
mid-load and restarted on the same database. Prints events sent, acknowledged, stored, lost
(acknowledged but not stored: must be 0) and duplicated (must be 0), and the server's stored
events per second against the store's direct rate measured in the same run (the reference).

    python benchmarks/study_load.py                       # 50 participants, 20 s, 2 kills
    python benchmarks/study_load.py --participants 5 --seconds 2 --kills 1   # a smoke run

Exits 1 when an event is lost or duplicated.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--participants", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--kills", type=int, default=2)
    parser.add_argument("--interval", type=float, default=0.2, help="seconds between sends")
    args = parser.parse_args(argv)
    try:
        import httpx  # noqa: F401
        import starlette  # noqa: F401
        import uvicorn  # noqa: F401
    except ImportError as exc:
        print(f"needs the study extra: {exc.name} is missing")
        return 1
    from seebench.suites.study.loadtest import direct_store_rate, run_load

    with tempfile.TemporaryDirectory(prefix="study-load-") as tmp:
        folder = Path(tmp)
        report = run_load(
            folder,
            participants=args.participants,
            seconds=args.seconds,
            kills=args.kills,
            interval_s=args.interval,
        )
        reference = direct_store_rate(folder)
    for line in report.lines():
        print(line)
    for error in report.errors:
        print(f"error: {error}")
    served = report.stored / report.seconds if report.seconds else 0.0
    print(f"stored events/s through the server (kills included): {served:.0f}")
    print(f"stored events/s by the store directly (reference): {reference:.0f}")
    print(f"ratio server / direct: {served / reference:.3f}")
    return 0 if report.lost == 0 and report.duplicated == 0 and report.unacked == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
