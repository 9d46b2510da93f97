"""Benchmark: ``seebench view`` on a results folder with a 100,000-sample unit.

Generates (once, in ``--dir``) a results folder holding one unit of 100,000 samples (each
with an input, a raw reply, a parsed answer and a scorer's explanation; about 60 MB of JSONL)
and one sample whose artifact is a 10 MB log, plus a second model on the same task. Then starts
``seebench view`` as its own process on 127.0.0.1 and times over HTTP:

- start-up with no index (the index is built) and with the cached index (it is verified);
- the first page of the big unit, 20 random pages, a text search (its first page, page 3, and
  another query's first page) and a filter;
- the sample with the 10 MB artifact (the page must not carry the artifact) and the artifact;
- a compare page of the two models (pairing 100,000 items);
- the leaderboard (both models on the big task and two 1,000-sample ones: compare's defaults),
  its first request and a second one;
- the server's resident memory (peak and current, from ``/proc``).

Goal (issue 30): first page < 1 s and any page < 300 ms on the 100,000-sample unit.

Usage::

    python benchmarks/view.py [--dir /tmp/seebench-view-bench] [--samples 100000]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
WORDS = [
    "build",
    "fails",
    "when",
    "saving",
    "loading",
    "parsing",
    "the",
    "config",
    "file",
    "after",
    "upgrade",
    "cache",
]


def records(n: int, seed: int, accuracy: float):
    rng = random.Random(seed)
    gold_rng = random.Random(7)
    labels = ("bug", "feature", "question", "docs")
    for i in range(n):
        gold = gold_rng.choice(labels)
        right = rng.random() < accuracy
        prediction = gold if right else rng.choice([x for x in labels if x != gold])
        text = " ".join(gold_rng.choice(WORDS) for _ in range(40))
        if i % 997 == 0:
            text += " segfault"
        record = {
            "id": f"issue-{i:06d}",
            "input_hash": f"{i:016x}",
            "input": f"Issue #{i}: {text}",
            "prediction": prediction,
            "gold": gold,
            "score": 1.0 if right else 0.0,
            "raw": f"The issue describes a {prediction}. Answer: {prediction}",
            "scores": {
                "sample_score": {
                    "value": 1.0 if right else 0.0,
                    "explanation": None if right else f"expected {gold}, got {prediction}",
                }
            },
        }
        if i == 4242:
            record["artifacts"] = "logs/big.log"
        yield record


#: two more tasks of both models, so that the leaderboard (2 models x 3 tasks) exists
SMALL_TASKS = ("sentiment", "review_type")
SMALL_SAMPLES = 1_000


def generate(folder: Path, n: int) -> None:
    from seebench.view.synthetic import write_unit

    marker = folder / f".generated-{n}-lb"
    if marker.exists():
        return
    big = ("x" * 99 + "\n") * (10 * 1024 * 1024 // 100)
    for model, accuracy in (("model-a", 0.8), ("model-b", 0.7)):
        write_unit(
            folder,
            model,
            "zero-shot",
            "issue_type",
            records(n, seed=len(model) + int(accuracy * 10), accuracy=accuracy),
            artifacts={"logs/big.log": big},
        )
        for task in SMALL_TASKS:  # a leaderboard needs three tasks
            write_unit(
                folder,
                model,
                "zero-shot",
                task,
                records(SMALL_SAMPLES, seed=len(task) + len(model), accuracy=accuracy),
            )
    marker.write_text("ok")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def get(url: str) -> tuple[float, bytes]:
    start = time.perf_counter()
    with urllib.request.urlopen(url, timeout=60) as response:
        body = response.read()
    return time.perf_counter() - start, body


def start_server(folder: Path) -> tuple[subprocess.Popen, str, float]:
    port = free_port()
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    start = time.perf_counter()
    process = subprocess.Popen(
        [sys.executable, "-m", "seebench.cli.main", "view", str(folder), "--port", str(port)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        try:
            get(f"{base}/index.html")
            return process, base, time.perf_counter() - start
        except OSError:
            if process.poll() is not None:
                raise SystemExit("the server exited") from None
            time.sleep(0.1)
    process.kill()
    raise SystemExit("the server did not start in 300 s")


def memory_mb(pid: int) -> tuple[float, float]:
    fields = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        fields[key] = value.strip()
    return int(fields["VmHWM"].split()[0]) / 1024, int(fields["VmRSS"].split()[0]) / 1024


def uid_of(base: str, model: str) -> str:
    _, body = get(f"{base}/index.html")
    text = body.decode()
    marker = f'data-model="{model}" data-status="ok" data-uid="'
    start = text.index(marker) + len(marker)
    return text[start : text.index('"', start)]


def leaderboard_polls(base: str) -> tuple[list[float], float, bytes]:
    """Request the leaderboard until it is computed (it reloads itself meanwhile): the time of
    each request, the seconds waited, the final page."""
    polls, started = [], time.perf_counter()
    while True:
        seconds, body = get(f"{base}/leaderboard.html")
        polls.append(seconds)
        if b'id="leaderboard-computing"' not in body or time.perf_counter() - started > 600:
            return polls, time.perf_counter() - started, body
        time.sleep(0.5)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--dir", type=Path, default=Path("/tmp/seebench-view-bench"))
    parser.add_argument("--samples", type=int, default=100_000)
    args = parser.parse_args()
    folder = args.dir / "results"
    t0 = time.perf_counter()
    generate(folder, args.samples)
    samples = folder / "model-a" / "zero-shot" / "issue_type.samples.jsonl"
    print(
        f"results: {folder} ({samples.stat().st_size / 1e6:.1f} MB of samples per unit, "
        f"generated or found in {time.perf_counter() - t0:.1f} s)"
    )
    for cached in folder.glob("*/*/.*.view-index.npz"):
        cached.unlink()
    rng = random.Random(0)
    figures: dict[str, float] = {}
    for label in ("cold (index built)", "warm (cached index verified)"):
        process, base, startup = start_server(folder)
        try:
            uid = uid_of(base, "model-a")
            other = uid_of(base, "model-b")
            first, body = get(f"{base}/unit/{uid}/page-1.html")
            pages = args.samples // 20
            randoms = [
                get(f"{base}/unit/{uid}/page-{rng.randint(2, pages)}.html")[0] for _ in range(20)
            ]
            search, body = get(f"{base}/unit/{uid}/page-1.html?q=segfault")
            count = body.decode().split('id="match-count">')[1].split("<")[0]
            search2, _ = get(f"{base}/unit/{uid}/page-3.html?q=segfault")
            search3, _ = get(f"{base}/unit/{uid}/page-1.html?q=Issue%20%2342")  # a new query
            wrong, _ = get(f"{base}/unit/{uid}/page-{rng.randint(2, 900)}.html?wrong=1&label=bug")
            big_page, big_body = get(f"{base}/unit/{uid}/sample-4242.html")
            artifact, artifact_body = get(f"{base}/unit/{uid}/artifact.txt?path=logs/big.log")
            compare, _ = get(f"{base}/compare/{uid}/{other}/page-1.html")
            compare2, _ = get(f"{base}/compare/{uid}/{other}/page-40.html")
            polls, waited, board_body = leaderboard_polls(base)
            board2, _ = get(f"{base}/leaderboard.html")
            ranked = board_body.count(b'<tr><td class="num">')
            peak, current = memory_mb(process.pid)
        finally:
            process.terminate()
            process.wait(timeout=30)
        print(f"\n{label}: server up and runs table served in {startup:.2f} s")
        print(f"  first page of the {args.samples:,}-sample unit: {first * 1000:.0f} ms")
        print(
            f"  20 random pages: median {statistics.median(randoms) * 1000:.0f} ms, "
            f"max {max(randoms) * 1000:.0f} ms"
        )
        print(
            f"  search 'segfault' ({count}): first page {search * 1000:.0f} ms, "
            f"page 3 {search2 * 1000:.0f} ms; another query's first page {search3 * 1000:.0f} ms"
        )
        print(f"  filter wrong + label, a random page: {wrong * 1000:.0f} ms")
        print(
            f"  sample with a 10 MB artifact: page {big_page * 1000:.0f} ms "
            f"({len(big_body) / 1024:.0f} KB, artifact not inlined); the artifact itself "
            f"{artifact * 1000:.0f} ms ({len(artifact_body) / 1e6:.1f} MB)"
        )
        print(
            f"  compare two models (pairing {args.samples:,} items): first page "
            f"{compare * 1000:.0f} ms, page 40 {compare2 * 1000:.0f} ms"
        )
        print(
            f"  leaderboard ({ranked} models ranked, compare's defaults, computed in the "
            f"background from start-up): {len(polls)} request(s), the last one ready after "
            f"{waited:.1f} s of waiting; slowest request {max(polls) * 1000:.0f} ms, "
            f"ready page {polls[-1] * 1000:.0f} ms, again {board2 * 1000:.0f} ms"
        )
        print(f"  server memory: peak {peak:.0f} MB, now {current:.0f} MB")
        figures[label] = max([first, *randoms, search, search3, *polls, board2])
    print(json.dumps({"slowest_unit_page_s": figures}, indent=1))


if __name__ == "__main__":
    main()
