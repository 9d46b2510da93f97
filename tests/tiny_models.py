"""Tiny models built on the fly for tests: no downloads, well under 1 MB on disk.

``build_tiny_gpt2(directory)`` trains a byte-level BPE tokenizer with the ``tokenizers``
library on a few sentences and saves it with a randomly initialised 2-layer GPT-2 as a
transformers model directory (``config.json``, ``model.safetensors``, tokenizer files).
Its replies are random text; it exercises loading, batching and generation, not accuracy.
"""

from __future__ import annotations

from pathlib import Path

EOS = "<|endoftext|>"

CORPUS = [
    "Fix crash when saving a file with an empty name.",
    "Add support for dark mode in the settings page.",
    "The system shall export every report as a PDF file.",
    "Refactor the parser into smaller functions without changing behaviour.",
    "Is this a bug, a feature request or a question? Answer yes or no.",
    "Label: bug. Label: other. Labels: a, b, none. Value: 3.5",
    "Setting: Task: Answer format: Reply with exactly one label.",
]

#: A minimal chat template (ChatML-like) for testing the chat path.
CHAT_TEMPLATE = (
    "{% for message in messages %}<|{{ message['role'] }}|>{{ message['content'] }}\n{% endfor %}"
    "{% if add_generation_prompt %}<|assistant|>{% endif %}"
)


def build_tiny_tokenizer(vocab_size: int = 320, chat_template: str | None = None):
    """A byte-level BPE ``PreTrainedTokenizerFast`` trained on :data:`CORPUS`."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import PreTrainedTokenizerFast

    tokenizer = Tokenizer(models.BPE())
    tokenizer.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tokenizer.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=vocab_size,
        special_tokens=[EOS],
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        show_progress=False,
    )
    tokenizer.train_from_iterator(CORPUS, trainer)
    fast = PreTrainedTokenizerFast(
        tokenizer_object=tokenizer, eos_token=EOS, bos_token=EOS, unk_token=EOS
    )
    if chat_template:
        fast.chat_template = chat_template
    return fast


def build_tiny_gpt2(
    directory: Path,
    *,
    chat_template: str | None = None,
    seed: int = 0,
    n_embd: int = 32,
    n_layer: int = 2,
    n_positions: int = 1024,
) -> Path:
    """Save a random tiny GPT-2 and its tokenizer in ``directory``; returns ``directory``."""
    import torch
    from transformers import GPT2Config, GPT2LMHeadModel

    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    tokenizer = build_tiny_tokenizer(chat_template=chat_template)
    tokenizer.save_pretrained(directory)
    torch.manual_seed(seed)
    eos_id = tokenizer.convert_tokens_to_ids(EOS)
    config = GPT2Config(
        vocab_size=len(tokenizer),
        n_positions=n_positions,
        n_embd=n_embd,
        n_layer=n_layer,
        n_head=2,
        bos_token_id=eos_id,
        eos_token_id=eos_id,
    )
    GPT2LMHeadModel(config).save_pretrained(directory)
    return directory


# --- encoder and encoder-decoder builders (fine-tuning tests) -------------------------------

SE_WORDS = [
    "the",
    "app",
    "crashes",
    "when",
    "I",
    "click",
    "save",
    "button",
    "error",
    "exception",
    "fails",
    "wrong",
    "broken",
    "freezes",
    "login",
    "please",
    "add",
    "support",
    "for",
    "dark",
    "mode",
    "feature",
    "request",
    "how",
    "do",
    "I",
    "configure",
    "the",
    "build",
    "question",
    "system",
    "shall",
    "allow",
    "users",
    "to",
    "export",
    "reports",
    "within",
    "seconds",
    "must",
    "be",
    "secure",
    "and",
    "fast",
    "the",
    "user",
    "can",
    "create",
    "edit",
    "delete",
    "tickets",
    "refactor",
    "rename",
    "extract",
    "method",
    "fix",
    "bug",
    "in",
    "parser",
    "test",
    "docs",
    "commit",
    "message",
    "update",
    "readme",
    "version",
    "release",
    "java",
    "python",
    "code",
    "review",
    "comment",
    "story",
    "points",
]


def se_corpus(n: int = 400, seed: int = 0) -> list[str]:
    """Random short sentences over a small SE vocabulary (for WordPiece training)."""
    import random

    rng = random.Random(seed)
    return [" ".join(rng.choice(SE_WORDS) for _ in range(rng.randint(4, 14))) for _ in range(n)]


def _wordpiece_tokenizer(specials: list[str], unk: str, single: str, pair: str):
    from tokenizers import (
        Tokenizer,
        decoders,
        models,
        normalizers,
        pre_tokenizers,
        processors,
        trainers,
    )

    tok = Tokenizer(models.WordPiece(unk_token=unk))
    tok.normalizer = normalizers.BertNormalizer(lowercase=True)
    tok.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    tok.decoder = decoders.WordPiece()
    tok.train_from_iterator(
        se_corpus(),
        trainers.WordPieceTrainer(vocab_size=300, special_tokens=specials, show_progress=False),
    )
    used = [t for t in specials if t in single or t in pair]
    tok.post_processor = processors.TemplateProcessing(
        single=single, pair=pair, special_tokens=[(t, tok.token_to_id(t)) for t in used]
    )
    return tok


def build_tiny_bert(directory: Path, seed: int = 0) -> Path:
    """A random 2-layer BERT (hidden 32) with a masked-LM head and a WordPiece tokenizer."""
    import torch
    from transformers import BertConfig, BertForMaskedLM, PreTrainedTokenizerFast

    specials = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]
    tok = _wordpiece_tokenizer(specials, "[UNK]", "[CLS] $A [SEP]", "[CLS] $A [SEP] $B:1 [SEP]:1")
    fast = PreTrainedTokenizerFast(
        tokenizer_object=tok,
        unk_token="[UNK]",
        pad_token="[PAD]",
        cls_token="[CLS]",
        sep_token="[SEP]",
        mask_token="[MASK]",
        model_max_length=128,
    )
    torch.manual_seed(seed)
    config = BertConfig(
        vocab_size=tok.get_vocab_size(),
        hidden_size=32,
        num_hidden_layers=2,
        num_attention_heads=2,
        intermediate_size=64,
        max_position_embeddings=128,
        pad_token_id=0,
    )
    return _save_model(BertForMaskedLM(config), fast, directory)


def build_tiny_t5(directory: Path, seed: int = 0) -> Path:
    """A random 2+2-layer T5 (d_model 32) with a WordPiece tokenizer appending ``</s>``."""
    import torch
    from transformers import PreTrainedTokenizerFast, T5Config, T5ForConditionalGeneration

    tok = _wordpiece_tokenizer(["<pad>", "</s>", "<unk>"], "<unk>", "$A </s>", "$A </s> $B </s>")
    fast = PreTrainedTokenizerFast(
        tokenizer_object=tok,
        unk_token="<unk>",
        pad_token="<pad>",
        eos_token="</s>",
        model_max_length=128,
    )
    torch.manual_seed(seed)
    config = T5Config(
        vocab_size=tok.get_vocab_size(),
        d_model=32,
        d_ff=64,
        d_kv=16,
        num_layers=2,
        num_decoder_layers=2,
        num_heads=2,
        pad_token_id=0,
        eos_token_id=1,
        decoder_start_token_id=0,
    )
    return _save_model(T5ForConditionalGeneration(config), fast, directory)


def _save_model(model, tokenizer, directory: Path) -> Path:
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    model.save_pretrained(directory)
    tokenizer.save_pretrained(directory)
    return directory
