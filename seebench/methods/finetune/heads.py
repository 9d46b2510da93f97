"""Task heads (SELU Fig. 3): pooling, dropout and a linear layer on top of a backbone.

Pooling per architecture family:

* encoder-only: the first token's hidden state ([CLS]);
* decoder-only: the last non-padding token's hidden state (padding is on the right);
* encoder-decoder (our choice): the decoder is run for one step from its start token, so its
  hidden state has attended over the whole encoded input through cross-attention; that state
  is pooled. This uses the full encoder-decoder stack (as T5's own classification head does)
  while costing a single decoder position instead of re-decoding the whole input.

Token classification (NER) uses the encoder's per-token states (encoder-only and
encoder-decoder models). MLM uses the model's own masked-LM head.
"""

from __future__ import annotations

from typing import Any

import torch
from torch import nn

from seebench.methods.finetune.arch import DECODER, ENCODER_DECODER


def hidden_size(config: Any) -> int:
    for key in ("hidden_size", "d_model", "n_embd", "dim"):
        value = getattr(config, key, None)
        if isinstance(value, int) and value > 0:
            return value
    raise ValueError(f"cannot tell the hidden size of {type(config).__name__}")


def decoder_start_id(config: Any) -> int:
    for key in ("decoder_start_token_id", "pad_token_id", "bos_token_id"):
        value = getattr(config, key, None)
        if isinstance(value, int):
            return value
    return 0


def pool(hidden: torch.Tensor, attention_mask: torch.Tensor, family: str) -> torch.Tensor:
    """First token (encoders, encoder-decoder step) or last non-padding token (decoders)."""
    if family == DECODER:
        last = attention_mask.long().sum(dim=1).clamp(min=1) - 1
        return hidden[torch.arange(hidden.size(0), device=hidden.device), last]
    return hidden[:, 0]


class SequenceHeadModel(nn.Module):
    """Backbone + pooling + dropout + linear: one output vector per input sequence."""

    def __init__(self, backbone: nn.Module, family: str, n_outputs: int, dropout: float):
        super().__init__()
        self.backbone = backbone
        self.family = family
        self.dropout = nn.Dropout(dropout)
        self.head = nn.Linear(hidden_size(backbone.config), n_outputs)
        self.start_id = decoder_start_id(backbone.config)

    def forward(self, input_ids: torch.Tensor, attention_mask: torch.Tensor) -> torch.Tensor:
        if self.family == ENCODER_DECODER:
            start = torch.full(
                (input_ids.size(0), 1),
                self.start_id,
                dtype=input_ids.dtype,
                device=input_ids.device,
            )
            out = self.backbone(
                input_ids=input_ids,
                attention_mask=attention_mask,
                decoder_input_ids=start,
                use_cache=False,
            )
            pooled = out.last_hidden_state[:, 0]
        else:
            kwargs = {"use_cache": False} if self.family == DECODER else {}
            out = self.backbone(input_ids=input_ids, attention_mask=attention_mask, **kwargs)
            pooled = pool(out.last_hidden_state, attention_mask, self.family)
        return self.head(self.dropout(pooled))

    def forward_packed(self, batch: dict[str, Any]) -> torch.Tensor:
        """Logits ``[sequences, outputs]`` of a :func:`~seebench.methods.finetune.packed.pack`
        batch (encoder family: the first token is pooled)."""
        from seebench.methods.finetune.packed import packed_hidden

        return self.head(self.dropout(packed_hidden(self.backbone, batch, first_only=True)))


class TokenHeadModel(nn.Module):
    """Encoder states + dropout + linear: one output vector per sub-token (NER)."""

    def __init__(self, backbone: nn.Module, family: str, n_outputs: int, dropout: float):
        super().__init__()
        self.backbone: Any = backbone  # a transformers model (get_encoder() is its own)
        self.family = family
        self.dropout = nn.Dropout(dropout)
        self.head = nn.Linear(hidden_size(backbone.config), n_outputs)

    def forward(self, input_ids: torch.Tensor, attention_mask: torch.Tensor) -> torch.Tensor:
        if self.family == ENCODER_DECODER:
            encoder = self.backbone.get_encoder()
            hidden = encoder(input_ids=input_ids, attention_mask=attention_mask).last_hidden_state
        else:
            hidden = self.backbone(
                input_ids=input_ids, attention_mask=attention_mask
            ).last_hidden_state
        return self.head(self.dropout(hidden))

    def forward_packed(self, batch: dict[str, Any]) -> torch.Tensor:
        """Logits ``[tokens, outputs]`` of a :func:`~seebench.methods.finetune.packed.pack`
        batch, in stream order."""
        from seebench.methods.finetune.packed import packed_hidden

        return self.head(self.dropout(packed_hidden(self.backbone, batch, first_only=False)))


class MaskedLMModel(nn.Module):
    """The model's own masked-LM head: one vocabulary distribution per sub-token."""

    def __init__(self, model: nn.Module):
        super().__init__()
        self.backbone = model

    def forward(self, input_ids: torch.Tensor, attention_mask: torch.Tensor) -> torch.Tensor:
        return self.backbone(input_ids=input_ids, attention_mask=attention_mask).logits


def apply_lora(
    model: SequenceHeadModel | TokenHeadModel | MaskedLMModel,
    r: int,
    alpha: int,
    dropout: float,
    targets: list[str] | None,
) -> dict[str, Any]:
    """Wrap ``model.backbone`` with LoRA adapters; the task head stays fully trainable."""
    from peft import LoraConfig, get_peft_model
    from peft.utils.constants import TRANSFORMERS_MODELS_TO_LORA_TARGET_MODULES_MAPPING as DEFAULTS

    backbone = model.backbone
    model_type = getattr(backbone.config, "model_type", "")
    chosen = targets or DEFAULTS.get(model_type)
    if not chosen:
        from seebench.errors import SeebenchError

        raise SeebenchError(
            f"finetune: no default LoRA target modules for model type {model_type!r}; "
            "pass -o lora_targets=name1,name2"
        )
    config = LoraConfig(
        r=int(r), lora_alpha=int(alpha), lora_dropout=float(dropout), target_modules=list(chosen)
    )
    model.backbone = get_peft_model(backbone, config)
    if isinstance(model, MaskedLMModel):  # the prediction head stays trainable
        for name, param in model.backbone.named_parameters():
            if (
                any(key in name for key in ("cls.", "lm_head", "vocab_", "pred"))
                and "lora_" not in name
            ):
                param.requires_grad = True
    trainable = sum(p.numel() for p in model.parameters() if p.requires_grad)
    total = sum(p.numel() for p in model.parameters())
    return {
        "lora_r": int(r),
        "lora_alpha": int(alpha),
        "lora_targets": list(chosen),
        "trainable_parameters": trainable,
        "total_parameters": total,
    }
