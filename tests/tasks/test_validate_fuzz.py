"""Property: mutating a valid task YAML never produces a traceback, only listed problems."""

from __future__ import annotations

import copy
from pathlib import Path

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from seebench.errors import TaskSpecError
from seebench.plugin_manager import build_registry, create_plugin_manager
from seebench.tasks.validate import load_task
from tests.tasks.test_validate import VALID

REGISTRY = build_registry(create_plugin_manager(entry_points=False))
BASE = yaml.safe_load(VALID)

scalars = st.one_of(
    st.none(), st.booleans(), st.integers(-5, 5), st.floats(allow_nan=True), st.text(max_size=8)
)
values = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=6,
)


def _paths(node, prefix=()):
    yield prefix
    if isinstance(node, dict):
        for key, value in node.items():
            yield from _paths(value, (*prefix, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from _paths(value, (*prefix, index))


PATHS = [p for p in _paths(BASE) if p]


@st.composite
def mutated_documents(draw):
    document = copy.deepcopy(BASE)
    for _ in range(draw(st.integers(1, 3))):
        path = draw(st.sampled_from(PATHS))
        parent = document
        try:
            for part in path[:-1]:
                parent = parent[part]
            action = draw(st.sampled_from(["replace", "delete", "add"]))
            if action == "replace":
                parent[path[-1]] = draw(values)
            elif action == "delete" and isinstance(parent, dict):
                parent.pop(path[-1], None)
            elif isinstance(parent, dict):
                parent[draw(st.text(min_size=1, max_size=6))] = draw(values)
        except (KeyError, IndexError, TypeError):
            continue
    return document


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(document=mutated_documents())
def test_mutations_give_problems_not_tracebacks(tmp_path_factory, document):
    path = Path(tmp_path_factory.mktemp("fuzz")) / "t.yaml"
    path.write_text(yaml.safe_dump(document))
    try:
        load_task(path, REGISTRY)
    except TaskSpecError as exc:
        assert exc.problems
        for problem in exc.problems:
            assert (
                problem.startswith(str(path)) and "\n" not in problem and "Traceback" not in problem
            )


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(text=st.text(alphabet="abc: -[]{}\n\"'#&*!|>%@`,?", max_size=60))
def test_arbitrary_yaml_text_never_raises_anything_else(tmp_path_factory, text):
    path = Path(tmp_path_factory.mktemp("fuzz")) / "t.yaml"
    path.write_text(text)
    try:
        load_task(path, REGISTRY)
    except TaskSpecError as exc:
        assert all("\n" not in p for p in exc.problems)
