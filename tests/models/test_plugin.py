"""Model backends as registered kinds: the built-ins, a plugin's backend, a missing extra."""

from __future__ import annotations

import json

import pytest

from seebench.errors import ModelError, PluginError
from seebench.models import ModelRef, backend_placement, chat_problem
from seebench.models.client import ModelClient, backend_options
from seebench.models.servers import served_option_schema
from seebench.models.servers.kinds import KINDS
from seebench.plugin_manager import build_registry, create_plugin_manager, get_registry
from seebench.registry import Registry, RegistryBuilder
from tests.cli.test_cli import run_cli
from tests.conftest import make_binary_task
from tests.plugins import backend_plugin


def test_every_built_in_kind_is_a_registered_backend():
    registry = get_registry()
    for name in ("hf", "openai", *KINDS):
        assert registry.backend(name).chats, name
    for name in ("rule", "baseline", "retriever"):
        assert not registry.backend(name).chats, name


def test_a_managed_server_model_has_its_servers_options():
    for name, kind in KINDS.items():
        model = ModelRef(spec=f"{name}:x", id="x", kind=name, options={"serve": name})
        assert backend_options(model) == served_option_schema(model)
        assert backend_placement(model) == "remote"
        assert kind.name == name


def test_a_rule_model_cannot_chat_and_says_which_models_can():
    rule = ModelRef(spec="reference", id="reference", kind="rule")
    problem = chat_problem(rule, verb="be prompted")
    assert problem is not None and "cannot be prompted" in problem and "hf" in problem
    with pytest.raises(ModelError, match="reference"):
        ModelClient(rule)
    unknown = ModelRef(spec="x", id="x", kind="no-such-kind")
    assert chat_problem(unknown) is not None
    assert backend_placement(unknown) is None


def plugin_registry() -> Registry:
    pm = create_plugin_manager(((backend_plugin, "parrot-plugin"),), entry_points=False)
    return build_registry(pm)


def test_a_plugin_adds_a_chat_backend_without_touching_the_kernel():
    registry = plugin_registry()
    model = backend_plugin.resolve_parrot("parrot")
    assert chat_problem(model, registry) is None
    assert backend_options(model, registry) == {
        "shout": {"type": "boolean", "description": "true or false"}
    }
    client = ModelClient(model, {"shout": True, "cache": False}, registry=registry)
    reply = client.chat([{"role": "user", "content": "hello"}])
    assert reply.text == "HELLO"
    assert client.info()["backend"] == "parrot"


def test_a_missing_extra_is_one_line_naming_it():
    registry = Registry()
    RegistryBuilder(registry).backend("p")(
        "needy",
        "tests.plugins.backend_plugin:EchoBackend",
        extra="needy",
        requires=("seebench_no_such_module",),
    )
    model = ModelRef(spec="needy:m", id="m", kind="needy")
    client = ModelClient(model, registry=registry)
    with pytest.raises(ModelError) as caught:
        client.chat([{"role": "user", "content": "hi"}])
    message = str(caught.value)
    assert "\n" not in message and "pip install 'seebench[needy]'" in message
    assert "seebench_no_such_module" in message


def test_a_bad_registration_names_the_plugin():
    register = RegistryBuilder(Registry()).backend("bad-plugin")
    with pytest.raises(PluginError, match="bad-plugin"):
        register("x", None, placement="moon")
    register("y", None)
    with pytest.raises(PluginError, match="already registered"):
        register("y", None)


def test_eval_runs_a_plugin_backend_through_prompting(tmp_path):
    make_binary_task(tmp_path / "tasks", "tiny", rows=12)
    env = {
        "SEEBENCH_PLUGINS": "tests.plugins.tmp_tasks_plugin,tests.plugins.backend_plugin",
        "SEEBENCH_TEST_TASK_DIR": str(tmp_path / "tasks"),
        "SEEBENCH_HOME": str(tmp_path / "home"),
    }
    args = ["eval", "--model", "parrot", "--method", "zero-shot", "--tasks", "tiny"]
    code, _, stderr = run_cli(
        [*args, "-o", "shout=true", "--output", str(tmp_path / "out"), "--no-progress"], env=env
    )
    assert code == 0, stderr
    (result,) = [
        json.loads(p.read_text())
        for p in (tmp_path / "out").rglob("*.json")
        if "samples" not in p.name
    ]
    assert result["info"]["backend"] == "parrot"
    code, _, stderr = run_cli([*args, "-o", "shout=maybe", "--no-progress"], env=env)
    assert code != 0 and "shout" in stderr and "Traceback" not in stderr
