"""Mutants: seeded AST edits inside the focal definition, stored once and checked on reading."""

from __future__ import annotations

import ast
import json

from seebench.suites.copilot.testgen.mutants import (
    Mutant,
    MutantSet,
    MutantStore,
    apply_edit,
    candidates,
    draw,
)

SOLUTION = '''LIMIT = 10


def helper(a):
    return a * 2


def clamp(x, low=0):
    """Keep x within 0 and 10."""
    if x < low and not False:
        return low
    return min(x, LIMIT) + 0
'''


def test_edits_stay_inside_the_focal_definition_and_skip_its_docstring():
    edits = [what for _, what, _ in candidates(SOLUTION, "clamp")]
    assert "Lt->LtE" in edits and "And->Or" in edits and "drop Not" in edits
    assert "0->1" in edits and "False->True" in edits and "Add->Sub" in edits
    assert "Mult->Div" not in edits  # helper's operator is not the focal definition's
    assert "10->11" not in edits  # a module constant outside the definition
    for index in range(len(edits)):
        mutated = apply_edit(SOLUTION, "clamp", index)
        assert mutated is not None and "Keep x within 0 and 10." in mutated
        ast.parse(mutated)
    assert candidates(SOLUTION, "missing") == []


def test_dropping_not_removes_the_operator():
    index = [what for _, what, _ in candidates(SOLUTION, "clamp")].index("drop Not")
    assert "if x < low and False:" in apply_edit(SOLUTION, "clamp", index)


def test_the_draw_is_seeded_and_distinct():
    first = draw(SOLUTION, "clamp", seed=0, limit=4)
    assert [m.source for m in first] == [m.source for m in draw(SOLUTION, "clamp", 0, 4)]
    assert len({m.source for m in first}) == 4
    everything = draw(SOLUTION, "clamp", seed=0, limit=100)
    assert {m.source for m in draw(SOLUTION, "clamp", 1, 100)} == {m.source for m in everything}


def test_the_store_reads_back_what_it_wrote_and_ignores_a_damaged_file(tmp_path):
    store = MutantStore(tmp_path)
    target = {"solution": SOLUTION, "tests": "assert clamp(3) == 3\n", "entry_point": "clamp"}
    key = store.key(target, seed=0, limit=2, candidates=5)
    made = MutantSet([Mutant("m01", "Lt->LtE", 10, "x = 1\n")], tried=5, discarded=4)
    store.save(key, made)
    assert store.load(key) == made
    assert store.load({**key, "seed": 1}) is None
    path = store.path(key)
    data = json.loads(path.read_text())
    data["mutants"][0]["source"] = "def broken(:\n"
    path.write_text(json.dumps(data))
    assert store.load(key) is None
    path.write_text("{torn")
    assert store.load(key) is None


def test_a_set_filtered_under_other_judging_settings_is_not_reused(tmp_path):
    store = MutantStore(tmp_path)
    target = {"solution": SOLUTION, "tests": "assert clamp(3) == 3\n", "entry_point": "clamp"}
    judge = {"test_timeout_s": 5.0, "python": "3.11.7"}
    key = store.key(target, seed=0, limit=2, candidates=5, judge=judge)
    made = MutantSet([Mutant("m01", "Lt->LtE", 10, "x = 1\n")], tried=5, discarded=4)
    store.save(key, made)
    assert store.load(store.key(target, 0, 2, 5, judge=dict(judge))) == made
    other = store.key(target, 0, 2, 5, judge={**judge, "test_timeout_s": 1.0})
    assert store.path(other) != store.path(key) and store.load(other) is None
    assert store.load(store.key(target, 0, 2, 5)) is None


def test_the_scorer_keys_its_sets_by_its_time_limit_and_compat_prelude(tmp_path):
    from seebench.suites.copilot.generate.compat import PRELUDES
    from seebench.suites.copilot.testgen.scorer import GeneratedTestScorer

    target = {"solution": SOLUTION, "tests": "assert clamp(3) == 3\n", "entry_point": "clamp"}

    def key_of(scorer: GeneratedTestScorer) -> dict:
        return scorer._store().key(target, 0, 10, 30, scorer._filter_judge())

    store = MutantStore(tmp_path)
    base = key_of(GeneratedTestScorer(store=store))
    assert key_of(GeneratedTestScorer(store=store)) == base
    assert key_of(GeneratedTestScorer(store=store, test_timeout_s=1.0)) != base
    assert key_of(GeneratedTestScorer(store=store, compat=sorted(PRELUDES)[:1])) != base
