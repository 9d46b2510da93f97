"""Option log-likelihoods with the hf backend: equal to reading each (context, option) whole,
with the boundary split as lm-eval splits it."""

from __future__ import annotations

import pytest

from seebench.models.backends.loglik import continuation_text, encode, split_tokens
from seebench.models.chat import Prompt
from tests.tiny_models import CHAT_TEMPLATE, build_tiny_gpt2, build_tiny_tokenizer

torch = pytest.importorskip("torch")
pytest.importorskip("transformers")

SHARED = "Setting: Task: Answer format: Reply with exactly one label. Label: bug. Label: other.\n"
CONTEXTS = [
    SHARED + "Fix crash when saving a file.\nLabel:",
    SHARED + "Add dark mode to the settings page, please.\nLabel:",
    SHARED + "Is this a question?\nLabel: ",
    SHARED + "The system shall export every report.\nLabel:",
]
OPTIONS = ["bug", "other", "feature request"]


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    return build_tiny_gpt2(tmp_path_factory.mktemp("tiny-loglik"))


def reference(model, tokenizer, context: str, option: str) -> float:
    """log P(option | context) from one unpadded forward pass of the whole sequence."""
    head, tail = split_tokens(tokenizer, context, continuation_text(context, option))
    ids = torch.tensor([head + tail])
    with torch.inference_mode():
        logits = torch.log_softmax(model(input_ids=ids).logits[0].float(), dim=-1)
    return sum(float(logits[len(head) - 1 + n, token]) for n, token in enumerate(tail))


def test_the_boundary_is_split_as_lm_eval_does():
    tokenizer = build_tiny_tokenizer()
    assert continuation_text("Label:", "bug") == " bug"
    assert continuation_text("Label:\n", "bug") == "bug"
    head, tail = split_tokens(tokenizer, "Label: ", "bug")  # the space moves to the option
    assert tokenizer.decode(head) == "Label:" and tokenizer.decode(tail) == " bug"
    whole = tokenizer("Label: bug", add_special_tokens=False)["input_ids"]
    assert head + tail == whole


@pytest.mark.parametrize("batch_size", [1, 3, 8])
def test_scores_equal_reading_each_option_whole(tiny, batch_size):
    from seebench.models.backends.hf import HFBackend, load_model

    backend = HFBackend(tiny, max_new_tokens=4, batch_size=batch_size, chat_template=False)
    prompts = [Prompt(f"s{i}", ({"role": "user", "content": c},)) for i, c in enumerate(CONTEXTS)]
    results = dict(backend.loglikelihood(prompts, [OPTIONS] * len(prompts)))
    model, tokenizer, _ = load_model(str(tiny))
    for index, prompt in enumerate(prompts):
        context = backend.loglik_context(prompt)
        assert context == prompt.messages[0]["content"]
        for option, score in zip(OPTIONS, results[index], strict=True):
            assert score.logprob == pytest.approx(
                reference(model, tokenizer, context, option), abs=1e-4
            )
            assert score.chars == len(continuation_text(context, option))
    assert len(encode(tokenizer, CONTEXTS[0], OPTIONS).options[2]) > 1  # multi-token option


def test_the_chat_template_is_applied_when_it_is_on(tmp_path):
    from seebench.models.backends.hf import HFBackend, load_model

    directory = build_tiny_gpt2(tmp_path / "chat", chat_template=CHAT_TEMPLATE)
    prompt = Prompt("s", ({"role": "user", "content": CONTEXTS[0]},))
    backend = HFBackend(directory, max_new_tokens=4)
    ((_, scores),) = list(backend.loglikelihood([prompt], [OPTIONS]))
    model, tokenizer, _ = load_model(str(directory))
    rendered = backend.render(prompt)
    assert rendered.endswith("<|assistant|>")
    assert scores[0].logprob == pytest.approx(
        reference(model, tokenizer, rendered, "bug"), abs=1e-4
    )
