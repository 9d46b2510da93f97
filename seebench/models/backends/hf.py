"""Local generation with transformers: batched, left-padded, greedy unless a temperature is set.

The model directory is a path, or a function that prepares it on first use (``smollm2`` is
converted from GGUF only when something has to be generated).
Chat models (whose tokenizer has a chat template) get their template; others get the plain
text of the messages. ``confidence`` is the probability of the whole generated answer: the
product of its tokens' probabilities, up to the end-of-sequence token.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

from seebench.errors import ModelError
from seebench.models.backends.base import Generation
from seebench.models.backends.batching import (
    MIN_SHARED_PREFIX,
    length_sorted_batches,
    pad_batch,
    prefill,
    shared_prefix_length,
)
from seebench.models.backends.kv_cache import cache_argument
from seebench.models.chat import Prompt

DEFAULT_BATCH_SIZE = 8


@functools.lru_cache(maxsize=2)
def load_model(path: str, dtype: str = "float32", device: str = "auto") -> tuple[Any, Any, str]:
    """Load (and keep, for the next task of the same run) a causal LM and its tokenizer."""
    try:
        import torch
        from transformers import AutoModelForCausalLM, AutoTokenizer
    except ImportError as exc:
        raise ModelError(
            f"the hf backend needs torch and transformers: pip install 'seebench[hf]' ({exc})"
        ) from None
    if device == "auto":
        device = "cuda" if torch.cuda.is_available() else "cpu"
    tokenizer = AutoTokenizer.from_pretrained(path)
    tokenizer.padding_side = "left"
    if tokenizer.pad_token is None:
        tokenizer.pad_token = tokenizer.eos_token
    model = AutoModelForCausalLM.from_pretrained(
        path, dtype=getattr(torch, dtype) if dtype != "auto" else "auto"
    )
    model.to(device).eval()  # type: ignore[arg-type]  # transformers' stubs: to()'s wrapper
    return model, tokenizer, device


class HFBackend:
    """Generates replies with a local causal language model."""

    name = "hf"

    def __init__(
        self,
        model_dir: Path | str | Callable[[], Path],
        *,
        max_new_tokens: int,
        temperature: float = 0.0,
        batch_size: int = DEFAULT_BATCH_SIZE,
        dtype: str = "float32",
        device: str = "auto",
        seed: int = 0,
        prefix_cache: bool = True,
        chat_template: bool = True,
    ):
        self._model_dir = model_dir  # a callable prepares the directory on first use
        self.max_new_tokens = int(max_new_tokens)
        self.temperature = float(temperature)
        self.batch_size = max(1, int(batch_size))
        self.dtype = dtype
        self.device = device
        self.seed = seed
        self.prefix_cache = bool(prefix_cache)
        self.chat_template = bool(chat_template)  # false: raw text even for chat models
        self.prefix_tokens = 0  # shared prompt tokens read once (0: no prefix cache used)
        self.batches = 0
        self.usage = {"prompt_tokens": 0, "completion_tokens": 0}

    @property
    def model_dir(self) -> str:
        if callable(self._model_dir):
            self._model_dir = self._model_dir()
        return str(self._model_dir)

    def identity(self) -> dict[str, Any]:
        identity: dict[str, Any] = {"backend": self.name, "dtype": self.dtype}
        if not self.chat_template:
            identity["chat_template"] = False
        return identity

    def params(self) -> dict[str, Any]:
        params: dict[str, Any] = {
            "max_new_tokens": self.max_new_tokens,
            "temperature": self.temperature,
        }
        if self.temperature > 0:
            params["seed"] = self.seed
        return params

    def info(self) -> dict[str, Any]:
        return {
            "batch_size": self.batch_size,
            "batches": self.batches,
            "prefix_tokens": self.prefix_tokens,
            "usage": dict(self.usage),
        }

    def count_tokens(self, text: str) -> int:
        """How many tokens ``text`` is for this model (e.g. a reply's reasoning part)."""
        _, tokenizer, _ = load_model(self.model_dir, self.dtype, self.device)
        return len(tokenizer(text, add_special_tokens=False)["input_ids"])

    def render(self, prompt: Prompt) -> str:
        """The exact text the model is given for ``prompt`` (chat template applied)."""
        _, tokenizer, _ = load_model(self.model_dir, self.dtype, self.device)
        return self._render(tokenizer, prompt)

    def _uses_template(self, tokenizer: Any) -> bool:
        return self.chat_template and bool(getattr(tokenizer, "chat_template", None))

    def _render(self, tokenizer: Any, prompt: Prompt) -> str:
        if self._uses_template(tokenizer):
            return tokenizer.apply_chat_template(
                list(prompt.messages), tokenize=False, add_generation_prompt=True
            )
        return prompt.as_text()

    def generate(self, prompts: Sequence[Prompt]) -> Iterator[tuple[int, Generation]]:
        if not prompts:  # everything came from the cache: do not load the model
            return
        import torch

        model, tokenizer, device = load_model(self.model_dir, self.dtype, self.device)
        chat = self._uses_template(tokenizer)
        all_ids = [
            tokenizer(self._render(tokenizer, p), add_special_tokens=not chat)["input_ids"]
            for p in prompts
        ]
        context = _context_length(model)
        fits = [i for i, ids in enumerate(all_ids) if context is None or len(ids) < context]
        for index in sorted(set(range(len(prompts))) - set(fits)):
            yield (
                index,
                Generation(
                    text=None,
                    error=f"prompt of {len(all_ids[index])} tokens does not fit the model's "
                    f"context of {context} tokens",
                ),
            )
        if not fits:
            return
        prompts = [prompts[i] for i in fits]
        token_ids = [all_ids[i] for i in fits]
        shared = shared_prefix_length(token_ids) if self.prefix_cache else 0
        prefix_cache = None
        if shared >= MIN_SHARED_PREFIX and len(prompts) > 1:
            prefix_cache = prefill(model, token_ids[0][:shared], device)
            self.prefix_tokens = shared
        else:
            shared = 0
        eos_ids = _eos_ids(model, tokenizer)
        for number, batch in enumerate(
            length_sorted_batches([len(ids) for ids in token_ids], self.batch_size)
        ):
            longest = max(len(token_ids[i]) for i in batch)
            room = self.max_new_tokens if context is None else context - longest
            config = self._generation_config(
                model, tokenizer, eos_ids, min(self.max_new_tokens, room)
            )
            inputs = pad_batch(
                [token_ids[i] for i in batch],
                tokenizer.pad_token_id,
                device,
                prefix_length=shared,
                prefix_cache=prefix_cache,
            )
            if self.temperature > 0:
                torch.manual_seed(self.seed + number * self.batch_size)
            extra = cache_argument(model, inputs.prefix_cache) if prefix_cache is not None else {}
            with torch.inference_mode():
                out = model.generate(
                    input_ids=inputs.input_ids,
                    attention_mask=inputs.attention_mask,
                    generation_config=config,
                    **extra,
                )
            scores = model.compute_transition_scores(
                out.sequences, out.scores, normalize_logits=True
            )
            new_tokens = out.sequences[:, inputs.input_ids.shape[1] :]
            self.batches += 1
            for row, index in enumerate(batch):
                tokens = new_tokens[row].tolist()
                end = next((n for n, t in enumerate(tokens) if t in eos_ids), len(tokens))
                logprob = float(scores[row, :end].sum()) if end else 0.0
                prompt_tokens = len(token_ids[index])
                self.usage["prompt_tokens"] += prompt_tokens
                self.usage["completion_tokens"] += end
                yield (
                    fits[index],
                    Generation(
                        text=tokenizer.decode(tokens[:end], skip_special_tokens=True),
                        confidence=math.exp(logprob) if math.isfinite(logprob) else None,
                        usage={"prompt_tokens": prompt_tokens, "completion_tokens": end},
                    ),
                )

    def loglik_context(self, prompt: Prompt) -> str:
        """The text whose continuations ``loglik`` scores: the chat template's rendering
        (ending where the assistant's reply starts), or the plain messages."""
        from seebench.models.backends.loglik import plain_context

        _, tokenizer, _ = load_model(self.model_dir, self.dtype, self.device)
        if self._uses_template(tokenizer):
            return self._render(tokenizer, prompt)
        return plain_context(prompt)

    def loglikelihood(
        self, prompts: Sequence[Prompt], options: Sequence[Sequence[str]]
    ) -> Iterator[tuple[int, list[Any] | str]]:
        """Every option's :class:`~seebench.models.backends.loglik.OptionScore` as a
        continuation of its prompt (rendered as for generation), or why it cannot be scored;
        ``(position, scores)`` in any order. Each prompt is read once for all its options."""
        if not prompts:
            return
        from seebench.models.backends.loglik import encode, hf_loglikelihoods

        model, tokenizer, device = load_model(self.model_dir, self.dtype, self.device)
        context = _context_length(model)
        encoded, fits = [], []
        for index, (prompt, verbalisers) in enumerate(zip(prompts, options, strict=True)):
            item = encode(tokenizer, self.loglik_context(prompt), verbalisers)
            if not item.context:  # an empty prompt: condition on end-of-text, as lm-eval does
                item.context = [tokenizer.eos_token_id]
            length = len(item.context) + max(len(o) for o in item.options)
            if context is not None and length > context:
                yield index, f"prompt and option of {length} tokens exceed the context of {context}"
                continue
            encoded.append(item)
            fits.append(index)
        for position, scores in hf_loglikelihoods(
            model, encoded, device, self.batch_size, self.prefix_cache
        ):
            self.usage["prompt_tokens"] += len(encoded[position].context)
            yield fits[position], scores

    def _generation_config(
        self, model: Any, tokenizer: Any, eos_ids: set[int], max_new_tokens: int
    ) -> Any:
        from transformers import GenerationConfig

        sampling = self.temperature > 0
        return GenerationConfig(
            max_new_tokens=max_new_tokens,
            do_sample=sampling,
            temperature=self.temperature if sampling else None,
            top_p=None,
            top_k=None,
            pad_token_id=tokenizer.pad_token_id,
            eos_token_id=sorted(eos_ids) or None,
            output_scores=True,
            return_dict_in_generate=True,
        )


def make_backend(
    model: Any,
    options: dict[str, Any],
    *,
    max_new_tokens: int,
    temperature: float,
    seed: int,
    seeded: bool = False,
) -> HFBackend:
    """The ``hf`` backend's factory (registered in :mod:`seebench.models.plugin`): a model
    directory, or the model's ``prepare`` function (e.g. smollm2's conversion, run only if
    something has to be generated)."""
    from seebench.models.options import HF_OPTIONS
    from seebench.registry import load_object

    prepare = model.options.get("prepare")
    directory = (lambda: load_object(prepare)(model)) if prepare else model.identity["path"]
    extra = {k: options[k] for k in HF_OPTIONS if k in options}
    return HFBackend(
        directory, max_new_tokens=max_new_tokens, temperature=temperature, seed=seed, **extra
    )


def _context_length(model: Any) -> int | None:
    """The longest sequence (prompt + reply) the model was built for, if its config says."""
    value = getattr(model.config, "max_position_embeddings", None)
    return value if isinstance(value, int) and value > 0 else None


def _eos_ids(model: Any, tokenizer: Any) -> set[int]:
    ids: set[int] = set()
    for value in (getattr(model.generation_config, "eos_token_id", None), tokenizer.eos_token_id):
        if isinstance(value, int):
            ids.add(value)
        elif value:
            ids.update(int(v) for v in value)
    return ids
