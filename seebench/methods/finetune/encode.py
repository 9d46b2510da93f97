"""From samples to tensors and from outputs back to predictions, per task type.

* binary / multiclass: label index, cross-entropy; inference = softmax argmax.
* multilabel: multi-hot vector, binary cross-entropy; inference = sigmoid > 0.5.
* regression: the target standardised with the training mean/std, MSE; inference = the
  de-standardised output clipped to ``task.value_range``.
* ner: ``input`` is a word list, ``target`` a BIO tag per word. Words are split into
  sub-tokens; only the FIRST sub-token of a word carries its tag, the others (and special
  tokens) get -100 and are ignored by the loss; a word's prediction is read at its first
  sub-token (words lost to truncation are predicted ``O``).
* mlm: ``input`` is a word list (or a string split on whitespace) in which masked words are
  marker tokens (``[MASK]``, ``<mask>``); ``target`` lists the hidden words in order. Each
  masked word becomes ONE mask token whose label is the word's first sub-token. In training
  the words behind the markers (SELU: POS verbs) are restored and each is masked again with
  probability ``mlm_probability`` (0.5, SELU §IV-B; at least one per sample) at every batch;
  validation and test mask all of them.

Batches are padded dynamically (to the longest sequence, rounded up to a multiple of 8).
"""

from __future__ import annotations

import math
import random
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from seebench.data.dataset import Sample
from seebench.errors import SeebenchError
from seebench.tasks.spec import TaskSpec
from seebench.tasks.types import LABEL, LABEL_SET, MASKED_WORDS, NUMBER, TAG_SEQUENCE

IGNORE = -100
MASK_MARKERS = ("[MASK]", "<mask>", "<MASK>", "[mask]")


def text_of(value: Any) -> str:
    """A model input as one string (dict values and lists are joined)."""
    if isinstance(value, str):
        return value
    if isinstance(value, dict):
        return "\n".join(str(v) for v in value.values() if v not in (None, ""))
    if isinstance(value, (list, tuple)):
        return " ".join(str(v) for v in value)
    return "" if value is None else str(value)


def words_of(value: Any, markers: tuple[str, ...] = ()) -> list[str]:
    """A word list; in strings, mask ``markers`` are split off even when glued to punctuation."""
    if isinstance(value, dict):
        value = value.get("tokens", value.get("words", value.get("text", "")))
    if isinstance(value, str):
        if not markers:
            return value.split()
        pattern = "(" + "|".join(re.escape(m) for m in markers) + ")"
        return [
            w
            for part in re.split(pattern, value)
            for w in ([part] if part in markers else part.split())
        ]
    return [str(v) for v in value]


def align_word_labels(word_ids: list[int | None], word_labels: list[int]) -> list[int]:
    """Sub-token labels: the word's label on its first sub-token, -100 elsewhere."""
    labels, previous = [], None
    for word in word_ids:
        if word is None or word == previous:
            labels.append(IGNORE)
        else:
            labels.append(word_labels[word] if word < len(word_labels) else IGNORE)
        previous = word if word is not None else previous
    return labels


def first_subtoken_positions(word_ids: list[int | None]) -> dict[int, int]:
    positions: dict[int, int] = {}
    for index, word in enumerate(word_ids):
        if word is not None and word not in positions:
            positions[word] = index
    return positions


@dataclass
class Encoded:
    """One tokenised sample (``label`` type depends on the task type)."""

    input_ids: list[int]
    label: Any = None
    words: list[list[int]] | None = None  # MLM: sub-token ids per word
    masked: list[int] | None = None  # MLM: indices of the masked words
    word_positions: dict[int, int] | None = None  # NER: word -> first sub-token position
    n_words: int = 0  # NER: words in the input (truncated ones are predicted "O")


class TaskCodec:
    """Encodes one task's samples for the model kind and decodes model outputs."""

    def __init__(
        self,
        task: TaskSpec,
        tokenizer: Any,
        max_length: int,
        train: list[Sample],
        mlm_probability: float = 0.5,
    ):
        self.task, self.tokenizer, self.max_length = task, tokenizer, max_length
        self.mlm_probability = mlm_probability
        custom = task.raw.get("mask_token")
        self.markers = (*MASK_MARKERS, str(custom)) if custom else MASK_MARKERS
        self.target_kind = task.target_kind
        self.is_binary = task.is_binary
        self.kind = (
            "token"
            if self.target_kind == TAG_SEQUENCE
            else "mlm"
            if self.target_kind == MASKED_WORDS
            else "sequence"
        )
        self.label_names = list(task.label_names)
        self.mean, self.std = 0.0, 1.0
        if self.target_kind == NUMBER:
            values = [float(s.target) for s in train]
            self.mean = sum(values) / len(values) if values else 0.0
            var = sum((v - self.mean) ** 2 for v in values) / max(1, len(values) - 1)
            self.std = math.sqrt(var) or 1.0
        if self.target_kind in (LABEL, LABEL_SET) and not self.label_names:
            seen = sorted(
                {
                    t
                    for s in train
                    for t in (s.target if self.target_kind == LABEL_SET else [s.target])
                }
            )
            self.label_names = [str(t) for t in seen]
        if self.target_kind == TAG_SEQUENCE:
            self.label_names = ner_tags(task, train)
        self.index = {name: i for i, name in enumerate(self.label_names)}
        self.pad_id = tokenizer.pad_token_id  # renumbered by :meth:`renumber`

    @property
    def n_outputs(self) -> int:
        if self.target_kind == NUMBER:
            return 1
        if self.is_binary:
            return max(2, len(self.label_names))
        return len(self.label_names)

    # -- encoding ---------------------------------------------------------------------------
    def encode(self, samples: list[Sample], with_labels: bool = True) -> list[Encoded]:
        if self.target_kind == TAG_SEQUENCE:
            return [self._encode_ner(s, with_labels) for s in samples]
        if self.target_kind == MASKED_WORDS:
            return [self._encode_mlm(s, with_labels) for s in samples]
        texts = [text_of(s.input) for s in samples]
        ids = (
            self.tokenizer(texts, truncation=True, max_length=self.max_length)["input_ids"]
            if texts
            else []
        )
        return [
            Encoded(i, self._sequence_label(s) if with_labels else None)
            for s, i in zip(samples, ids, strict=True)
        ]

    def _sequence_label(self, sample: Sample) -> Any:
        target = sample.target
        if self.target_kind == NUMBER:
            return (float(target) - self.mean) / self.std
        if self.target_kind == LABEL_SET:
            vector = [0.0] * len(self.label_names)
            for name in target or []:
                if str(name) not in self.index:
                    raise SeebenchError(
                        f"task {self.task.name!r}: sample {sample.id}: unknown label {name!r}"
                    )
                vector[self.index[str(name)]] = 1.0
            return vector
        if str(target) not in self.index:
            raise SeebenchError(
                f"task {self.task.name!r}: sample {sample.id}: unknown label {target!r}"
            )
        return self.index[str(target)]

    def _encode_ner(self, sample: Sample, with_labels: bool) -> Encoded:
        words = words_of(sample.input)
        enc = self.tokenizer(
            words, is_split_into_words=True, truncation=True, max_length=self.max_length
        )
        word_ids = enc.word_ids()
        label = None
        if with_labels:
            tags = [self.index.get(str(t), self.index["O"]) for t in sample.target]
            label = align_word_labels(word_ids, tags)
        return Encoded(
            enc["input_ids"],
            label,
            word_positions=first_subtoken_positions(word_ids),
            n_words=len(words),
        )

    def _encode_mlm(self, sample: Sample, with_labels: bool) -> Encoded:
        words = words_of(sample.input, self.markers)
        masked = [i for i, w in enumerate(words) if w in self.markers]
        targets = (
            list(sample.target)
            if with_labels and isinstance(sample.target, (list, tuple))
            else ([sample.target] if with_labels and isinstance(sample.target, str) else [])
        )
        filled = list(words)
        known = set()
        for position, word in zip(masked, targets, strict=False):
            filled[position] = str(word)
            known.add(position)
        shown = ["x" if i in masked and i not in known else w for i, w in enumerate(filled)]
        pieces: list[list[int]] = [[] for _ in shown]
        if shown:
            enc = self.tokenizer(shown, is_split_into_words=True, add_special_tokens=False)
            for token_id, word in zip(enc["input_ids"], enc.word_ids(), strict=True):
                if word is not None and not (word in masked and word not in known):
                    pieces[word].append(token_id)
        return Encoded([], None, words=pieces, masked=masked)

    # -- batching -----------------------------------------------------------------------------
    def length(self, item: Encoded) -> int:
        return (
            len(item.input_ids) if item.words is None else sum(len(p) or 1 for p in item.words) + 2
        )

    def collate(
        self,
        items: list[Encoded],
        training: bool,
        rng: random.Random | None = None,
        pad_to_multiple_of: int | None = 8,
    ):
        import torch

        rows: Sequence[list[int]]
        labels: Sequence[Any]
        if self.target_kind == MASKED_WORDS:
            rows, labels = zip(
                *(self._mlm_row(it, training, rng or random.Random(0)) for it in items), strict=True
            )
        else:
            rows, labels = [it.input_ids for it in items], [it.label for it in items]
        width = max(len(r) for r in rows)
        if pad_to_multiple_of:
            width = (
                min(max(width, 1), self.max_length)
                if width >= self.max_length
                else int(math.ceil(width / pad_to_multiple_of) * pad_to_multiple_of)
            )
        pad = self.pad_id
        input_ids = torch.full((len(rows), width), pad, dtype=torch.long)
        mask = torch.zeros((len(rows), width), dtype=torch.long)
        for i, row in enumerate(rows):
            input_ids[i, : len(row)] = torch.tensor(row, dtype=torch.long)
            mask[i, : len(row)] = 1
        batch = {"input_ids": input_ids, "attention_mask": mask}
        if labels[0] is None:
            return batch
        batch["labels"] = self._label_tensor(labels, width)
        return batch

    def collate_packed(self, items: list[Encoded]) -> dict[str, Any]:
        """A padding-free batch (:func:`~seebench.methods.finetune.packed.pack`) of sequence
        or token tasks; token labels follow the flat token stream."""
        from seebench.methods.finetune.packed import pack

        if self.kind == "mlm":
            raise SeebenchError("finetune: packed batches do not support MLM")
        batch = pack([it.input_ids for it in items])
        labels = [it.label for it in items]
        if labels[0] is not None:
            if self.kind == "token":
                labels = [[value for row in labels for value in row]]
            batch["labels"] = self._label_tensor(labels, None)
            if self.kind == "token":
                batch["labels"] = batch["labels"][0]
        return batch

    def renumber(self, items: list[list[Encoded]], keep: list[int]) -> None:
        """Map token ids to positions in ``keep`` (a compacted vocabulary), in place."""
        new = {old: i for i, old in enumerate(keep)}
        for group in items:
            for item in group:
                item.input_ids = [new[t] for t in item.input_ids]
        self.pad_id = new.get(self.pad_id, 0)

    def _label_tensor(self, labels: Sequence[Any], width: int | None):
        import torch

        if self.kind in ("token", "mlm"):
            width = width or max(len(row) for row in labels)
            tensor = torch.full((len(labels), width), IGNORE, dtype=torch.long)
            for i, row in enumerate(labels):
                tensor[i, : len(row)] = torch.tensor(row, dtype=torch.long)
            return tensor
        if self.target_kind in (LABEL_SET, NUMBER):
            return torch.tensor(labels, dtype=torch.float32)
        return torch.tensor(labels, dtype=torch.long)

    def _mlm_row(
        self, item: Encoded, training: bool, rng: random.Random
    ) -> tuple[list[int], list[int] | None]:
        tok = self.tokenizer
        if tok.mask_token_id is None:
            raise SeebenchError(
                "finetune: the tokenizer has no mask token; MLM needs an encoder model"
            )
        chosen = set(item.masked or [])
        if training and chosen:
            candidates = [i for i in chosen if (item.words or [])[i]]
            chosen = {i for i in candidates if rng.random() < self.mlm_probability} or (
                {rng.choice(candidates)} if candidates else set()
            )
        prefix = [tok.cls_token_id] if tok.cls_token_id is not None else []
        suffix = [tok.sep_token_id] if tok.sep_token_id is not None else []
        ids, labels = list(prefix), [IGNORE] * len(prefix)
        budget = self.max_length - len(suffix)
        for index, pieces in enumerate(item.words or []):
            if index in chosen or not pieces:
                if len(ids) + 1 > budget:
                    break
                ids.append(tok.mask_token_id)
                labels.append(pieces[0] if pieces else IGNORE)
            else:
                if len(ids) + len(pieces) > budget:
                    break
                ids.extend(pieces)
                labels.extend([IGNORE] * len(pieces))
        ids.extend(suffix)
        labels.extend([IGNORE] * len(suffix))
        return ids, labels

    # -- loss and decoding --------------------------------------------------------------------
    def loss(self, logits, labels):
        """(sum of per-unit losses, number of units): units are examples or labelled tokens."""
        import torch.nn.functional as F

        logits = logits.float()
        if self.kind in ("token", "mlm"):
            units = int((labels != IGNORE).sum())
            loss = F.cross_entropy(
                logits.reshape(-1, logits.size(-1)),
                labels.reshape(-1),
                ignore_index=IGNORE,
                reduction="sum",
            )
            return loss, units
        if self.target_kind == LABEL_SET:
            loss = F.binary_cross_entropy_with_logits(
                logits, labels, reduction="sum"
            ) / labels.size(1)
        elif self.target_kind == NUMBER:
            loss = F.mse_loss(logits.squeeze(-1), labels, reduction="sum")
        else:
            loss = F.cross_entropy(logits, labels, reduction="sum")
        return loss, labels.size(0)

    def decode(self, logits, items: list[Encoded], batch) -> list[tuple[Any, float | None]]:
        """(prediction, confidence) per item, from one batch's logits."""
        import torch

        logits = logits.float()
        out: list[tuple[Any, float | None]] = []
        if self.target_kind == NUMBER:
            low_high = self.task.value_range
            for value in logits.squeeze(-1).tolist():
                value = value * self.std + self.mean
                if low_high:
                    value = min(max(value, low_high[0]), low_high[1])
                out.append((float(value), None))
        elif self.target_kind == LABEL_SET:
            probs = torch.sigmoid(logits)
            for row in probs.tolist():
                out.append(
                    ([n for n, p in zip(self.label_names, row, strict=True) if p > 0.5], None)
                )
        elif self.kind == "sequence":
            probs = torch.softmax(logits, dim=-1)
            conf, best = probs.max(dim=-1)
            for b, c in zip(best.tolist(), conf.tolist(), strict=True):
                out.append((self.label_names[b] if b < len(self.label_names) else None, float(c)))
        elif self.target_kind == TAG_SEQUENCE:
            best = logits.argmax(dim=-1).tolist()
            for row, item in zip(best, items, strict=True):
                positions = item.word_positions or {}
                out.append(
                    (
                        [
                            self.label_names[row[positions[w]]] if w in positions else "O"
                            for w in range(item.n_words)
                        ],
                        None,
                    )
                )
        else:  # mlm
            best = logits.argmax(dim=-1)
            mask_id = self.tokenizer.mask_token_id
            for i, item in enumerate(items):
                row_ids = batch["input_ids"][i]
                found = [
                    self._clean(int(best[i, j]))
                    for j in (row_ids == mask_id).nonzero().flatten().tolist()
                ]
                n = len(item.masked or [])
                out.append((found[:n] + [""] * max(0, n - len(found)), None))
        return out

    def _clean(self, token_id: int) -> str:
        token = self.tokenizer.convert_ids_to_tokens(token_id)
        return str(token).replace("##", "").replace("Ġ", "").replace("▁", "").strip().lower()


def ner_tags(task: TaskSpec, train: list[Sample]) -> list[str]:
    """The BIO tag set: ``O`` first, then tags seen in training and tags implied by labels."""
    tags = {str(t) for s in train for t in (s.target or [])}
    for name in task.label_names:
        if name == "O" or name[:2] in ("B-", "I-"):
            tags.add(name)
        else:
            tags.update((f"B-{name}", f"I-{name}"))
    tags.discard("O")
    return ["O", *sorted(tags, key=lambda t: (t[2:], t[:2]))]


def group_chunk_batches(n_examples: int, batch_size: int, most: int = 50) -> int:
    """Batches per length-sorted chunk: ``most``, or fewer so that ``n_examples`` make at least
    four chunks (the rule of the Hugging Face Trainer's ``LengthGroupedSampler``)."""
    return max(1, min(n_examples // (4 * max(1, batch_size)), most))


def length_grouped_batches(
    lengths: list[int],
    batch_size: int,
    rng: random.Random,
    group: bool = True,
    mega: int | None = None,
) -> list[list[int]]:
    """Shuffled batches of indices; with ``group``, similar lengths share a batch (less padding).

    Grouping shuffles the examples, cuts them into chunks of ``mega`` batches, sorts each chunk
    by length and shuffles the batches. ``mega`` defaults to :func:`group_chunk_batches`: 50
    batches, but never more than a quarter of the training set, so a small training set is
    sorted in at least four chunks and every epoch draws new batches (sorting it whole would
    give nearly the same batches of near-equal lengths every epoch).
    """
    order = list(range(len(lengths)))
    rng.shuffle(order)
    if group:
        if mega is None:
            mega = group_chunk_batches(len(lengths), batch_size)
        size = batch_size * mega
        chunks = [
            sorted(order[i : i + size], key=lambda k: -lengths[k])
            for i in range(0, len(order), size)
        ]
        order = [k for chunk in chunks for k in chunk]
    batches = [order[i : i + batch_size] for i in range(0, len(order), batch_size)]
    if group:
        rng.shuffle(batches)
    return batches
