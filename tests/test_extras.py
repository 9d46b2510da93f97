"""A missing optional dependency is one line naming the extra that installs it."""

from __future__ import annotations

import sys
import tomllib

import pytest

from seebench.errors import PluginError
from seebench.extras import MODULE_EXTRAS, MissingExtraError, extra_of, missing_extra, require
from seebench.registry_entries import load_object
from tests.conftest import REPO_ROOT


def _block(monkeypatch: pytest.MonkeyPatch, *modules: str) -> None:
    """Make ``import MODULE`` fail as it does where the module is not installed."""
    for module in modules:
        monkeypatch.setitem(sys.modules, module, None)


def test_every_extra_named_is_one_of_pyproject():
    with open(REPO_ROOT / "pyproject.toml", "rb") as handle:
        extras = set(tomllib.load(handle)["project"]["optional-dependencies"])
    assert set(MODULE_EXTRAS.values()) <= extras


def test_require_names_the_extra_in_one_line(monkeypatch):
    _block(monkeypatch, "starlette")
    with pytest.raises(MissingExtraError) as error:
        require("starlette", "seebench view")
    message = str(error.value)
    assert "\n" not in message
    assert message.startswith("seebench view needs the 'view' extra")
    assert "pip install 'seebench[view]'" in message


def test_a_submodule_is_looked_up_by_its_package():
    assert extra_of("tree_sitter_python.binding") == "copilot"
    assert extra_of("transformers.models") == "hf"


def test_a_module_of_no_extra_is_left_as_it_is(monkeypatch):
    _block(monkeypatch, "not_an_optional_module")
    with pytest.raises(ModuleNotFoundError) as error:
        require("not_an_optional_module")
    assert missing_extra(error.value) is None


def test_a_plugin_whose_import_lacks_an_extra_names_the_extra(monkeypatch):
    _block(monkeypatch, "tree_sitter")
    for name in [m for m in sys.modules if m.startswith("seebench.suites.copilot")]:
        monkeypatch.delitem(sys.modules, name)  # imported afresh, as in a core install
    with pytest.raises(PluginError) as error:
        load_object("seebench.suites.copilot.repo_generate.types:RepoGenerateType")
    assert "'copilot' extra (no module 'tree_sitter')" in str(error.value)


def test_the_command_line_prints_one_line_for_a_missing_extra(monkeypatch, capsys, tmp_path):
    from seebench.cli.main import main

    _block(monkeypatch, "starlette", "uvicorn")
    with pytest.raises(SystemExit) as done:
        main(["view", str(tmp_path)])
    assert done.value.code == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [
        "error: seebench view needs the 'view' extra (no module 'starlette'): "
        "pip install 'seebench[view]' (in a checkout: pip install -e '.[view]')"
    ]


def test_an_import_deep_in_a_command_is_one_line_too(monkeypatch, capsys):
    import click

    from seebench.cli import main as cli_main

    @click.command("needs-hf")
    def needs_hf() -> None:
        import transformers  # noqa: F401

    _block(monkeypatch, "transformers")
    monkeypatch.setattr(cli_main.cli, "commands", {**cli_main.cli.commands, "needs-hf": needs_hf})
    with pytest.raises(SystemExit) as done:
        cli_main.main(["needs-hf"])
    assert done.value.code == 1
    [line] = capsys.readouterr().err.strip().splitlines()
    assert line.startswith("error: needs the 'hf' extra (no module 'transformers')")
