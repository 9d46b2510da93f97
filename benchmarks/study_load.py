"""Load and crash test of the study server (``seebench study serve``) on 127.0.0.1.

Simulated participants (default 50) create telemetry events and send them concurrently for a
bounded time, re-sending some already acknowledged ones; the server is killed with SIGKILL
mid-load and restarted on the same database. Prints events sent, acknowledged, stored, lost
(acknowledged but not stored: must be 0) and duplicated (must be 0). Then a burst without
pauses or kills measures the events per second the server stores (HTTP, validation, one
committed transaction per request) against the store's own rate with the same batch size,
measured in the same run (the reference).

    python benchmarks/study_load.py                       # 50 participants, 20 s, 2 kills
    python benchmarks/study_load.py --participants 3 --seconds 1.5 --burst-seconds 1  # smoke

Last, ``--chat-parallel`` (default 4) chat messages are sent at once to a chat condition whose
stand-in model takes ``--chat-delay`` (default 3) seconds per reply, and each latency printed.

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
    parser.add_argument("--burst-seconds", type=float, default=5.0)
    parser.add_argument(
        "--chat-parallel", type=int, default=4, help="chat messages sent at once (0: skip)"
    )
    parser.add_argument(
        "--chat-delay", type=float, default=3.0, help="seconds the stand-in model takes"
    )
    args = parser.parse_args(argv)
    try:
        import httpx  # noqa: F401
        import starlette  # noqa: F401
        import uvicorn  # noqa: F401
    except ImportError as exc:
        print(f"needs the study extra: {exc.name} is missing")
        return 1
    from seebench_study.loadtest import chat_latency, direct_store_rate, run_load

    with tempfile.TemporaryDirectory(prefix="study-load-") as tmp:
        folder = Path(tmp)
        report = run_load(
            folder,
            participants=args.participants,
            seconds=args.seconds,
            kills=args.kills,
            interval_s=args.interval,
            drain_s=60.0,
        )
        burst = run_load(
            folder / "burst",
            participants=args.participants,
            seconds=args.burst_seconds,
            kills=0,
            interval_s=0.0,
        )
        batch = max(1, round(burst.sent / max(1, burst.posts)))
        reference = direct_store_rate(folder, batch=batch)
        latencies = (
            chat_latency(folder / "chat", parallel=args.chat_parallel, delay_s=args.chat_delay)
            if args.chat_parallel > 0
            else []
        )
    print("crash test:")
    for line in report.lines():
        print(f"  {line}")
    for error in report.errors + burst.errors:
        print(f"error: {error}")
    served = burst.stored / burst.send_seconds if burst.send_seconds else 0.0
    print(
        f"burst: {burst.stored} events in {burst.send_seconds:.1f} s, lost {burst.lost}, "
        f"duplicated {burst.duplicated}"
    )
    print(f"stored events/s through the server: {served:.0f}")
    print(f"stored events/s by the store directly, batches of {batch} (reference): {reference:.0f}")
    print(f"ratio server / direct: {served / reference:.3f}")
    if latencies:
        print(
            f"chat: {len(latencies)} messages at once, stand-in model {args.chat_delay:g} s each: "
            + ", ".join(f"{t:.2f}" for t in latencies)
            + " s"
        )
    ok = all(
        r.sent > 0 and r.lost == 0 and r.duplicated == 0 and r.unacked == 0 for r in (report, burst)
    )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
