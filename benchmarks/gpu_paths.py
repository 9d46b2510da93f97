"""GPU paths check: ``loglik``, generation and fine-tuning on CUDA against the same runs on CPU.

Offline and self-contained (run from a checkout): it takes the tests' tiny byte-level BPE
tokenizer (``tests/tiny_models.py``), builds a small random Llama (decoder, with a chat
template) and a small random BERT (encoder) from fixed seeds, saves both as Hugging Face directories, then runs ``seebench
eval`` on the example plugin's two tasks (``bug_report``, binary; ``commit_intent``,
multiclass):

- ``loglik`` with ``-o device=cpu`` and ``-o device=cuda``: every option's log-likelihood must
  agree within ``--tolerance`` and every prediction must be identical;
- ``zero-shot`` generation on CUDA (status ok, every sample answered, valid or not);
- ``finetune`` of the encoder and of the decoder on CUDA (status ok, a metric, bf16 where the GPU
  supports it), and the encoder on CPU for the wall-time ratio.

The models are random, so the metrics mean nothing: this checks the device paths (placement,
dtypes, the key-value cache shared by a prompt's options, bf16 training), not quality. It prints
one line per check and the wall time of each run; the exit status is 1 if any check failed.

Usage (needs a CUDA GPU, ``seebench[hf,train]`` and the ``seebench-example`` plugin)::

    python benchmarks/gpu_paths.py [--out DIR] [--tolerance 1e-3]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

TASKS = "bug_report,commit_intent"
REPO_ROOT = Path(__file__).resolve().parents[1]


def build_tokenizer() -> Any:
    """The tests' tiny byte-level BPE tokenizer (``tests/tiny_models.py``, with its chat
    template) and the special tokens an encoder needs."""
    sys.path.insert(0, str(REPO_ROOT))
    from tests.tiny_models import CHAT_TEMPLATE, build_tiny_tokenizer

    tokenizer = build_tiny_tokenizer(vocab_size=2000, chat_template=CHAT_TEMPLATE)
    tokenizer.add_special_tokens(
        {"pad_token": "<pad>", "cls_token": "[CLS]", "sep_token": "[SEP]", "mask_token": "[MASK]"}
    )
    return tokenizer


def build_models(root: Path) -> tuple[Path, Path]:
    """Random small Llama and BERT directories (fixed seeds) sharing one tokenizer."""
    import torch
    from transformers import BertConfig, BertModel, LlamaConfig, LlamaForCausalLM

    tokenizer = build_tokenizer()
    vocab = len(tokenizer)
    torch.manual_seed(0)
    decoder = LlamaForCausalLM(
        LlamaConfig(
            vocab_size=vocab,
            hidden_size=256,
            intermediate_size=512,
            num_hidden_layers=4,
            num_attention_heads=4,
            num_key_value_heads=2,
            max_position_embeddings=2048,
            pad_token_id=tokenizer.pad_token_id,
            bos_token_id=tokenizer.bos_token_id,
            eos_token_id=tokenizer.eos_token_id,
        )
    )
    encoder = BertModel(
        BertConfig(
            vocab_size=vocab,
            hidden_size=256,
            intermediate_size=512,
            num_hidden_layers=4,
            num_attention_heads=4,
            max_position_embeddings=512,
            pad_token_id=tokenizer.pad_token_id,
        )
    )
    paths = root / "llama", root / "bert"
    for model, path in zip((decoder, encoder), paths, strict=True):
        model.save_pretrained(path)
        tokenizer.save_pretrained(path)
    return paths


def seebench_eval(out: Path, model: str, method: str, *options: str) -> tuple[int, float, str]:
    """One ``seebench eval`` run: exit status, wall seconds and the output's last lines."""
    command = [sys.executable, "-m", "seebench", "eval", "--model", model, "--method", method]
    command += ["--tasks", TASKS, "--output", str(out), "--no-progress"]
    for option in options:
        command += ["-o", option]
    started = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, timeout=900)
    tail = "\n".join((done.stdout + done.stderr).strip().splitlines()[-6:])
    return done.returncode, time.perf_counter() - started, tail


def results_of(out: Path) -> dict[str, dict[str, Any]]:
    """Task name → its result mapping, for every result JSON under ``out``."""
    found = {}
    for path in out.rglob("*.json"):
        if path.stem in TASKS.split(","):
            found[path.stem] = json.loads(path.read_text())
    return found


def samples_of(out: Path, task: str) -> list[dict[str, Any]]:
    """A task's samples records (the ``<task>.samples.jsonl`` file under ``out``)."""
    path = next(out.rglob(f"{task}.samples.jsonl"))
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def option_logprobs(sample: dict[str, Any]) -> dict[str, float]:
    """Each label's raw log-likelihood from a loglik sample's ``extra.loglik``."""
    scores = (sample.get("extra") or {}).get("loglik") or {}
    if isinstance(scores, dict):
        return {str(k): float(v["logprob"]) for k, v in scores.items()}
    return {str(s.get("label", i)): float(s["logprob"]) for i, s in enumerate(scores)}


def compare_loglik(cpu_out: Path, gpu_out: Path, tolerance: float) -> list[str]:
    """Failures (empty when CPU and CUDA agree) and prints the largest difference per task."""
    failures = []
    for task in TASKS.split(","):
        cpu, gpu = samples_of(cpu_out, task), samples_of(gpu_out, task)
        if len(cpu) != len(gpu) or not cpu:
            failures.append(f"{task}: {len(cpu)} CPU samples, {len(gpu)} CUDA samples")
            continue
        worst, changed = 0.0, 0
        for a, b in zip(cpu, gpu, strict=True):
            la, lb = option_logprobs(a), option_logprobs(b)
            if set(la) != set(lb) or not la:
                failures.append(f"{task}: sample {a.get('id')} has no comparable loglik values")
                break
            worst = max(worst, *(abs(la[k] - lb[k]) for k in la))
            changed += a.get("prediction") != b.get("prediction")
        print(
            f"loglik {task}: {len(cpu)} items, max |CPU - CUDA| = {worst:.2e}, "
            f"{changed} predictions differ"
        )
        if worst > tolerance or changed:
            failures.append(f"{task}: CPU and CUDA differ (max {worst:.2e}, {changed} predictions)")
    return failures


def check_run(name: str, out: Path, run: tuple[int, float, str]) -> list[str]:
    """Prints a run's status and figures; failures when it did not finish with every task ok."""
    status, wall, tail = run
    results = results_of(out)
    statuses = {task: r.get("status") for task, r in results.items()}
    metrics = {
        task: (r.get("metrics") or {}).get(r.get("primary_metric") or "")
        for task, r in results.items()
    }
    print(f"{name}: exit {status}, {wall:.1f} s wall, statuses {statuses}, primary {metrics}")
    if status != 0 or len(results) != len(TASKS.split(",")) or set(statuses.values()) != {"ok"}:
        return [f"{name}: exit {status}, statuses {statuses}\n{tail}"]
    return []


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, default=None)
    parser.add_argument("--tolerance", type=float, default=1e-3)
    args = parser.parse_args()
    import torch

    if not torch.cuda.is_available():
        print("gpu_paths: unavailable: torch sees no CUDA device")
        return 2
    print(
        f"GPU: {torch.cuda.get_device_name(0)}, torch {torch.__version__}, "
        f"bf16 {torch.cuda.is_bf16_supported()}"
    )
    root = args.out or Path(tempfile.mkdtemp(prefix="seebench-gpu-paths."))
    llama, bert = build_models(root / "models")
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    failures: list[str] = []
    runs = {
        "loglik cpu": (root / "loglik-cpu", f"hf:{llama}", "loglik", "device=cpu"),
        "loglik cuda": (root / "loglik-cuda", f"hf:{llama}", "loglik", "device=cuda"),
        "zero-shot cuda": (
            root / "gen-cuda",
            f"hf:{llama}",
            "zero-shot",
            "device=cuda",
            "max_new_tokens=16",
        ),
        "finetune encoder cuda": (root / "ft-bert-cuda", f"hf:{bert}", "finetune", "epochs=2"),
        "finetune decoder cuda": (root / "ft-llama-cuda", f"hf:{llama}", "finetune", "epochs=2"),
        "finetune encoder cpu": (root / "ft-bert-cpu", f"hf:{bert}", "finetune", "epochs=2"),
    }
    for name, (out, model, method, *options) in runs.items():
        env_cpu = name.endswith(" cpu") and method == "finetune"
        if env_cpu:
            os.environ["CUDA_VISIBLE_DEVICES"] = ""
        failures += check_run(name, out, seebench_eval(out, model, method, *options))
        os.environ.pop("CUDA_VISIBLE_DEVICES", None)
    if not any(f.startswith("loglik") for f in failures):
        failures += compare_loglik(root / "loglik-cpu", root / "loglik-cuda", args.tolerance)
    for failure in failures:
        print(f"FAILED {failure}")
    print(f"{len(failures)} failed; outputs under {root}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
