"""requirement_completion: verb masking with an injected tagger (and spaCy when installed)."""

from __future__ import annotations

import random

import pytest

from seebench.suites.selu.masking import mask_verbs, mask_verbs_step, split_sentences

VERBS = {"allow", "upload", "notify", "display", "store", "send", "receive", "log", "export"}


def fake_tagger(text: str) -> list[tuple[str, str, str]]:
    """Whitespace tokens; a fixed list of words counts as verbs."""
    words = text.split(" ")
    return [
        (w, "VERB" if w.strip(".,").lower() in VERBS else "X", " " if i < len(words) - 1 else "")
        for i, w in enumerate(words)
    ]


SPEC = """The system shall allow the operator to upload a flight plan.
The system shall notify the pilot when the battery level is low.

The application shall display the current position and store it every second.
"""


def test_probability_one_masks_every_verb_and_keeps_the_answers_in_order() -> None:
    masked, answers = mask_verbs(
        "The system shall allow the operator to upload a plan.",
        fake_tagger,
        random.Random(0),
        probability=1.0,
    )
    assert masked == "The system shall [MASK] the operator to [MASK] a plan."
    assert answers == ["allow", "upload"]


def test_masking_is_seeded_and_masks_about_half_of_the_verbs() -> None:
    text = " ".join(["send receive log export store display"] * 200)
    first = mask_verbs(text, fake_tagger, random.Random(7))
    again = mask_verbs(text, fake_tagger, random.Random(7))
    assert first == again
    assert 0.4 < len(first[1]) / 1200 < 0.6


def test_step_splits_lines_masks_and_drops_rows_without_a_mask() -> None:
    rows = split_sentences([{"input": SPEC}], column="input")
    assert len(rows) == 3
    rows.append({"input": "Response time is below one second."})
    out = mask_verbs_step(rows, probability=1.0, tagger=fake_tagger)
    assert len(out) == 3
    assert out[1]["input"] == "The system shall [MASK] the pilot when the battery level is low."
    assert out[1]["target"] == ["notify"]
    assert [
        r["target"]
        for r in mask_verbs_step(
            split_sentences([{"input": SPEC}]), probability=1.0, tagger=fake_tagger
        )
    ][2] == ["display", "store"]


def test_spacy_tagger_masks_real_verbs_when_installed() -> None:
    pytest.importorskip("spacy")
    from seebench.suites.selu.masking import TaggerUnavailableError, spacy_tagger

    try:
        tagger = spacy_tagger()
    except TaggerUnavailableError:
        pytest.skip("no spaCy English model installed")
    _, answers = mask_verbs(
        "The system shall allow the operator to upload a new flight plan.",
        tagger,
        random.Random(0),
        probability=1.0,
    )
    assert answers == ["allow", "upload"]


def test_requirement_completion_preparation_runs_on_our_own_specification(
    tmp_path, monkeypatch
) -> None:
    """The task's own prepare steps, on a shipped text file instead of the unreachable data."""
    import yaml

    from seebench.data.dataset import prepare_rows, read_rows, rows_to_samples
    from seebench.plugin_manager import get_registry
    from seebench.suites.selu import masking
    from seebench.tasks.validate import load_task
    from tests.conftest import REPO_ROOT

    monkeypatch.setattr(masking, "spacy_tagger", lambda model=None: fake_tagger)
    real = yaml.safe_load((REPO_ROOT / "task_configs/selu/requirement_completion.yaml").read_text())
    (tmp_path / "spec.txt").write_text(SPEC)
    doc = {
        "name": "rc_local",
        "suite": "test",
        "version": 1,
        "type": "mlm",
        "mask_token": real["mask_token"],
        "metrics": real["metrics"],
        "data": {
            "sources": [{"path": "spec.txt", "format": "text"}],
            "prepare": real["data"]["prepare"],
        },
    }
    (tmp_path / "rc_local.yaml").write_text(yaml.safe_dump(doc))
    task = load_task(tmp_path / "rc_local.yaml", get_registry())
    rows, _ = read_rows(task, get_registry())
    samples = rows_to_samples(task, prepare_rows(task, rows, get_registry()))
    assert samples and all("[MASK]" in s.input for s in samples)
    assert all(s.input.count("[MASK]") == len(s.target) for s in samples)
    assert {w for s in samples for w in s.target} <= VERBS
