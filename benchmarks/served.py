"""Benchmark: the harness's own cost when the model is served elsewhere (issue 41).

A stand-in OpenAI-compatible server (this script with ``--serve``, a separate process on
127.0.0.1, aiohttp, any number of connections) answers every chat-completions request with
the gold answer of the item whose prompt it received, after ``--latencies`` seconds (0 and
0.5 by default). The same items (the test items of ``--tasks``, SELU tasks by default, the
first ``--limit`` of each) with the exact zero-shot prompts seebench builds are sent by:

- seebench: ``seebench eval --model openai:stand-in --method zero-shot -o base_url=...
  -o concurrency=C -o cache=false`` (everything else as a user leaves it: bootstrap, checks);
- lm-eval 0.4.13 (the ``bench`` extra), the reference: what a competent lm-eval user writes
  for a served chat model, ``lm_eval run --model local-chat-completions --model_args
  model=...,base_url=.../chat/completions,num_concurrent=C,tokenized_requests=False
  --apply_chat_template`` on a task exported as ``benchmarks/vs_lmeval.py`` exports it (the
  user message as ``doc_to_text``, the same answer length), ``--log_samples`` to read the
  replies back; its own request cache is off by default;
- inspect_ai, when ``--inspect-python`` names an interpreter that has it (install it beside,
  not in seebench's environment: ``python -m venv /tmp/inspect && /tmp/inspect/bin/pip
  install inspect-ai openai``, then ``--inspect-python /tmp/inspect/bin/python``): an
  ``inspect eval`` of the same items, ``--model openai-api/standin/stand-in
  --max-connections C``; skipped when absent;
- a minimal client, the floor of what any client can do against this stand-in: this script
  with ``--minimal-client``, a fresh process that imports aiohttp, reads the items and keeps
  C requests in flight from one ``asyncio`` loop (C tasks over one ``ClientSession``), no
  checks, no cache, no results written beyond the replies. What it loses to the limit is the
  stand-in's own cost (the server's CPU per request, serialised when a wave of C answers falls
  due together) and Python's start, so seebench's share is also printed as a share of the
  minimal client's.

Each tool runs as a fresh process, ``--rounds`` times in rotated order, at each latency.
Printed per tool and latency (medians): items/s (items over the whole process's wall time),
CPU seconds per 1,000 items (the process and its children, user + system), the share of the
concurrency limit (items/s over C / latency; and the server's mean requests in flight over C
while requests came), start-up (process start to the server's first request), and whether
every reply came back to its item (answers checked: the reply each tool recorded for an item
is that item's gold answer); then the ratios seebench / lm-eval. Report the load average
printed beside the figures.

Usage::

    SEEBENCH_HOME=... python benchmarks/served.py [--tasks functional_requirement,...]
        [--limit N] [--rounds 3] [--concurrency 32] [--latencies 0,0.5] [--tools ...]
        [--inspect-python PATH] [--timeout 900] [--work DIR] [--json OUT.json]
        [--loop-requests N]   (first: seebench's request loop alone, in this process)

The tasks' data must be in the cache (``seebench data import ../shared/data``).
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.util
import json
import os
import resource
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

DEFAULT_TASKS = "functional_requirement,quality_requirement,sentiment,comment_type_python"
MODEL = "stand-in"


def _key(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


# -- the stand-in server (a process of its own) ------------------------------------------------


def serve(answers_file: Path, latency: float, port_file: Path) -> None:
    """Answer chat completions with the answer recorded for the last user message."""
    import asyncio

    from aiohttp import web

    answers: dict[str, str] = json.loads(answers_file.read_text())
    stats: dict[str, Any] = {}

    def reset() -> None:
        stats.update(
            requests=0, unknown=0, first=None, last=None, in_flight=0, peak=0, area=0.0, mark=0.0
        )

    def account(change: int) -> None:
        now = time.time()
        if stats["in_flight"]:
            stats["area"] += stats["in_flight"] * (now - stats["mark"])
        stats["mark"] = now
        stats["in_flight"] += change
        stats["peak"] = max(stats["peak"], stats["in_flight"])

    async def complete(request: web.Request) -> web.Response:
        body = await request.json()
        now = time.time()
        stats["requests"] += 1
        stats["first"] = stats["first"] or now
        account(+1)
        user = [m["content"] for m in body["messages"] if m.get("role") == "user"][-1]
        answer = answers.get(_key(user))
        if answer is None:
            stats["unknown"] += 1
            answer = ""
        if latency:
            await asyncio.sleep(latency)
        account(-1)
        stats["last"] = time.time()
        return web.json_response(
            {
                "id": "chatcmpl-stand-in",
                "object": "chat.completion",
                "created": int(now),
                "model": body.get("model", MODEL),
                "choices": [
                    {
                        "index": 0,
                        "finish_reason": "stop",
                        "message": {"role": "assistant", "content": answer},
                    }
                ],
                "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
            }
        )

    async def read_stats(request: web.Request) -> web.Response:
        return web.json_response(stats)

    async def do_reset(request: web.Request) -> web.Response:
        reset()
        return web.json_response({})

    async def main() -> None:
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.add_routes(
            [
                web.post("/v1/chat/completions", complete),
                web.get("/stats", read_stats),
                web.post("/reset", do_reset),
            ]
        )
        runner = web.AppRunner(app, access_log=None)
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", 0, backlog=1024)
        await site.start()
        port = runner.addresses[0][1]
        port_file.write_text(str(port))
        await asyncio.Event().wait()  # until terminated

    reset()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    asyncio.run(main())


class StandIn:
    """The stand-in server as a child process: ``base_url``, :meth:`stats`, :meth:`reset`."""

    def __init__(self, answers_file: Path, latency: float, work: Path) -> None:
        port_file = work / f"port-{latency}"
        port_file.unlink(missing_ok=True)
        command = [sys.executable, __file__, "--serve", str(answers_file), str(latency)]
        self.process = subprocess.Popen([*command, str(port_file)])
        deadline = time.monotonic() + 60
        while not port_file.exists() or not port_file.read_text():
            if self.process.poll() is not None or time.monotonic() > deadline:
                self.stop()
                raise SystemExit("the stand-in server did not start")
            time.sleep(0.05)
        self.root = f"http://127.0.0.1:{port_file.read_text()}"
        self.base_url = f"{self.root}/v1"

    def _call(self, method: str, path: str) -> dict[str, Any]:
        import urllib.request

        request = urllib.request.Request(
            self.root + path, method=method, data=b"" if method == "POST" else None
        )
        with urllib.request.urlopen(request, timeout=30) as reply:
            return json.loads(reply.read())

    def stats(self) -> dict[str, Any]:
        return self._call("GET", "/stats")

    def reset(self) -> None:
        self._call("POST", "/reset")

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


# -- items and tools -----------------------------------------------------------------------


def load_items(tasks: list[str], limit: int | None) -> dict[str, dict[str, Any]]:
    """Per task: its items (``id``, ``user`` message, gold ``target`` text) and answer length."""
    from seebench.data.dataset import load_task_data
    from seebench.methods.prompting.method import build_prompts
    from seebench.models.template import format_target, max_new_tokens
    from seebench.plugin_manager import get_registry, get_task_index

    registry, index = get_registry(), get_task_index()
    loaded = {}
    for name in tasks:
        task = index.get(name)
        data = load_task_data(task, registry, seed=42, limit=limit)
        prompts = build_prompts(task, data, 0, seed=42)
        if any(m["role"] != "user" for p in prompts for m in p.messages):
            raise SystemExit(f"task {name!r} has a system message; the export sends user-only")
        items = [
            {"id": s.id, "user": p.messages[-1]["content"], "target": format_target(task, s.target)}
            for s, p in zip(data.test, prompts, strict=True)
        ]  # ids are unique within a task only: two SELU tasks share a data set
        loaded[name] = {"items": items, "max_new_tokens": max_new_tokens(task)}
    return loaded


def _vs_lmeval() -> Any:
    """``benchmarks/vs_lmeval.py`` (its lm-eval export, reply readers and rotation)."""
    spec = importlib.util.spec_from_file_location(
        "vs_lmeval", Path(__file__).with_name("vs_lmeval.py")
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    return module


def seebench_command(tasks: list[str], args: argparse.Namespace, url: str, out: Path) -> list[str]:
    command = [sys.executable, "-m", "seebench.cli.main", "eval", "--model", f"openai:{MODEL}"]
    command += ["--tasks", ",".join(tasks), "--method", "zero-shot", "--output", str(out)]
    command += ["--force", "--no-progress", "-o", f"base_url={url}"]
    command += ["-o", f"concurrency={args.concurrency}", "-o", "cache=false"]
    return command + (["--limit", str(args.limit)] if args.limit else [])


def seebench_replies(tasks: list[str], out: Path) -> dict[str, dict[str, Any]]:
    from seebench.results.io import result_paths

    vs = _vs_lmeval()
    return {
        t: vs.read_seebench_replies(result_paths(out, f"openai-{MODEL}", "zero-shot", t)[1])
        for t in tasks
    }


def lmeval_command(
    lm_tasks: list[str], args: argparse.Namespace, url: str, out: Path, work: Path
) -> list[str]:
    model_args = (
        f"model={MODEL},base_url={url}/chat/completions,num_concurrent={args.concurrency},"
        "max_retries=3,tokenized_requests=False"
    )
    return [
        sys.executable, "-m", "lm_eval", "run", "--model", "local-chat-completions",
        "--model_args", model_args, "--tasks", ",".join(lm_tasks),
        "--include_path", str(work / "lmeval_tasks"), "--apply_chat_template",
        "--output_path", str(out), "--log_samples",
    ]  # fmt: skip


INSPECT_TASK = """
import json
from pathlib import Path

from inspect_ai import Task, task
from inspect_ai.dataset import Sample
from inspect_ai.scorer import exact
from inspect_ai.solver import generate


@task
def served(items: str, max_tokens: int = 16):
    rows = [json.loads(line) for line in Path(items).read_text().splitlines()]
    samples = [Sample(input=r["user"], target=r["target"], id=r["key"]) for r in rows]
    return Task(dataset=samples, solver=generate(max_tokens=max_tokens), scorer=exact())
"""


def inspect_command(
    python: str, items: Path, args: argparse.Namespace, out: Path, work: Path, tokens: int
) -> list[str]:
    script = work / "inspect_served.py"
    script.write_text(INSPECT_TASK)
    inspect = [python, "-m", "inspect_ai", "eval", f"{script}@served", "-T", f"items={items}"]
    inspect += ["-T", f"max_tokens={tokens}", "--model", f"openai-api/standin/{MODEL}"]
    inspect += ["--max-connections", str(args.concurrency), "--log-dir", str(out)]
    return inspect + ["--log-format", "json", "--no-log-images", "--display", "none"]


def inspect_replies(out: Path) -> dict[str, str]:
    replies: dict[str, str] = {}
    for log in sorted(out.rglob("*.json")):
        for sample in json.loads(log.read_text()).get("samples") or []:
            choices = (sample.get("output") or {}).get("choices") or [{}]
            content = (choices[0].get("message") or {}).get("content")
            if isinstance(content, list):
                content = "".join(
                    part.get("text", "") for part in content if isinstance(part, dict)
                )
            replies[str(sample["id"])] = str(content or "").strip()
    return replies


MINIMAL_CLIENT = "minimal"


def minimal_command(items: Path, url: str, concurrency: int, out: Path) -> list[str]:
    command = [sys.executable, __file__, "--minimal-client", str(items), url, str(concurrency)]
    return command + [str(out)]


def minimal_client(items_file: Path, url: str, concurrency: int, out: Path) -> None:
    """The minimal client: every item's user message, ``concurrency`` in flight, replies kept."""
    import asyncio

    import aiohttp

    rows = [json.loads(line) for line in items_file.read_text().splitlines()]
    replies: dict[str, str] = {}

    async def main() -> None:
        queue = iter(rows)
        connector = aiohttp.TCPConnector(limit=concurrency)
        async with aiohttp.ClientSession(connector=connector) as session:

            async def worker() -> None:
                for row in queue:
                    body = {
                        "model": MODEL,
                        "messages": [{"role": "user", "content": row["user"]}],
                        "max_tokens": row["max_new_tokens"],
                        "temperature": 0,
                    }
                    async with session.post(f"{url}/chat/completions", json=body) as response:
                        answer = await response.json()
                    replies[row["key"]] = answer["choices"][0]["message"]["content"]

            await asyncio.gather(*(worker() for _ in range(concurrency)))

    asyncio.run(main())
    out.write_text(json.dumps(replies))


def _has_inspect(python: str | None) -> bool:
    if not python:
        return False
    probe = subprocess.run([python, "-c", "import inspect_ai"], capture_output=True)
    return probe.returncode == 0


# -- one timed run ---------------------------------------------------------------------------


def timed(command: list[str], env: dict[str, str], log: Path, timeout: float) -> dict[str, float]:
    """Run ``command``; its wall time, CPU time (with its children) and start time."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started, clock = time.time(), time.perf_counter()
    with log.open("w") as output:
        done = subprocess.run(
            command, env=env, stdout=output, stderr=subprocess.STDOUT, timeout=timeout
        )
    wall = time.perf_counter() - clock
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        tail = "\n".join(log.read_text(errors="replace").splitlines()[-15:])
        raise SystemExit(f"{command[2]} exited {done.returncode} (log {log}):\n{tail}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return {"wall_s": wall, "cpu_s": cpu, "started": started}


def checked(expected: dict[str, str], got: dict[str, Any]) -> int:
    """How many items' recorded reply is their gold answer."""
    return sum((got.get(i) or "").strip() == text for i, text in expected.items())


def one_run(tool: str, ctx: dict[str, Any], server: StandIn, tag: str) -> dict[str, Any]:
    args, work, env = ctx["args"], ctx["work"], ctx["env"]
    out = work / tag
    server.reset()
    if tool == "seebench":
        command = seebench_command(ctx["tasks"], args, server.base_url, out)
    elif tool == "lm-eval":
        command = lmeval_command(ctx["lm_tasks"], args, server.base_url, out, work)
    elif tool == MINIMAL_CLIENT:
        command = minimal_command(ctx["items_file"], server.base_url, args.concurrency, out)
    else:
        tokens = max(t["max_new_tokens"] for t in ctx["loaded"].values())
        command = inspect_command(args.inspect_python, ctx["items_file"], args, out, work, tokens)
    run = timed(command, env, work / f"{tag}.log", args.timeout)
    stats = server.stats()
    if tool == "seebench":
        replies = seebench_replies(ctx["tasks"], out)
        got = {f"{t}/{i}": r for t in ctx["tasks"] for i, r in replies[t].items()}
    elif tool == "lm-eval":
        vs = _vs_lmeval()
        got = {
            f"{t}/{i}": r
            for t, lm_task in zip(ctx["tasks"], ctx["lm_tasks"], strict=True)
            for i, r in vs.read_lmeval_replies(out, lm_task).items()
        }
    elif tool == MINIMAL_CLIENT:
        got = json.loads(out.read_text())
    else:
        got = inspect_replies(out)
    n = len(ctx["expected"])
    span = (stats["last"] or 0) - (stats["first"] or 0)
    return {
        "items_per_s": n / run["wall_s"],
        "cpu_per_1000": 1000 * run["cpu_s"] / n,
        "startup_s": (stats["first"] or run["started"]) - run["started"],
        "wall_s": run["wall_s"],
        "requests": stats["requests"],
        "unknown_prompts": stats["unknown"],
        "peak_in_flight": stats["peak"],
        "mean_in_flight": stats["area"] / span if span > 0 else 0.0,
        "right": checked(ctx["expected"], got),
    }


def loop_cost(
    server: StandIn, everything: list[dict[str, Any]], count: int, concurrency: int
) -> None:
    """seebench's request loop alone: ``count`` prompts through the openai backend's
    ``generate`` in this process (after a warm-up), its CPU per request."""
    from seebench.models.backends.openai import OpenAIBackend
    from seebench.models.chat import Prompt

    users = [item["user"] for item in everything]
    prompts = [
        Prompt(f"s{i}", ({"role": "user", "content": users[i % len(users)]},)) for i in range(count)
    ]
    backend = OpenAIBackend(
        MODEL, max_new_tokens=8, base_url=server.base_url, concurrency=concurrency
    )
    list(backend.generate(prompts[:concurrency]))  # connections open, imports done
    cpu, wall = time.process_time(), time.perf_counter()
    replies = list(backend.generate(prompts))
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    failed = sum(g.error is not None for _, g in replies)
    print(
        f"request loop alone: {count} requests, {concurrency} in flight, 0 ms: "
        f"{1000 * cpu / count:.3f} ms CPU per request, {count / wall:.0f} requests/s, "
        f"{failed} failed, load {os.getloadavg()[0]:.1f}",
        flush=True,
    )


# -- the report ------------------------------------------------------------------------------


def summary(runs: list[dict[str, Any]], latency: float, concurrency: int) -> dict[str, Any]:
    med = {k: statistics.median(r[k] for r in runs) for k in runs[0]}
    if latency > 0:
        med["share_of_limit"] = med["items_per_s"] / (concurrency / latency)
        med["share_in_flight"] = med["mean_in_flight"] / concurrency
    return med


def report(
    figures: dict[str, dict[str, Any]], latency: float, n: int, args: argparse.Namespace
) -> None:
    limit = f", limit {args.concurrency / latency:.0f} items/s" if latency else ""
    print(
        f"latency {latency * 1000:.0f} ms, {args.concurrency} in flight{limit}; {n} items, load {os.getloadavg()[0]:.1f}"
    )
    for tool, m in figures.items():
        share = ""
        if latency:
            share = (
                f", {m['share_of_limit']:.0%} of the limit (server: mean {m['share_in_flight']:.0%} "
                f"of it in flight, peak {m['peak_in_flight']:.0f})"
            )
        print(
            f"  {tool:10s} {m['items_per_s']:8.1f} items/s, {m['cpu_per_1000']:6.2f} CPU s / 1,000 items, "
            f"start-up {m['startup_s']:5.2f} s{share}; "
            f"answers right {m['right']:.0f}/{n}, requests {m['requests']:.0f}",
            flush=True,
        )
    ours, ref, floor = figures.get("seebench"), figures.get("lm-eval"), figures.get(MINIMAL_CLIENT)
    if ours and floor and latency:
        print(
            f"  seebench / minimal client: {ours['items_per_s'] / floor['items_per_s']:.1%} of its "
            f"items/s (the stand-in's own ceiling: the minimal client reaches "
            f"{floor['share_of_limit']:.1%} of the limit)",
            flush=True,
        )
    if ours and ref:
        print(
            f"  ratio seebench / lm-eval: items/s {ours['items_per_s'] / ref['items_per_s']:.2f}x, "
            f"CPU per item {ours['cpu_per_1000'] / ref['cpu_per_1000']:.2f}x, "
            f"start-up {ours['startup_s'] / max(ref['startup_s'], 1e-9):.2f}x",
            flush=True,
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--serve", nargs=3, metavar=("ANSWERS", "LATENCY", "PORT_FILE"), help=argparse.SUPPRESS
    )
    parser.add_argument("--tasks", default=DEFAULT_TASKS)
    parser.add_argument(
        "--limit", type=int, default=None, help="test items per task (default: all)"
    )
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--concurrency", type=int, default=32)
    parser.add_argument("--latencies", default="0,0.5", help="seconds, comma-separated")
    parser.add_argument(
        "--minimal-client", nargs=4, metavar=("ITEMS", "URL", "C", "OUT"), help=argparse.SUPPRESS
    )
    parser.add_argument("--tools", default=f"seebench,lm-eval,inspect_ai,{MINIMAL_CLIENT}")
    parser.add_argument("--inspect-python", help="an interpreter with inspect_ai installed")
    parser.add_argument("--timeout", type=float, default=900, help="seconds per process")
    parser.add_argument("--work", help="keep exports, logs and outputs here")
    parser.add_argument("--json", help="also write the figures to this file")
    parser.add_argument(
        "--loop-requests", type=int, default=0, help="first measure seebench's request loop alone"
    )
    args = parser.parse_args()
    if args.serve:
        answers, latency, port_file = args.serve
        serve(Path(answers), float(latency), Path(port_file))
        return
    if args.minimal_client:
        items, url, concurrency, out = args.minimal_client
        minimal_client(Path(items), url, int(concurrency), Path(out))
        return
    tools = [t for t in args.tools.split(",") if t]
    if "lm-eval" in tools and not all(importlib.util.find_spec(m) for m in ("lm_eval", "tenacity")):
        print("lm-eval[api] is not installed (pip install 'seebench[bench]'): skipped", flush=True)
        tools.remove("lm-eval")
    if "inspect_ai" in tools and not _has_inspect(args.inspect_python):
        print("inspect_ai: not installed beside (see --inspect-python): skipped", flush=True)
        tools.remove("inspect_ai")

    tasks = [t for t in args.tasks.split(",") if t]
    loaded = load_items(tasks, args.limit)
    work = Path(args.work or tempfile.mkdtemp(prefix="served-bench-"))
    work.mkdir(parents=True, exist_ok=True)
    everything = [
        {**item, "key": f"{name}/{item['id']}", "max_new_tokens": t["max_new_tokens"]}
        for name, t in loaded.items()
        for item in t["items"]
    ]
    answers = {_key(item["user"]): item["target"] for item in everything}
    (work / "answers.json").write_text(json.dumps(answers))
    items_file = work / "items.jsonl"
    items_file.write_text("".join(json.dumps(item) + "\n" for item in everything))
    vs = _vs_lmeval()
    lm_tasks = [
        vs.export_lmeval_task(
            work / "lmeval_tasks",
            name,
            t["items"],
            max_new_tokens=t["max_new_tokens"],
            stop=["\n\n"],
        )
        for name, t in loaded.items()
    ]
    env = {
        **os.environ,
        "OPENAI_API_KEY": "sk-benchmark-not-a-secret",
        "STANDIN_API_KEY": "sk-benchmark-not-a-secret",
        "HF_HUB_OFFLINE": "1",
        "HF_DATASETS_OFFLINE": "1",
        "HF_HOME": str(work / "hf-home"),
        "TOKENIZERS_PARALLELISM": "false",
    }
    ctx = {
        "args": args, "work": work, "env": env, "tasks": tasks, "lm_tasks": lm_tasks,
        "loaded": loaded, "items_file": items_file,
        "expected": {item["key"]: item["target"] for item in everything},
    }  # fmt: skip
    n = len(everything)
    print(
        f"{n} items of {', '.join(tasks)}; tools {', '.join(tools)}; {os.cpu_count()} CPUs; work {work}",
        flush=True,
    )
    if args.loop_requests:
        server = StandIn(work / "answers.json", 0.0, work)
        try:
            loop_cost(server, everything, args.loop_requests, args.concurrency)
        finally:
            server.stop()
    results: dict[str, Any] = {
        "items": n,
        "tasks": tasks,
        "concurrency": args.concurrency,
        "latencies": {},
    }
    for latency in [float(x) for x in args.latencies.split(",")]:
        server = StandIn(work / "answers.json", latency, work)
        env["STANDIN_BASE_URL"] = server.base_url
        runs: dict[str, list[dict[str, Any]]] = {tool: [] for tool in tools}
        try:
            for round_number in range(args.rounds):
                for tool in vs.rotated(tools, round_number):
                    run = one_run(tool, ctx, server, f"{tool}-{latency}-{round_number}")
                    runs[tool].append(run)
                    print(
                        f"  round {round_number + 1}, {latency * 1000:.0f} ms: {tool:10s} {run['wall_s']:7.1f} s, "
                        f"{run['items_per_s']:7.1f} items/s, load {os.getloadavg()[0]:.1f}",
                        flush=True,
                    )
        finally:
            server.stop()
        figures = {tool: summary(r, latency, args.concurrency) for tool, r in runs.items() if r}
        report(figures, latency, n, args)
        results["latencies"][str(latency)] = {
            "figures": figures,
            "runs": runs,
            "load": os.getloadavg(),
        }
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
