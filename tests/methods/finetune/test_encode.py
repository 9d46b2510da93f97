"""NER sub-token alignment, MLM masking, dynamic padding and length grouping."""

from __future__ import annotations

import random

import pytest

from seebench.methods.finetune.encode import (
    IGNORE,
    TaskCodec,
    align_word_labels,
    group_chunk_batches,
    length_grouped_batches,
    ner_tags,
    words_of,
)
from tests.methods.finetune.conftest import make_data, make_task


@pytest.fixture(scope="module")
def bert_tokenizer(tiny_models):
    from seebench.methods.finetune.arch import load_tokenizer

    return load_tokenizer(tiny_models["bert"], "encoder")


def test_align_labels_first_subtoken_only():
    word_ids = [None, 0, 0, 1, 2, 2, 2, None]
    assert align_word_labels(word_ids, [3, 5, 7]) == [
        IGNORE,
        3,
        IGNORE,
        5,
        7,
        IGNORE,
        IGNORE,
        IGNORE,
    ]


def test_ner_tags_from_labels_and_data():
    task = make_task("ner")
    assert ner_tags(task, make_data(task).train) == ["O", "B-Bug"]
    from dataclasses import replace

    from seebench.tasks.spec import Label

    named = replace(task, labels=(Label("Bug"), Label("I-Class")))
    assert ner_tags(named, []) == ["O", "B-Bug", "I-Bug", "I-Class"]


def test_ner_encoding_labels_first_piece_and_decodes_per_word(bert_tokenizer):
    import torch

    from seebench.data.dataset import Sample

    task = make_task("ner")
    sample = Sample("1", ["the", "qqzzxxyy", "crashes"], ["O", "B-Bug", "O"])
    codec = TaskCodec(task, bert_tokenizer, 64, [sample])
    item = codec.encode([sample])[0]
    pieces = bert_tokenizer.convert_ids_to_tokens(item.input_ids)
    assert pieces[0] == "[CLS]" and pieces[-1] == "[SEP]"
    assert len(item.input_ids) > 5  # the odd word is split into several sub-tokens
    labelled = [i for i, label in enumerate(item.label) if label != IGNORE]
    assert len(labelled) == 3  # one label per word, on its first sub-token
    assert [item.label[i] for i in labelled] == [codec.index[t] for t in sample.target]
    assert labelled == sorted(item.word_positions.values())
    logits = torch.zeros(1, len(item.input_ids), codec.n_outputs)
    logits[0, item.word_positions[1], codec.index["B-Bug"]] = 5.0
    logits[0, :, codec.index["O"]] += 1.0
    batch = codec.collate([item], training=False)
    assert codec.decode(logits, [item], batch) == [(["O", "B-Bug", "O"], None)]


def test_ner_truncated_words_are_predicted_o(bert_tokenizer):
    import torch

    from seebench.data.dataset import Sample

    sample = Sample("1", ["crashes"] * 20, ["O"] * 20)
    codec = TaskCodec(make_task("ner"), bert_tokenizer, 8, [sample])
    item = codec.encode([sample])[0]
    assert len(item.input_ids) == 8
    logits = torch.zeros(1, 8, codec.n_outputs)
    prediction = codec.decode(logits, [item], codec.collate([item], training=False))[0][0]
    assert len(prediction) == 20 and set(prediction) == {"O"}


def test_mlm_masks_only_the_given_words(bert_tokenizer):
    from seebench.data.dataset import Sample

    task = make_task("mlm", mask_token="[MASK]")
    sample = Sample("1", "the user shall [MASK] and [MASK], then it fails", ["add", "delete"])
    codec = TaskCodec(task, bert_tokenizer, 64, [sample], mlm_probability=1.0)
    item = codec.encode([sample])[0]
    assert words_of(sample.input, codec.markers)[3:6] == ["[MASK]", "and", "[MASK]"]
    mask_id = bert_tokenizer.mask_token_id
    add_first = bert_tokenizer("add", add_special_tokens=False)["input_ids"][0]
    delete_first = bert_tokenizer("delete", add_special_tokens=False)["input_ids"][0]
    # evaluation: every given mask is masked and labelled with its word's first sub-token
    batch = codec.collate([item], training=False)
    ids, labels = batch["input_ids"][0].tolist(), batch["labels"][0].tolist()
    masked = [i for i, t in enumerate(ids) if t == mask_id]
    assert len(masked) == 2
    assert [labels[i] for i in masked] == [add_first, delete_first]
    assert all(label == IGNORE for i, label in enumerate(labels) if i not in masked)
    # training with probability 0: still at least one of the verbs is masked, the other shown
    codec.mlm_probability = 0.0
    row = codec.collate([item], training=True, rng=random.Random(3))["input_ids"][0].tolist()
    assert row.count(mask_id) == 1
    assert add_first in row or delete_first in row


def test_mlm_test_inputs_need_no_targets(bert_tokenizer):
    from seebench.data.dataset import Sample

    codec = TaskCodec(make_task("mlm"), bert_tokenizer, 64, [])
    item = codec.encode([Sample("1", "users [MASK] reports", ["export"])], with_labels=False)[0]
    batch = codec.collate([item], training=False)
    assert batch["input_ids"][0].tolist().count(bert_tokenizer.mask_token_id) == 1
    assert set(
        batch.get("labels", batch["input_ids"].new_full((1,), IGNORE)).flatten().tolist()
    ) == {IGNORE}


def test_dynamic_padding_to_multiple_of_8(bert_tokenizer):
    from seebench.data.dataset import Sample

    task = make_task("binary")
    samples = [Sample("1", "crashes", "yes"), Sample("2", "please add a feature now", "no")]
    codec = TaskCodec(task, bert_tokenizer, 128, samples)
    batch = codec.collate(codec.encode(samples), training=True)
    assert batch["input_ids"].shape[1] == 8
    assert batch["attention_mask"].sum().item() == sum(
        len(e.input_ids) for e in codec.encode(samples)
    )
    assert batch["labels"].tolist() == [0, 1]


def test_length_grouped_batches_cover_everything_and_cut_padding():
    rng = random.Random(0)
    lengths = [rng.randint(5, 200) for _ in range(1000)]
    grouped = length_grouped_batches(lengths, 16, random.Random(1), group=True)
    plain = length_grouped_batches(lengths, 16, random.Random(1), group=False)
    assert sorted(i for b in grouped for i in b) == list(range(1000))

    def padded(batches):
        return sum(max(lengths[i] for i in b) * len(b) for b in batches)

    assert padded(grouped) < 0.7 * padded(plain)


def test_group_chunks_are_at_most_a_quarter_of_the_training_set():
    assert group_chunk_batches(689, 32) == 5
    assert group_chunk_batches(100_000, 32) == 50
    assert group_chunk_batches(10, 32) == 1


def test_small_training_sets_get_new_batches_every_epoch():
    lengths = list(range(1, 641))  # 20 batches of 32, every length different
    random.Random(3).shuffle(lengths)
    rng = random.Random(1)
    epochs = [length_grouped_batches(lengths, 32, rng) for _ in range(2)]
    first, second = ({frozenset(b) for b in batches} for batches in epochs)
    assert len(first & second) < 5  # sorted whole, both epochs would have the same 20 batches
    plain = length_grouped_batches(lengths, 32, random.Random(1), group=False)

    def padded(batches):
        return sum(max(lengths[i] for i in b) * len(b) for b in batches)

    for batches in epochs:
        assert sorted(i for b in batches for i in b) == list(range(640))
        assert padded(batches) < 0.7 * padded(plain)  # still grouped by length
