"""Batch layout of local generation: the shared token prefix, length-sorted batches, padding."""

from __future__ import annotations

import pytest

from seebench.models.backends.batching import (
    length_sorted_batches,
    pad_batch,
    shared_prefix_length,
)


def test_shared_prefix_is_the_common_start_of_every_prompt():
    assert shared_prefix_length([[1, 2, 3, 4], [1, 2, 3, 9, 9], [1, 2, 7]]) == 2
    assert shared_prefix_length([[5, 1], [6, 1]]) == 0
    assert shared_prefix_length([]) == 0


def test_shared_prefix_leaves_every_prompt_a_token_of_its_own():
    assert shared_prefix_length([[1, 2, 3], [1, 2, 3]]) == 2
    assert shared_prefix_length([[1, 2, 3], [1, 2, 3, 4]]) == 2
    assert shared_prefix_length([[1]]) == 0


def test_batches_group_similar_lengths_longest_first_and_cover_every_prompt():
    batches = length_sorted_batches([3, 9, 1, 7, 5], batch_size=2)
    assert batches == [[1, 3], [4, 0], [2]]
    assert sorted(i for b in batches for i in b) == list(range(5))


def test_padding_goes_between_the_shared_prefix_and_each_suffix():
    pytest.importorskip("torch")
    batch = pad_batch([[7, 8, 1, 2, 3], [7, 8, 4]], pad_id=0, device="cpu", prefix_length=2)
    assert batch.input_ids.tolist() == [[7, 8, 1, 2, 3], [7, 8, 0, 0, 4]]
    assert batch.attention_mask.tolist() == [[1, 1, 1, 1, 1], [1, 1, 0, 0, 1]]
    plain = pad_batch([[7, 8, 1, 2, 3], [7, 8, 4]], pad_id=0, device="cpu")
    assert plain.input_ids.tolist() == [[7, 8, 1, 2, 3], [0, 0, 7, 8, 4]]
    assert plain.attention_mask.tolist() == [[1, 1, 1, 1, 1], [0, 0, 1, 1, 1]]
    assert plain.prefix_cache is None
