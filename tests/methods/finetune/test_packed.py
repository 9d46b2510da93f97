"""Packed (padding-free) batches and the compacted vocabulary give the padded model's results."""

from __future__ import annotations

import pytest
import torch

from seebench.methods.finetune.arch import load_backbone
from seebench.methods.finetune.encode import TaskCodec
from seebench.methods.finetune.heads import SequenceHeadModel, TokenHeadModel
from seebench.methods.finetune.packed import (
    compact_vocabulary,
    pack,
    packed_hidden,
    supports_packing,
)
from tests.methods.finetune.conftest import make_data, make_task
from tests.methods.finetune.test_train import _run

ROWS = [[2, 7, 8, 9, 3], [2, 11, 3], [2, *range(12, 30), 3], [2, 5, 3]]


def _padded(rows: list[list[int]]) -> tuple[torch.Tensor, torch.Tensor]:
    width = max(map(len, rows))
    ids = torch.zeros(len(rows), width, dtype=torch.long)
    mask = torch.zeros_like(ids)
    for i, row in enumerate(rows):
        ids[i, : len(row)] = torch.tensor(row)
        mask[i, : len(row)] = 1
    return ids, mask


def _model(tiny_models, cls, n_outputs: int = 3):
    backbone, _ = load_backbone(tiny_models["bert"], "base", "sdpa")
    torch.manual_seed(0)
    return cls(backbone, "encoder", n_outputs, 0.1).eval()


def test_pack_indexes_every_token_once():
    batch = pack([[5, 6, 7], [8], [9, 10]])
    assert batch["input_ids"].tolist() == [5, 6, 7, 8, 9, 10]
    assert batch["positions"].tolist() == [0, 1, 2, 0, 0, 1]
    assert batch["starts"].tolist() == [0, 3, 4]
    assert batch["slots"].tolist() == [0, 1, 2, 3, 6, 7]
    assert batch["key_mask"].sum(1).tolist() == [3, 1, 2]
    with pytest.raises(ValueError):
        pack([[1], []])


def test_packed_sequence_logits_loss_and_gradients_match_padded(tiny_models):
    model = _model(tiny_models, SequenceHeadModel)
    labels = torch.tensor([0, 2, 1, 1])
    ids, mask = _padded(ROWS)
    padded = model(ids, mask)
    padded_loss = torch.nn.functional.cross_entropy(padded, labels)
    padded_loss.backward()
    padded_grads = {n: p.grad.clone() for n, p in model.named_parameters() if p.grad is not None}
    model.zero_grad()
    packed = model.forward_packed(pack(ROWS))
    packed_loss = torch.nn.functional.cross_entropy(packed, labels)
    packed_loss.backward()
    assert torch.allclose(packed, padded, atol=1e-5)
    assert abs(float(packed_loss.detach()) - float(padded_loss.detach())) < 1e-5
    for name, grad in padded_grads.items():
        if "pooler" in name:
            continue
        assert torch.allclose(model.get_parameter(name).grad, grad, atol=1e-5), name


def test_packed_token_logits_follow_the_stream(tiny_models):
    model = _model(tiny_models, TokenHeadModel)
    ids, mask = _padded(ROWS)
    with torch.no_grad():
        padded = model(ids, mask)
        packed = model.forward_packed(pack(ROWS))
    expected = torch.cat([padded[i, : len(row)] for i, row in enumerate(ROWS)])
    assert packed.shape == expected.shape
    assert torch.allclose(packed, expected, atol=1e-5)


def test_first_only_reads_the_first_token_of_each_sequence(tiny_models):
    backbone = _model(tiny_models, SequenceHeadModel).backbone
    with torch.no_grad():
        every = packed_hidden(backbone, pack(ROWS), first_only=False)
        first = packed_hidden(backbone, pack(ROWS), first_only=True)
    assert torch.allclose(first, every[pack(ROWS)["starts"]], atol=1e-5)


def test_only_plain_bert_encoders_are_packed(tiny_models):
    assert supports_packing(load_backbone(tiny_models["bert"], "base", "sdpa")[0])
    for arch in ("gpt2", "t5"):
        assert not supports_packing(load_backbone(tiny_models[arch], "base", "sdpa")[0])


def test_compact_vocabulary_keeps_the_outputs(tiny_models):
    from seebench.methods.finetune.arch import load_tokenizer, read_config

    task = make_task("multiclass")
    data = make_data(task)
    tokenizer = load_tokenizer(tiny_models["bert"], "encoder")
    codec = TaskCodec(task, tokenizer, 32, data.train)
    train, test = codec.encode(data.train), codec.encode(data.test, with_labels=False)
    model = _model(tiny_models, SequenceHeadModel)
    with torch.no_grad():
        before = model(**_as_kwargs(codec.collate(test, training=False)))
    full = read_config(tiny_models["bert"])["vocab_size"]
    keep = compact_vocabulary(
        model.backbone, {t for e in train + test for t in e.input_ids}, codec.pad_id
    )
    codec.renumber([train, test], keep)
    assert len(keep) < full and model.backbone.get_input_embeddings().num_embeddings == len(keep)
    assert max(t for e in train + test for t in e.input_ids) < len(keep)
    with torch.no_grad():
        after = model(**_as_kwargs(codec.collate(test, training=False)))
    assert torch.allclose(before, after, atol=1e-6)


def _as_kwargs(batch):
    return {"input_ids": batch["input_ids"], "attention_mask": batch["attention_mask"]}


@pytest.mark.parametrize("task_type", ["multiclass", "ner"])
def test_training_records_packing_and_the_vocabulary(tiny_models, tmp_path, task_type):
    _, on = _run(tiny_models, "bert", task_type, tmp_path / "on")
    assert on.info["packed_batches"] is True
    vocabulary = on.info["vocabulary"]
    assert vocabulary["kept"] < vocabulary["of"]
    _, off = _run(
        tiny_models, "bert", task_type, tmp_path / "off", packing=False, compact_vocabulary=False
    )
    assert off.info["packed_batches"] is False and off.info["vocabulary"] is None
    assert len(on.predictions) == len(off.predictions)


def test_packing_is_off_where_it_does_not_apply(tiny_models, tmp_path):
    _, decoder = _run(tiny_models, "gpt2", "binary", tmp_path / "gpt2")
    assert decoder.info["packed_batches"] is False
    _, mlm = _run(tiny_models, "bert", "mlm", tmp_path / "mlm")
    assert mlm.info["packed_batches"] is False and mlm.info["vocabulary"] is None
