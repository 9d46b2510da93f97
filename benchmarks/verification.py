"""What trusting nothing costs: verifying cached data files and result files.

    .venv/bin/python benchmarks/verification.py [--mb 200] [--samples 20000] [--repeat 20]

(a) data cache: ``cached_file`` on a file of --mb MiB, three ways: the first read (sha256 of
    the whole file), later reads in the same process (remembered by size + mtime), and the
    first read of a new process (the stamp file beside it answers). Reference: one plain
    ``sha256_file`` of the same file, i.e. what verifying on every read would cost without the
    stamp.
(b) results: ``verify_result`` on a result whose samples file has --samples lines (JSON
    parse + sha256), against a reference of just ``json.loads`` of the result (what the
    runner did before: trust it).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path


def _median_s(func, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        func()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def bench_cache(root: Path, mib: int, repeat: int) -> None:
    os.environ["SEEBENCH_HOME"] = str(root / "home")
    from seebench.data import cache

    source = root / "big.bin"
    with open(source, "wb") as handle:
        for _ in range(mib):
            handle.write(os.urandom(1 << 20))
    digest = cache.sha256_file(source)
    cache.store_file(source, digest)
    start = time.perf_counter()
    assert cache.cached_file(digest) is not None
    first = time.perf_counter() - start
    memo = _median_s(lambda: cache.cached_file(digest), repeat)

    def new_process():
        cache._verified.clear()
        cache.cached_file(digest)

    stamp = _median_s(new_process, repeat)
    reference = _median_s(lambda: cache.sha256_file(source), 3)
    print(
        f"(a) cache, {mib} MiB: first read {first * 1e3:.1f} ms; same process {memo * 1e6:.0f} us; "
        f"new process (stamp) {stamp * 1e6:.0f} us; reference sha256 every read {reference * 1e3:.1f} ms; "
        f"ratio stamp/reference {stamp / reference:.5f}"
    )


def bench_results(root: Path, samples: int, repeat: int) -> None:
    from seebench.results.io import write_result, write_samples
    from seebench.results.verify import verify_result

    records = [
        {
            "id": f"s{i:06d}",
            "input_hash": f"{i:016x}",
            "prediction": "bug",
            "gold": "bug",
            "score": 1.0,
            "raw": "The answer is: bug. " * 5,
        }
        for i in range(samples)
    ]
    folder = root / "out" / "m" / "x"  # <model>/<method>/: where a result is trusted
    digest = write_samples(folder / "t.samples.jsonl", records)
    result = {
        "schema_version": 1,
        "status": "ok",
        "reason": None,
        "seebench_version": "0",
        "created_at": "2026-01-01T00:00:00+00:00",
        "model": {"spec": "m", "id": "m", "kind": "k", "identity": {}},
        "method": "x",
        "task": {"name": "t", "suite": "s", "version": "1", "type": "binary", "config_hash": "h"},
        "run": {"seed": 1, "config": {}, "config_hash": "h"},
        "data": {},
        "metrics": {"f1": 1.0},
        "primary_metric": "f1",
        "n": samples,
        "timings": {},
        "environment": {"python": "3", "packages": {}},
        "samples_file": "t.samples.jsonl",
        "samples_sha256": digest,
    }
    write_result(folder / "t.json", result)
    assert verify_result(folder / "t.json").problem is None
    checked = _median_s(lambda: verify_result(folder / "t.json", expected_hash="h"), repeat)
    trusted = _median_s(lambda: json.loads((folder / "t.json").read_text()), repeat)
    print(
        f"(b) results, {samples} samples: verify_result {checked * 1e3:.1f} ms; reference json.loads of the "
        f"result {trusted * 1e3:.2f} ms; ratio {checked / trusted:.0f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=int, default=200)
    parser.add_argument("--samples", type=int, default=20_000)
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        bench_cache(Path(tmp), args.mb, args.repeat)
        bench_results(Path(tmp), args.samples, args.repeat)
    sys.exit(0)


if __name__ == "__main__":
    main()
