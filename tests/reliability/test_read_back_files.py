"""Every user-given or read-back file goes through the safe reader (class 5 of round 2): a
groups file, an event log, a data mirror's manifest, a model's ``config.json``, a plugin's
``pyproject.toml``, a plain-text source, a repository's ``package.json`` and environment
record, an item list, a query set, a result read back by a suite's report, and the small
caches beside them, when they are a FIFO, a link to a device, larger than their bound or not
UTF-8, are each one line naming the file (or the reader's documented fallback): never a
hang, a traceback or the file's content."""

from __future__ import annotations

import contextlib
import json
import os
import pickle
import resource
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from seebench import safe_files
from seebench.errors import SeebenchError

#: Fallback: the reader returns this instead of raising (a cache or an optional file).
FALLBACK = object()
SECRET = "c0nt3nt-n0t-qu0t3d"


def _groups(path: Path) -> Any:
    from seebench.scoring.groups import read_group_file

    return read_group_file(path)


def _events(path: Path) -> Any:
    from seebench.executors.events import read_events

    return read_events(path)


def _manifest(path: Path) -> Any:
    from seebench.suites.annotation.task_config import mirror_index

    return mirror_index(path.parent)


def _finetune_config(path: Path) -> Any:
    from seebench.methods.finetune.arch import read_config

    return read_config(path.parent)


def _served_config(path: Path) -> Any:
    from seebench.models.servers.identity import directory_identity

    (path.parent / "model.safetensors").write_bytes(b"w")
    return directory_identity("local", path.parent)


def _hf_config(path: Path) -> Any:
    from seebench.models.hf import local_model_ref

    (path.parent / "model.safetensors").write_bytes(b"w")
    ref = local_model_ref("local", path.parent)
    return FALLBACK if ref.spec == "local" else ref


def _pyproject(path: Path) -> Any:
    from seebench.plugin_check import _project_entries

    return _project_entries(path.parent, None)  # type: ignore[arg-type]


def _plain_text(path: Path) -> Any:
    from seebench.suites.selu.readers import read_text

    return read_text(path)


def _package_json(path: Path) -> Any:
    from seebench.suites.copilot.repos.node_env import read_package

    return read_package(path.parent)


def _npm_version(path: Path) -> Any:
    from seebench.suites.copilot.fix.tools import installed_version

    return FALLBACK if installed_version("eslint", path.parents[2]) is None else "read"


def _items(path: Path) -> Any:
    from seebench.suites.copilot.repo_generate.items import read_items

    try:
        return read_items(path)
    except ValueError as exc:  # the item list's own error type, one line naming the file
        raise SeebenchError(str(exc)) from None


def _queries(path: Path) -> Any:
    from seebench.suites.copilot.workspace.queries import load_queries

    return load_queries(path)


def _rating_result(path: Path) -> Any:
    from seebench.suites.annotation.cli import _records

    return FALLBACK if _records(path) is None else "read"


def _rating_samples(path: Path) -> Any:
    from seebench.suites.annotation.cli import _records

    result = {"task": {"type": "ratings"}, "status": "ok", "samples_file": path.name}
    (path.parent / "t0.json").write_text(json.dumps(result))
    return _records(path.parent / "t0.json")


def _plugin_task(path: Path) -> Any:
    from seebench.plugin_problems import _read_mapping

    return FALLBACK if _read_mapping(path) == {} else "read"


TEXT = safe_files.TEXT_MAX_BYTES
#: reader -> (the file's path in the folder given, the reader, whether a fallback is its
#: documented outcome, its size bound: a larger sparse file is refused; ``None``: bounds of
#: a GiB or more are left to the tests of results and data files).
READERS: dict[str, tuple[str, Callable[[Path], Any], bool, int | None]] = {
    "groups": ("groups.yaml", _groups, False, TEXT),
    "events": ("events.jsonl", _events, False, None),
    "mirror-manifest": ("MANIFEST.tsv", _manifest, False, TEXT),
    "finetune-config": ("config.json", _finetune_config, False, TEXT),
    "served-config": ("config.json", _served_config, False, TEXT),
    "hf-config": ("config.json", _hf_config, True, TEXT),
    "plugin-pyproject": ("pyproject.toml", _pyproject, False, TEXT),
    "plain-text-source": ("spec.txt", _plain_text, False, None),
    "package-json": ("package.json", _package_json, False, TEXT),
    "npm-tool-version": ("node_modules/eslint/package.json", _npm_version, True, TEXT),
    "item-list": ("items.jsonl", _items, False, TEXT),
    "query-set": ("queries.jsonl", _queries, False, TEXT),
    "rating-result": ("t0.json", _rating_result, True, TEXT),
    "rating-samples": ("t0.samples.jsonl", _rating_samples, False, None),
    "plugin-task-file": ("task.yaml", _plugin_task, True, 256 * 1024),
}
#: Readers that replace bad bytes (a plain-text source is read as it comes).
REPLACES_BAD_BYTES = {"plain-text-source"}


def _plant(path: Path, kind: str, bound: int | None) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "device":
        path.symlink_to("/dev/zero")
    elif kind == "huge":
        with open(path, "wb") as handle:  # sparse: no disk, no memory
            handle.truncate(bound + 1)
    elif kind == "not-utf8":
        path.write_bytes(b"name: " + SECRET.encode() + b"\n\xff\xfe\xfa bad\n")


@contextlib.contextmanager
def _memory_capped(extra: int = 1 << 30):
    """This process may map at most ``extra`` more bytes meanwhile: a reader that reads
    ``/dev/zero`` for ever meets a ``MemoryError`` instead of the machine's memory."""
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    with open("/proc/self/statm") as handle:  # the kernel's file, not a user's
        mapped = int(handle.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    cap = mapped + extra if hard == resource.RLIM_INFINITY else min(hard, mapped + extra)
    resource.setrlimit(resource.RLIMIT_AS, (cap, hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))


def _call_bounded(reader: Callable[[Path], Any], path: Path) -> tuple[Any, BaseException | None]:
    """Run ``reader(path)`` in a thread with its memory capped; a reader still blocked after
    10 s (a FIFO opened blocking) is released by opening the FIFO's other end, and the test
    fails."""
    outcome: dict[str, Any] = {}

    def run() -> None:
        try:
            with _memory_capped():
                outcome["value"] = reader(path)
        except BaseException as exc:  # noqa: BLE001 (judged below)
            outcome["error"] = exc

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(10)
    if thread.is_alive():
        if path.exists():
            os.close(os.open(path, os.O_WRONLY | os.O_NONBLOCK))  # give the reader an EOF
        thread.join(10)
        pytest.fail(f"{path.name}: the reader blocked on a FIFO")
    return outcome.get("value"), outcome.get("error")


@pytest.mark.parametrize("kind", ["fifo", "device", "huge", "not-utf8"])
@pytest.mark.parametrize("reader", sorted(READERS))
def test_a_hostile_user_file_is_one_line_or_a_fallback(tmp_path, monkeypatch, reader, kind):
    monkeypatch.setenv("SEEBENCH_HOME", str(tmp_path / "home"))
    name, function, falls_back, bound = READERS[reader]
    if kind == "huge" and bound is None:
        pytest.skip("a bound of a GiB or more: tested with results and data files")
    path = tmp_path / "given" / name
    _plant(path, kind, bound)
    value, error = _call_bounded(function, path)
    if kind == "not-utf8" and reader in REPLACES_BAD_BYTES:
        assert error is None
        return
    if error is None:
        assert falls_back and value is FALLBACK, f"{reader} read a {kind} file: {value!r}"
        return
    assert isinstance(error, SeebenchError), f"{reader}: {type(error).__name__}: {error}"
    message = str(error)
    assert "\n" not in message and path.name in message
    assert SECRET not in message


def test_not_utf8_text_is_one_line_naming_the_file_and_still_a_decode_error(tmp_path):
    path = tmp_path / "scores.txt"
    path.write_bytes("caf\u00e9 ".encode("latin-1") + SECRET.encode())
    with pytest.raises(UnicodeDecodeError) as caught:
        safe_files.read_text(path)
    assert isinstance(caught.value, SeebenchError)
    assert str(caught.value) == f"{path}: not UTF-8 text (byte 3); save it as UTF-8"
    again = pickle.loads(pickle.dumps(caught.value))  # from a worker process to the driver
    assert str(again) == str(caught.value) and isinstance(again, UnicodeDecodeError)
    assert safe_files.read_text(path, errors="replace").startswith("caf\ufffd")


def test_rows_and_heads_read_safely(tmp_path):
    table = tmp_path / "MANIFEST.tsv"
    table.write_text("\ufeffpath\tsha256\na.json\t00\n", encoding="utf-8")
    assert safe_files.read_rows(table, "\t") == [{"path": "a.json", "sha256": "00"}]
    fifo = tmp_path / "weights.gguf"
    os.mkfifo(fifo)
    with pytest.raises(safe_files.UnsafeFileError, match="not a regular file"):
        safe_files.read_head(fifo, 4)
    sparse = tmp_path / "big.gguf"
    with open(sparse, "wb") as handle:
        handle.write(b"GGUF")
        handle.truncate(8 * 1024**3)
    assert safe_files.read_head(sparse, 4) == b"GGUF"  # a header is read whatever the size
