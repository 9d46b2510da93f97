"""Batches for local generation: length-sorted, and sharing the prompts' common token prefix.

Prompts of one task usually start with the same tokens (chat template, setting, task, label
definitions) and differ only in the instance at the end. :func:`shared_prefix_length` finds
that common start in the *token ids of the full prompts* (so every prompt is still given
exactly its own tokens); the model reads it once (:func:`prefill`), and every batch continues
from a copy of that key/value cache with only its own suffixes. A batch is laid out as
``[prefix][padding][suffix]``: the padding is masked out, and positions come from the
attention mask, so every suffix token has the position it has in the unbatched prompt.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from seebench.models.backends.kv_cache import cache_of

#: below this many shared tokens, reading the prefix once saves too little to be worth it
MIN_SHARED_PREFIX = 16


def shared_prefix_length(token_ids: Sequence[Sequence[int]]) -> int:
    """How many leading tokens all prompts share, leaving every prompt at least one of its own."""
    if not token_ids:
        return 0
    first = token_ids[0]
    limit = min(len(ids) for ids in token_ids) - 1
    length = 0
    while length < limit and all(ids[length] == first[length] for ids in token_ids):
        length += 1
    return max(length, 0)


def length_sorted_batches(lengths: Sequence[int], batch_size: int) -> list[list[int]]:
    """Positions grouped into batches of similar length, longest first (less padding)."""
    order = sorted(range(len(lengths)), key=lambda i: -lengths[i])
    return [order[start : start + batch_size] for start in range(0, len(order), batch_size)]


@dataclass
class Batch:
    """Model inputs for some prompts: ids and mask (``[prefix][padding][suffix]``)."""

    input_ids: Any
    attention_mask: Any
    prefix_cache: Any = None  # the shared prefix's key/value cache, repeated per row


def pad_batch(
    token_ids: Sequence[Sequence[int]],
    pad_id: int,
    device: str,
    prefix_length: int = 0,
    prefix_cache: Any = None,
) -> Batch:
    """Left-pad each prompt's tokens after the first ``prefix_length`` (shared) ones."""
    import torch

    suffixes = [list(ids[prefix_length:]) for ids in token_ids]
    prefix = list(token_ids[0][:prefix_length])
    width = max(len(s) for s in suffixes)
    rows, masks = [], []
    for suffix in suffixes:
        padding = width - len(suffix)
        rows.append(prefix + [pad_id] * padding + suffix)
        masks.append([1] * prefix_length + [0] * padding + [1] * len(suffix))
    cache = None
    if prefix_cache is not None:
        with torch.inference_mode():
            cache = copy.deepcopy(prefix_cache)
            cache.batch_repeat_interleave(len(token_ids))
    return Batch(
        torch.tensor(rows, device=device),
        torch.tensor(masks, device=device),
        cache,
    )


def prefill(model: Any, prefix_ids: Sequence[int], device: str) -> Any:
    """The key/value cache of the model having read ``prefix_ids`` (one row)."""
    import torch

    ids = torch.tensor([list(prefix_ids)], device=device)
    with torch.inference_mode():
        out = model(input_ids=ids, attention_mask=torch.ones_like(ids), use_cache=True)
    return cache_of(out)
