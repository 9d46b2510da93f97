"""The plugin guides, the example plugin and the scaffold import seebench only through
``seebench.api``, and every name that module promises resolves."""

from __future__ import annotations

import ast
import warnings

import pytest

import seebench.api
from tests.conftest import REPO_ROOT
from tests.docs.doc_blocks import blocks

GUIDES = ("plugins.md", "new_suite.md")
PLUGIN_SOURCES = sorted((REPO_ROOT / "plugins" / "seebench-example").rglob("*.py"))
TEMPLATES = sorted((REPO_ROOT / "seebench" / "cli" / "templates" / "plugin").glob("*.py.tmpl"))


def seebench_imports(source: str) -> list[str]:
    """The seebench modules ``source`` imports from (``import x`` or ``from x import y``)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and node.module:
            found.append(node.module)
        elif isinstance(node, ast.Import):
            found += [alias.name for alias in node.names]
    return [name for name in found if name == "seebench" or name.startswith("seebench.")]


def guide_blocks() -> list[tuple[str, str]]:
    return [
        (f"{page}: {title or 'block ' + str(i)}", text)
        for page in GUIDES
        for i, (language, title, text) in enumerate(blocks(page))
        if language == "python"
    ]


@pytest.mark.parametrize(("where", "source"), guide_blocks())
def test_guide_code_imports_only_the_public_api(where: str, source: str) -> None:
    assert set(seebench_imports(source)) <= {"seebench.api"}, where


@pytest.mark.parametrize("path", PLUGIN_SOURCES + TEMPLATES, ids=lambda p: p.name)
def test_example_plugin_and_scaffold_import_only_the_public_api(path) -> None:
    source = path.read_text().replace("$package", "pkg")
    assert set(seebench_imports(source)) <= {"seebench.api"}, path


def test_the_guides_use_the_public_api_at_all() -> None:
    used = [name for _, text in guide_blocks() for name in seebench_imports(text)]
    assert used.count("seebench.api") >= 3


def test_the_checker_sees_other_imports() -> None:
    assert seebench_imports("from seebench.tasks.types import TaskType\nimport seebench") == [
        "seebench.tasks.types",
        "seebench",
    ]


@pytest.mark.parametrize("name", seebench.api.__all__)
def test_every_public_name_resolves(name: str) -> None:
    assert getattr(seebench.api, name) is not None


def test_all_lists_exactly_the_homed_names() -> None:
    extras = {"API_VERSION", "SeebenchDeprecationWarning"}
    assert set(seebench.api.__all__) == set(seebench.api._HOME) | extras
    assert len(seebench.api.__all__) == len(set(seebench.api.__all__))


def test_an_unknown_name_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="no attribute 'TaskTyp'"):
        seebench.api.TaskTyp  # noqa: B018


def test_a_deprecated_name_warns_and_still_works(monkeypatch) -> None:
    monkeypatch.setitem(seebench.api._DEPRECATED, "OldTaskType", ("TaskType", "2.0"))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert seebench.api.OldTaskType is seebench.api.TaskType
    (warning,) = caught
    assert issubclass(warning.category, seebench.api.SeebenchDeprecationWarning)
    assert "use TaskType" in str(warning.message) and "2.0" in str(warning.message)
