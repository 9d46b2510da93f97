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


def test_the_instruction_shows_no_ranking_a_small_model_could_copy():
    """SmolLM2 copied the old example ('Ranking: 3, 1, 4') in 7 of 10 replies."""
    import re

    from seebench.suites.copilot.workspace.types import WorkspaceType

    instruction = WorkspaceType().answer_format(None).instruction
    assert "Ranking:" in instruction and not re.search(r"Ranking: ?\d", instruction)
