"""seebench prompting vs lm-evaluation-harness ``generate_until``: same model, items and prompts.

The task's test items (the first ``--limit``, as ``seebench eval --limit`` takes them) and the
exact zero-shot prompts seebench builds for them are exported to an lm-eval task directory
(a JSON-lines test split whose ``doc_to_text`` is seebench's user message, the chat template
applied by lm-eval, greedy, the same answer length, stopping at the model's end-of-sequence
tokens). Both tools then run as fresh processes on the same local model (smollm2, as seebench
converts it, unless ``--model-dir``) with the same batch size, ``--rounds`` times in rotated
order. Printed: the median whole-process wall time and items/s of each, the ratio, the F1 of
each (lm-eval's replies are read by seebench's answer parser and scored by the same metric),
and the share of identical replies (raw text and parsed answer).

Usage::

    SEEBENCH_HOME=... python benchmarks/vs_lmeval.py [--task functional_requirement]
        [--limit 48] [--rounds 3] [--batch-size 8] [--timeout 1800] [--model-dir DIR]
        [-o KEY=VALUE ...]   (extra seebench options, e.g. -o prefix_cache=false)

Needs the ``bench`` extra (``lm-eval``); installs nothing. Goal (issue 19): ratio >= 1.5 with
identical answers.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

LMEVAL_PREFIX = "seebench_"


def export_lmeval_task(
    directory: Path,
    task_name: str,
    items: list[dict[str, str]],
    *,
    max_new_tokens: int,
    stop: list[str],
) -> str:
    """Write an lm-eval task (YAML + JSON-lines test split) for ``items``; returns its name.

    Each item is ``{"id", "user", "target"}``: ``user`` is the exact user message seebench
    sends; lm-eval wraps it in the model's chat template (``--apply_chat_template``).
    """
    import yaml

    name = LMEVAL_PREFIX + task_name
    directory.mkdir(parents=True, exist_ok=True)
    split = directory / f"{name}.jsonl"
    split.write_text("".join(json.dumps(item, ensure_ascii=False) + "\n" for item in items))
    config = {
        "task": name,
        "dataset_path": "json",
        "dataset_kwargs": {"data_files": {"test": str(split.resolve())}},
        "test_split": "test",
        "output_type": "generate_until",
        "doc_to_text": "{{user}}",
        "doc_to_target": "{{target}}",
        "generation_kwargs": {
            "until": list(stop),
            "max_gen_toks": int(max_new_tokens),
            "do_sample": False,
            "temperature": 0.0,
        },
        "metric_list": [{"metric": "exact_match"}],
    }
    (directory / f"{name}.yaml").write_text(yaml.safe_dump(config, sort_keys=False))
    return name


def read_lmeval_replies(output: Path, lmeval_task: str) -> dict[str, str]:
    """Item id -> reply text, from lm-eval's ``--log_samples`` file under ``output``."""
    files = sorted(output.rglob(f"samples_{lmeval_task}_*.jsonl"))
    if not files:
        raise SystemExit(f"lm-eval wrote no samples_{lmeval_task}_*.jsonl under {output}")
    replies = {}
    for line in files[-1].read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        replies[str(record["doc"]["id"])] = str(record["resps"][0][0]).strip()
    return replies


def read_seebench_replies(samples_file: Path) -> dict[str, str | None]:
    """Item id -> raw reply, from a ``seebench eval`` samples file."""
    replies = {}
    for line in samples_file.read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        replies[str(record["id"])] = record.get("raw")
    return replies


def compare_replies(
    task: Any, golds: dict[str, Any], ours: dict[str, Any], theirs: dict[str, Any], metric: Any
) -> dict[str, float]:
    """F1 (the task's primary metric) of both, and the shares of identical raw/parsed replies."""
    from seebench.tasks.parsing import parse_answer

    ids = list(golds)
    parsed_ours = [parse_answer(task, ours.get(i)).value for i in ids]
    parsed_theirs = [parse_answer(task, theirs.get(i)).value for i in ids]
    gold = [golds[i] for i in ids]
    labels = task.label_names
    return {
        "metric_ours": float(metric(gold, parsed_ours, labels=labels)),
        "metric_theirs": float(metric(gold, parsed_theirs, labels=labels)),
        "same_raw": sum(ours.get(i) == theirs.get(i) for i in ids) / len(ids),
        "same_parsed": sum(a == b for a, b in zip(parsed_ours, parsed_theirs, strict=True))
        / len(ids),
    }


def rotated(tools: list[str], round_number: int) -> list[str]:
    """The run order of round ``round_number`` (0-based): the tools rotated by that many places."""
    shift = round_number % len(tools)
    return tools[shift:] + tools[:shift]


def _timed(command: list[str], env: dict[str, str], log: Path, timeout: float) -> float:
    start = time.perf_counter()
    with log.open("w") as out:
        done = subprocess.run(
            command, env=env, stdout=out, stderr=subprocess.STDOUT, timeout=timeout
        )
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        tail = "\n".join(log.read_text(errors="replace").splitlines()[-15:])
        raise SystemExit(f"{command[2]} exited {done.returncode} (log {log}):\n{tail}")
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--task", default="functional_requirement")
    parser.add_argument("--limit", type=int, default=48)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--batch-size", type=int, default=8)
    parser.add_argument("--timeout", type=float, default=1800, help="seconds per process")
    parser.add_argument("--model-dir", help="a local causal LM directory (default: smollm2)")
    parser.add_argument("--work", help="keep exports, logs and results here")
    parser.add_argument("-o", "--option", action="append", default=[], help="seebench option")
    args = parser.parse_args()
    if importlib.util.find_spec("lm_eval") is None:
        raise SystemExit("lm-eval is not installed: pip install 'seebench[bench]'")

    from seebench.data.dataset import load_task_data
    from seebench.methods.prompting.method import build_prompts
    from seebench.methods.prompting.template import max_new_tokens
    from seebench.plugin_manager import get_registry, get_task_index

    registry = get_registry()
    task = get_task_index().get(args.task)
    data = load_task_data(task, registry, limit=args.limit)
    prompts = build_prompts(task, data, 0, seed=42)
    if any(m["role"] != "user" for p in prompts for m in p.messages):
        raise SystemExit(
            f"task {args.task!r} has a system message; export handles user-only prompts"
        )
    if args.model_dir:
        model_dir, model_spec = (
            Path(args.model_dir).resolve(),
            f"hf:{Path(args.model_dir).resolve()}",
        )
    else:
        from seebench.methods.prompting.models import resolve_smollm2, smollm2_dir

        model_dir, model_spec = smollm2_dir(resolve_smollm2("smollm2")), "smollm2"
    stop = _stop_strings(model_dir)
    work = Path(args.work or tempfile.mkdtemp(prefix="vs-lmeval-"))
    items = [
        {"id": s.id, "user": p.messages[-1]["content"], "target": str(s.target)}
        for s, p in zip(data.test, prompts, strict=True)
    ]
    lmeval_task = export_lmeval_task(
        work / "lmeval_tasks", args.task, items, max_new_tokens=max_new_tokens(task), stop=stop
    )
    env = {
        **os.environ,
        "HF_HUB_OFFLINE": "1",
        "HF_DATASETS_OFFLINE": "1",
        "HF_HOME": str(work / "hf-home"),
        "TOKENIZERS_PARALLELISM": "false",
    }
    n = len(items)
    commands = {
        "seebench": lambda out: [
            sys.executable,
            "-m",
            "seebench.cli.main",
            "eval",
            "--model",
            model_spec,
            "--tasks",
            args.task,
            "--method",
            "zero-shot",
            "--limit",
            str(args.limit),
            "--output",
            str(out),
            "--force",
            "--no-progress",
            "--bootstrap",
            "0",
            "-o",
            f"batch_size={args.batch_size}",
            "-o",
            "cache=false",
            *[x for o in args.option for x in ("-o", o)],
        ],  # fmt: skip
        "lm-eval": lambda out: [
            sys.executable,
            "-m",
            "lm_eval",
            "run",
            "--model",
            "hf",
            "--model_args",
            f"pretrained={model_dir},dtype=float32",
            "--device",
            "cpu",
            "--tasks",
            lmeval_task,
            "--include_path",
            str(work / "lmeval_tasks"),
            "--batch_size",
            str(args.batch_size),
            "--apply_chat_template",
            "--output_path",
            str(out),
            "--log_samples",
        ],  # fmt: skip
    }
    times: dict[str, list[float]] = {tool: [] for tool in commands}
    for round_number in range(args.rounds):
        for tool in rotated(list(commands), round_number):
            out = work / f"{tool}-{round_number}"
            seconds = _timed(
                commands[tool](out), env, work / f"{tool}-{round_number}.log", args.timeout
            )
            times[tool].append(seconds)
            print(f"round {round_number + 1}: {tool:8s} {seconds:7.1f} s", flush=True)

    from seebench.models import resolve_model
    from seebench.results.io import result_paths

    ref, _ = resolve_model(model_spec, registry)
    result_file, samples_file = result_paths(
        work / f"seebench-{args.rounds - 1}", ref.id, "zero-shot", args.task
    )
    ours = read_seebench_replies(samples_file)
    theirs = read_lmeval_replies(work / f"lm-eval-{args.rounds - 1}", lmeval_task)
    metric = registry.metric(task.primary_metric).load()
    golds = {s.id: s.target for s in data.test}
    figures = compare_replies(task, golds, ours, theirs, metric)
    seebench_own = json.loads(result_file.read_text())["metrics"][task.primary_metric]

    print(
        f"task {args.task}: {n} test items, zero-shot, batch {args.batch_size}, greedy, "
        f"max_new_tokens {max_new_tokens(task)}; model {model_spec} ({model_dir})"
    )
    print(f"machine: {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f}; work dir {work}")
    medians = {tool: statistics.median(t) for tool, t in times.items()}
    for tool, median in medians.items():
        runs = ", ".join(f"{t:.1f}" for t in times[tool])
        print(f"{tool:8s}: median {median:7.1f} s wall ({runs}), {n / median:6.3f} items/s")
    print(f"ratio lm-eval / seebench (wall time): {medians['lm-eval'] / medians['seebench']:.2f}x")
    print(
        f"{task.primary_metric}: seebench {figures['metric_ours']:.3f} (its own result: "
        f"{seebench_own:.3f}), lm-eval {figures['metric_theirs']:.3f} (seebench's parser)"
    )
    print(
        f"identical replies: raw {figures['same_raw']:.1%}, parsed answers "
        f"{figures['same_parsed']:.1%} of {n}"
    )


def _stop_strings(model_dir: Path) -> list[str]:
    """The text of every end-of-sequence token seebench stops at (model and tokenizer)."""
    from transformers import AutoTokenizer, GenerationConfig

    tokenizer = AutoTokenizer.from_pretrained(str(model_dir))
    ids: set[int] = set()
    try:
        value = GenerationConfig.from_pretrained(str(model_dir)).eos_token_id
    except OSError:
        value = None
    for v in (value, tokenizer.eos_token_id):
        ids.update([v] if isinstance(v, int) else (v or []))
    return sorted({tokenizer.decode([i]) for i in ids})


if __name__ == "__main__":
    main()
