"""``seebench data import`` stores the data files plugins register (``register_data_files``),
so the study's released chat log needs no ``--data`` after an import."""

from __future__ import annotations

import hashlib

import pytest
from seebench_study.data_files import RELEASED_CHAT_SHA256

from seebench.data.cache import cached_file
from seebench.data.manage import import_directory
from seebench.errors import PluginError
from seebench.plugin_manager import build_registry, create_plugin_manager, get_registry
from tests.plugins import good_plugin


def test_import_stores_a_registered_file(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("SEEBENCH_HOME", str(tmp_path / "home"))
    content = b"note one\nnote two\n"
    digest = hashlib.sha256(content).hexdigest()
    mirror = tmp_path / "mirror" / "deep"
    mirror.mkdir(parents=True)
    (mirror / "anything.txt").write_bytes(content)
    entry = type("Entry", (), {"sha256": digest, "file_name": "notes.txt"})()
    report = import_directory(tmp_path / "mirror", [], [entry])
    assert len(report.imported) == 1 and cached_file(digest) is not None
    assert import_directory(tmp_path / "mirror", [], [entry]).already == 1


def test_the_study_registers_its_released_chat_log() -> None:
    entry = get_registry().data_files["realhumaneval-chat"]
    assert entry.sha256 == RELEASED_CHAT_SHA256 and entry.file_name == "chat_data.csv"


def test_a_bad_hash_blames_the_plugin() -> None:
    registry = build_registry(create_plugin_manager(((good_plugin, "good"),), entry_points=False))
    assert registry.data_files["good-notes"].plugin == "good"
    bad = type("Bad", (), {})()

    def register_data_files(register):
        register("broken", "not-a-hash", file_name="x")

    bad.register_data_files = register_data_files
    from seebench.plugin_manager import hookimpl

    hookimpl(register_data_files)
    with pytest.raises(PluginError, match="expected 64 lower-case hex digits"):
        build_registry(create_plugin_manager(((bad, "bad"),), entry_points=False))
