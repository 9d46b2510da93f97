"""Autocomplete from a base (completion) model through an OpenAI-compatible ``/completions``
endpoint, as RealHumanEval studied CodeLlama base models and GPT-3.5-instruct.

The code before and after the cursor is sent either as ``prompt`` and ``suffix`` (format
``suffix``: OpenAI's instruct models, vLLM and llama.cpp servers that support it), as the
prefix alone (``prefix``), or as one prompt in the fill-in-the-middle format of a code model
(``codellama``, ``starcoder``, ``deepseek``, ``qwen``). The reply's text is what is inserted.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any

from seebench.errors import SeebenchError
from seebench.secrets import register_secret, scrub

#: Fill-in-the-middle prompt templates of common code models ({prefix} and {suffix}).
FIM_TEMPLATES = {
    "codellama": "<PRE> {prefix} <SUF>{suffix} <MID>",
    "starcoder": "<fim_prefix>{prefix}<fim_suffix>{suffix}<fim_middle>",
    "deepseek": "<｜fim▁begin｜>{prefix}<｜fim▁hole｜>{suffix}<｜fim▁end｜>",
    "qwen": "<|fim_prefix|>{prefix}<|fim_suffix|>{suffix}<|fim_middle|>",
}
#: Tokens that end a middle in those formats (a server may return them as text).
FIM_STOPS = {
    "codellama": ["<EOT>"],
    "starcoder": ["<|endoftext|>", "<file_sep>"],
    "deepseek": ["<｜end▁of▁sentence｜>"],
    "qwen": ["<|endoftext|>", "<|fim_pad|>"],
}
FORMATS = ("suffix", "prefix", *FIM_TEMPLATES)
DEFAULT_BASE_URL = "https://api.openai.com/v1"


def completion_request(
    fmt: str, prefix: str, suffix: str, *, model: str, max_tokens: int, temperature: float
) -> dict[str, Any]:
    """The JSON body of one ``/completions`` request for the text between prefix and suffix."""
    if fmt not in FORMATS:
        raise SeebenchError(f"completion format {fmt!r}: expected one of {', '.join(FORMATS)}")
    body: dict[str, Any] = {"model": model, "max_tokens": max_tokens, "temperature": temperature}
    if fmt == "suffix":
        body.update(prompt=prefix, suffix=suffix)
    elif fmt == "prefix":
        body["prompt"] = prefix
    else:
        body["prompt"] = FIM_TEMPLATES[fmt].format(prefix=prefix, suffix=suffix)
        body["stop"] = list(FIM_STOPS[fmt])
    return body


def cut_middle(text: str, fmt: str) -> str:
    """The reply up to the first end-of-middle token of ``fmt`` (servers may echo them)."""
    for stop in FIM_STOPS.get(fmt, []):
        text = text.split(stop, 1)[0]
    return text


@dataclass
class CompletionModel:
    """One completion model reached over HTTP: ``complete(prefix, suffix, ...)`` gives text.

    ``options`` are the condition's model client options that apply here: ``base_url``,
    ``api_key_env``, ``timeout_s`` (a deadline for the whole request); ``stop`` adds stop
    strings.
    """

    model: str
    fmt: str
    options: dict[str, Any] = field(default_factory=dict)
    stop: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.base_url = str(
            self.options.get("base_url") or os.environ.get("OPENAI_BASE_URL") or DEFAULT_BASE_URL
        ).rstrip("/")
        key_env = str(self.options.get("api_key_env") or "OPENAI_API_KEY")
        self._key = os.environ.get(key_env) or None
        register_secret(self._key)
        self.timeout_s = float(self.options.get("timeout_s", 15.0))

    def complete(self, prefix: str, suffix: str, max_tokens: int, temperature: float) -> str:
        """The text the model puts at the cursor; :class:`SeebenchError` (scrubbed) on failure."""
        import httpx

        body = completion_request(
            self.fmt,
            prefix,
            suffix,
            model=self.model,
            max_tokens=max_tokens,
            temperature=temperature,
        )
        if self.stop:
            body["stop"] = [*body.get("stop", []), *self.stop][:4]
        headers = {"Authorization": f"Bearer {self._key}"} if self._key else {}
        try:
            response = httpx.post(
                f"{self.base_url}/completions",
                json=body,
                headers=headers,
                timeout=httpx.Timeout(self.timeout_s),
            )
        except httpx.HTTPError as exc:
            raise SeebenchError(scrub(f"completions request failed: {exc}")) from None
        if response.status_code != 200:
            raise SeebenchError(scrub(f"completions endpoint answered HTTP {response.status_code}"))
        try:
            text = response.json()["choices"][0]["text"]
        except (ValueError, KeyError, IndexError, TypeError):
            raise SeebenchError("completions endpoint sent no choices[0].text") from None
        if not isinstance(text, str):
            raise SeebenchError("completions endpoint sent a non-text choice")
        return cut_middle(text, self.fmt)
