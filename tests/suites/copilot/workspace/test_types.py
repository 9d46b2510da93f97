"""The workspace type: reading replies, the prompt's candidates, and prompting applies."""

from __future__ import annotations

from seebench.plugin_manager import get_registry
from seebench.suites.copilot.workspace.types import (
    WorkspaceType,
    parse_workspace_reply,
    workspace_candidates,
)
from tests.suites.copilot.workspace.repos import FILES, QUERIES


def test_replies_with_and_without_a_ranking():
    parsed = parse_workspace_reply("ranking = [4], #2, 4\nIt is in save().")
    assert parsed.valid and parsed.value == {"ranking": [4, 2], "answer": "It is in save()."}
    plain = parse_workspace_reply("No idea.")
    assert plain.valid and plain.value == {"ranking": [], "answer": "No idea."}


def test_candidates_are_numbered_in_the_prompt(tmp_path):
    for name, text in FILES.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    row = {
        "repo": "someone/tiny",
        "query": QUERIES[0]["query"],
        "tree": str(tmp_path),
        "slug": "tiny",
        "target": {"gold": [], "keywords": [["save"]], "candidates": [], "excluded": None},
    }
    excluded = {**row, "target": {**row["target"], "excluded": "gone"}}
    done, skipped = workspace_candidates([row, excluded], k=2, max_lines=3, retriever="bm25")
    assert [c["symbol"] for c in done["target"]["candidates"]][0] == "Store"
    assert "[1] tiny/store.py, lines 12-24 (Store)" in done["input"]
    assert "... (10 more lines)" in done["input"] and "[3]" not in done["input"]
    assert skipped["target"]["candidates"] == [] and "Snippets" not in skipped["input"]


def test_prompting_methods_apply_to_workspace_tasks():
    registry = get_registry()
    for method in ("zero-shot", "retrieval"):
        assert registry.method(method).applies_to("copilot_workspace", WorkspaceType())
    assert not registry.method("finetune").applies_to("copilot_workspace", WorkspaceType())


def test_the_instruction_shows_a_ranking_shape_that_holds_no_number():
    """SmolLM2 copied the old example ('Ranking: 3, 1, 4') in 7 of 10 replies: the shape shown
    now has placeholders only, so a copy of it cannot pass for a ranking."""
    import re

    from seebench.suites.copilot.workspace.types import RANKING_TEMPLATE

    instruction = WorkspaceType().answer_format(None).instruction
    assert RANKING_TEMPLATE in instruction
    assert not re.search(r"\d", instruction)


def test_a_reply_that_copies_the_template_is_not_an_answer():
    from seebench.suites.copilot.workspace.types import COPIED_TEMPLATE, RANKING_TEMPLATE

    copied = parse_workspace_reply(RANKING_TEMPLATE + "\nThe scheduler runs jobs.")
    assert not copied.valid and copied.error == COPIED_TEMPLATE and copied.value is None
    half = parse_workspace_reply("Ranking: 2, <number of the next one>\nIn run().")
    assert not half.valid
    # angle brackets that hold code are not a placeholder
    generic = parse_workspace_reply("Ranking: 2, 5\nIt returns List<Job> from <3 places>.")
    assert generic.valid and generic.value["ranking"] == [2, 5]


def test_a_copied_template_scores_zero_not_the_retrievers_order(tmp_path):
    """An invalid reply reaches the scorer as no prediction: 0, whereas an empty ranking keeps
    the candidates' order."""
    from seebench.suites.copilot.workspace.scorer import WorkspaceScorer

    gold = {"file": "a.py", "start": 1, "end": 3}
    target = {"gold": [gold], "keywords": [["run"]], "candidates": [gold], "excluded": None}
    sample = type("S", (), {"target": target})()
    scorer = WorkspaceScorer()
    assert scorer.score(sample, None).value == 0.0
    assert scorer.score(sample, {"ranking": [], "answer": ""}).value == 1.0
