"""Padding-free training passes for BERT-family encoders, and a task-sized vocabulary.

The ``backbone`` these functions take is a ``transformers`` model, typed ``Any``: its parts
(``encoder.layer``, ``embeddings``...) are reached by name, which torch types as
``Tensor | Module``.

**Packing.** A training batch is one flat stream of the batch's real tokens (the sequences
concatenated, no padding). Every token-wise operation of a BERT layer (the query, key, value,
output and feed-forward projections, GELU, dropout, LayerNorm) runs on that stream, so no
compute is spent on padding; only self-attention is per sequence: the stream is scattered into
a ``[batch, longest, ...]`` layout with a key-padding mask for
``scaled_dot_product_attention`` and gathered back. Positions restart at 0 in every sequence,
so each sequence is encoded exactly as it is on its own or in a padded batch.

When the task head reads the first token only (encoder sequence classification), the last
layer computes its query, attention output and feed-forward for the first token of each
sequence only (its keys and values still cover every token): the other positions' outputs
of that layer are never read, so skipping them changes no result.

**Vocabulary.** :func:`compact_vocabulary` keeps only the input-embedding rows of the tokens
that occur in the task's data (train, validation and test) and renumbers the token ids. Rows of
tokens that never occur get no gradient and are never looked up, so training and predictions
are unchanged, while the embedding gradient, clipping and AdamW work on a few thousand rows
instead of the whole vocabulary (about half of MiniLM's parameters).
"""

from __future__ import annotations

from typing import Any

import torch
import torch.nn.functional as F
from torch import nn


def supports_packing(backbone: Any) -> bool:
    """Whether ``backbone`` is a plain BERT encoder the packed pass reproduces exactly."""
    config = getattr(backbone, "config", None)
    if config is None or getattr(config, "model_type", None) != "bert":
        return False
    if getattr(config, "position_embedding_type", "absolute") not in (None, "absolute"):
        return False
    if getattr(config, "is_decoder", False) or getattr(config, "add_cross_attention", False):
        return False
    if getattr(config, "chunk_size_feed_forward", 0):
        return False
    try:
        layer = backbone.encoder.layer[0]
        parts = (
            backbone.embeddings.word_embeddings,
            layer.attention.self.query,
            layer.attention.self.key,
            layer.attention.self.value,
            layer.attention.output,
            layer.intermediate,
            layer.output,
        )
    except (AttributeError, IndexError, TypeError):
        return False
    return all(isinstance(part, nn.Module) for part in parts)


def pack(rows: list[list[int]]) -> dict[str, Any]:
    """The flat token stream of ``rows`` and the index tensors the packed pass needs."""
    lengths = [len(row) for row in rows]
    if not rows or min(lengths) == 0:
        raise ValueError("pack: every sequence needs at least one token")
    flat = [token for row in rows for token in row]
    count = len(rows)
    width = max(lengths)
    lengths_t = torch.tensor(lengths, dtype=torch.long)
    starts = torch.cumsum(lengths_t, 0) - lengths_t
    sequence = torch.repeat_interleave(torch.arange(count), lengths_t)
    positions = torch.arange(len(flat)) - starts[sequence]
    return {
        "input_ids": torch.tensor(flat, dtype=torch.long),
        "positions": positions,
        "slots": sequence * width + positions,  # each token's place in [count * width]
        "starts": starts,
        "key_mask": torch.arange(width)[None, :] < lengths_t[:, None],
        "width": width,
    }


def packed_hidden(backbone: Any, batch: dict[str, Any], first_only: bool) -> torch.Tensor:
    """Last hidden states of a :func:`pack` batch: ``[tokens, hidden]``, or ``[sequences,
    hidden]`` for each sequence's first token when ``first_only``."""
    device = backbone.embeddings.word_embeddings.weight.device
    ids = batch["input_ids"].to(device)
    positions = batch["positions"].to(device)
    slots = batch["slots"].to(device)
    starts = batch["starts"].to(device)
    mask = batch["key_mask"].to(device)[:, None, None, :]
    count, width = batch["key_mask"].shape
    hidden = backbone.embeddings(
        input_ids=ids[None],
        position_ids=positions[None],
        token_type_ids=torch.zeros_like(ids)[None],
    )[0]
    layers = list(backbone.encoder.layer)
    for index, layer in enumerate(layers):
        rows = starts if first_only and index == len(layers) - 1 else None
        hidden = _layer(layer, hidden, slots, count, width, mask, rows)
    return hidden


def _layer(layer, hidden, slots, count: int, width: int, mask, rows) -> torch.Tensor:
    attention = layer.attention.self
    heads = attention.num_attention_heads
    size = attention.attention_head_size

    def padded(values: torch.Tensor) -> torch.Tensor:
        grid = values.new_zeros(count * width, values.size(-1)).index_copy(0, slots, values)
        return grid.view(count, width, heads, size).transpose(1, 2)

    source = hidden if rows is None else hidden.index_select(0, rows)
    query = attention.query(source)
    query = padded(query) if rows is None else query.view(count, 1, heads, size).transpose(1, 2)
    context = F.scaled_dot_product_attention(
        query,
        padded(attention.key(hidden)),
        padded(attention.value(hidden)),
        attn_mask=mask,
        dropout_p=attention.dropout.p if attention.training else 0.0,
        scale=attention.scaling,
    )
    context = context.transpose(1, 2).reshape(-1, heads * size)
    if rows is None:
        context = context.index_select(0, slots)
    attended = layer.attention.output(context, source)
    return layer.output(layer.intermediate(attended), attended)


def compact_vocabulary(backbone: Any, token_ids: set[int], pad_id: int | None) -> list[int]:
    """Replace the input embedding by the rows of ``token_ids`` (and ``pad_id``); returns the
    kept original ids in order (new id = index in that list)."""
    embedding = backbone.get_input_embeddings()
    keep = sorted({*token_ids, *([pad_id] if pad_id is not None else [])})
    keep = [t for t in keep if 0 <= t < embedding.num_embeddings]
    index = torch.tensor(keep, dtype=torch.long, device=embedding.weight.device)
    padding = embedding.padding_idx
    compact = nn.Embedding(
        len(keep),
        embedding.embedding_dim,
        padding_idx=keep.index(padding) if padding is not None and padding in keep else None,
        device=embedding.weight.device,
        dtype=embedding.weight.dtype,
    )
    with torch.no_grad():
        compact.weight.copy_(embedding.weight.index_select(0, index))
    backbone.set_input_embeddings(compact)
    return keep


__all__ = ["compact_vocabulary", "pack", "packed_hidden", "supports_packing"]
