"""Log-likelihood of continuations (the ``loglik`` method's request), shared by the backends.

A request is a context (the rendered prompt) and its options (the labels' verbalisers). The
tokens at the boundary are split as lm-evaluation-harness splits them: whitespace that ends
the context moves to the start of the continuation; the context is encoded alone, the whole
(context + continuation) is encoded, and the continuation's tokens are the whole's tokens
after the context's (:func:`split_tokens`), so a word that merges with a leading space (``"
bug"``) is one token, as the model saw it in training. An option gets a leading space unless
the context ends with whitespace (a chat template's assistant turn ends with a newline).

:func:`hf_loglikelihoods` reads every context once and scores all its options from that
key/value cache: the prompts' common start (template, instructions, label definitions) is
read once for the whole batch, then each context's own tokens (batched, left-padded, with
positions from the mask), then the options of every context in one batch that continues
each context's cache.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from seebench.models.backends.batching import MIN_SHARED_PREFIX, shared_prefix_length
from seebench.models.backends.kv_cache import cache_argument, cache_of


@dataclass(frozen=True)
class OptionScore:
    """One option's log-likelihood given its context, with what normalising needs."""

    logprob: float
    tokens: int  # the option's tokens
    chars: int  # the option's characters (lm-eval's acc_norm divides by these)
    greedy: bool  # every option token was the model's most likely next token

    def as_dict(self) -> dict[str, Any]:
        return {
            "logprob": self.logprob,
            "tokens": self.tokens,
            "chars": self.chars,
            "greedy": self.greedy,
        }


def plain_context(prompt: Any) -> str:
    """A prompt's messages as plain text ending where the answer starts (no chat template:
    base models, completions servers); the options follow the answer cue after a space."""
    return "\n\n".join(m["content"] for m in prompt.messages)


def continuation_text(context: str, verbaliser: str) -> str:
    """The continuation scored for ``verbaliser``: with a leading space unless the context
    ends with whitespace (or the verbaliser starts with some)."""
    if not context or context[-1].isspace() or verbaliser[:1].isspace():
        return verbaliser
    return " " + verbaliser


def split_tokens(
    tokenizer: Any, context: str, continuation: str, head: list[int] | None = None
) -> tuple[list[int], list[int]]:
    """Context and continuation token ids, split at the boundary as lm-eval does (``head``:
    the context's ids when already known, as for every option of one context)."""
    spaces = len(context) - len(context.rstrip())
    if spaces:
        continuation = context[-spaces:] + continuation
        context = context[:-spaces]
    whole = tokenizer(context + continuation, add_special_tokens=False)["input_ids"]
    if head is None:
        head = list(tokenizer(context, add_special_tokens=False)["input_ids"])
    return head, list(whole[len(head) :])


@dataclass
class _Encoded:
    context: list[int]
    options: list[list[int]]
    chars: list[int]


def encode(tokenizer: Any, context: str, verbalisers: Sequence[str]) -> _Encoded:
    """One request's tokens; the context is the same for every option (lm-eval encodes it
    once per option, from the same text: it is encoded once here)."""
    options, chars, head = [], [], None
    for verbaliser in verbalisers:
        text = continuation_text(context, verbaliser)
        head, tail = split_tokens(tokenizer, context, text, head)
        options.append(tail)
        chars.append(len(text))
    return _Encoded(head or [], options, chars)


def hf_loglikelihoods(
    model: Any,
    encoded: Sequence[_Encoded],
    device: str,
    batch_size: int,
    share_prefix: bool = True,
) -> Iterator[tuple[int, list[OptionScore]]]:
    """Every option's log-likelihood, per request, in any order (length-sorted batches)."""
    import torch

    contexts = [e.context for e in encoded]
    shared = shared_prefix_length(contexts) if share_prefix and len(contexts) > 1 else 0
    prefix = None
    if shared >= MIN_SHARED_PREFIX:
        ids = torch.tensor([contexts[0][:shared]], device=device)
        prefix = _read(model, ids, None, None, keep=1)
    else:
        shared = 0
    order = sorted(range(len(encoded)), key=lambda i: -len(contexts[i]))
    for start in range(0, len(order), batch_size):
        batch = order[start : start + batch_size]
        with torch.inference_mode():
            scores = _score_batch(model, [encoded[i] for i in batch], device, shared, prefix)
        yield from zip(batch, scores, strict=True)


def _read(model: Any, ids: Any, mask: Any, cache: Any, keep: int = 0) -> Any:
    """The model's output for ``ids`` after ``cache`` (positions from the mask); with
    ``keep``, the logits of the last ``keep`` positions only (the others are never read,
    and the vocabulary projection of every position costs as much as a few layers)."""
    import torch

    if mask is None:
        mask = torch.ones_like(ids)
    positions = (mask.cumsum(-1) - 1).clamp(min=0)[:, -ids.shape[1] :]
    extra = {"logits_to_keep": keep} if keep and _keeps_logits(model) else {}
    extra |= cache_argument(model, cache)
    with torch.inference_mode():
        return model(
            input_ids=ids,
            attention_mask=mask,
            position_ids=positions,
            use_cache=True,
            **extra,
        )


def _keeps_logits(model: Any) -> bool:
    """Whether the model's forward takes ``logits_to_keep`` (transformers' causal LMs do)."""
    import inspect

    try:
        return "logits_to_keep" in inspect.signature(model.forward).parameters
    except (TypeError, ValueError):
        return False


def _common_start(options: Sequence[list[int]]) -> int:
    """How many leading tokens all options share (each keeps at least its last one)."""
    limit = min(len(o) for o in options) - 1
    length = 0
    while length < limit and all(o[length] == options[0][length] for o in options):
        length += 1
    return length


def _repeated(cache: Any, rows: int) -> Any:
    """A copy of the prefix's key/value ``cache`` repeated for ``rows`` rows (the prefix's
    own tensors untouched: each layer's repeat is a new tensor, so only the cache and layer
    objects are copied, not the tensors a deep copy would duplicate first)."""
    import copy

    layers = getattr(cache, "layers", None)
    if isinstance(layers, list):
        repeated = copy.copy(cache)
        repeated.layers = [copy.copy(layer) for layer in layers]
    else:
        repeated = copy.deepcopy(cache)
    repeated.batch_repeat_interleave(rows)
    return repeated


def _score_batch(
    model: Any, batch: Sequence[_Encoded], device: str, shared: int, prefix: Any
) -> list[list[OptionScore]]:
    """One batch: every context (with its options' common first tokens, e.g. the newline
    lm-eval moves out of the context) read once; then the options' remaining tokens, all
    options of all contexts in one batch continuing their context's cache."""
    import torch

    pad = 0
    common = [_common_start(e.options) for e in batch]
    suffixes = [e.context[shared:] + e.options[0][:c] for e, c in zip(batch, common, strict=True)]
    width = max(len(s) for s in suffixes)
    rows = [[pad] * (width - len(s)) + s for s in suffixes]
    mask = [[1] * shared + [0] * (width - len(s)) + [1] * len(s) for s in suffixes]
    cache = None if prefix is None else _repeated(cache_of(prefix), len(batch))
    context_mask = torch.tensor(mask, device=device)
    keep = max(common) + 1
    out = _read(model, torch.tensor(rows, device=device), context_mask, cache, keep)
    tail = torch.log_softmax(out.logits[:, -keep:, :].float(), dim=-1)
    owners = [row for row, e in enumerate(batch) for _ in e.options]
    rests = [o[common[row] :] for row, e in enumerate(batch) for o in e.options]
    longest = max(len(o) for o in rests)
    later = None
    if longest > 1:
        cache = cache_of(out)
        cache.batch_select_indices(torch.tensor(owners, device=device))
        feed = [o[:-1] + [pad] * (longest - len(o)) for o in rests]
        option_mask = torch.tensor(
            [[1] * (len(o) - 1) + [0] * (longest - len(o)) for o in rests], device=device
        )
        full = torch.cat([context_mask[owners], option_mask], dim=1)
        later = _read(model, torch.tensor(feed, device=device), full, cache).logits.float()
        later = torch.log_softmax(later, dim=-1)
    per_row = []
    for index, (owner, rest) in enumerate(zip(owners, rests, strict=True)):
        shared_tokens = batch[owner].options[0][: common[owner]]
        offset = tail.shape[1] - common[owner] - 1  # where this row's common tokens start
        steps = [tail[owner, offset + n] for n in range(common[owner] + 1)]
        steps += [later[index, n] for n in range(len(rest) - 1)] if later is not None else []
        tokens = shared_tokens + rest
        logprob = sum(float(step[token]) for step, token in zip(steps, tokens, strict=True))
        greedy = all(int(step.argmax()) == token for step, token in zip(steps, tokens, strict=True))
        per_row.append((logprob, len(tokens), greedy))
    scores, position = [], 0
    for encoded in batch:
        chunk = per_row[position : position + len(encoded.options)]
        position += len(encoded.options)
        scores.append(
            [
                OptionScore(lp, count, chars, greedy)
                for (lp, count, greedy), chars in zip(chunk, encoded.chars, strict=True)
            ]
        )
    return scores


def completion_request(model: str, context: str, verbaliser: str) -> dict[str, Any]:
    """A ``/completions`` body that echoes the prompt with its tokens' log-probabilities."""
    return {
        "model": model,
        "prompt": context + continuation_text(context, verbaliser),
        "max_tokens": 1,  # some servers refuse 0; the generated token is left out
        "temperature": 0.0,
        "echo": True,
        "logprobs": 1,
    }


def read_echoed(model: str, response: Any, context: str, verbaliser: str) -> OptionScore:
    """The option's score from an echoed completion: the log-probabilities of the tokens
    that start at or after the end of the context (its trailing whitespace counts as the
    option's, as in :func:`split_tokens`) and before the end of the option."""
    from seebench.errors import ModelError

    option = continuation_text(context, verbaliser)
    try:
        logprobs = response.json()["choices"][0]["logprobs"]
        tokens = list(logprobs["tokens"])
        values = list(logprobs["token_logprobs"])
        offsets = [int(o) for o in logprobs["text_offset"]]
    except (ValueError, KeyError, IndexError, TypeError):
        logprobs = None
    if not logprobs:
        raise ModelError(
            f"model {model!r}: the server returned no prompt log-probabilities; loglik needs "
            "a completions endpoint that honours echo=true with logprobs (vLLM, llama.cpp)"
        )
    start, end = len(context.rstrip()), len(context) + len(option)  # lm-eval's boundary
    chosen = [n for n, offset in enumerate(offsets) if start <= offset < end]
    if not chosen or any(values[n] is None for n in chosen):
        raise ModelError(
            f"model {model!r}: the server's echoed tokens do not cover the option {option!r}"
        )
    top = logprobs.get("top_logprobs") or []
    greedy = all(
        n < len(top) and isinstance(top[n], dict) and max(top[n], key=top[n].get) == tokens[n]
        for n in chosen
    )
    return OptionScore(sum(float(values[n]) for n in chosen), len(chosen), len(option), greedy)
