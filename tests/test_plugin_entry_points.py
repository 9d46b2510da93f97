"""The cached entry points give what importlib.metadata gives, and follow installs."""

from __future__ import annotations

import json
import os
import sys
from importlib import metadata
from pathlib import Path

import pytest

from seebench import plugin_entry_points
from seebench.plugin_entry_points import PluginEntryPoint, entry_points

GROUP = "seebench_entry_point_cache_test"


def install(site: Path, dist: str, version: str, points: str) -> Path:
    """A minimal installed distribution in ``site`` declaring ``points`` in GROUP."""
    info = site / f"{dist.replace('-', '_')}-{version}.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {dist}\nVersion: {version}\n")
    (info / "entry_points.txt").write_text(f"[{GROUP}]\n{points}\n")
    return info


def reference() -> list[tuple]:
    return [
        (ep.name, ep.value, ep.dist.name, ep.dist.version)
        for ep in metadata.entry_points(group=GROUP)
    ]


def rows(found: list[PluginEntryPoint]) -> list[tuple]:
    return [(ep.name, ep.value, ep.dist_name, ep.dist_version) for ep in found]


@pytest.fixture
def site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "site"
    folder.mkdir()
    monkeypatch.syspath_prepend(str(folder))
    monkeypatch.setenv("SEEBENCH_HOME", str(tmp_path / "home"))
    monkeypatch.delenv(plugin_entry_points.NO_CACHE_ENV, raising=False)
    return folder


def cache_files(site: Path) -> list[Path]:
    return sorted((site.parent / "home" / "cache" / "plugins").glob("entry-points-*.json"))


def test_the_cached_answer_is_importlib_metadata_s_and_is_read_back(site, monkeypatch) -> None:
    install(site, "first-plugin", "1.0", "one = json:dumps")
    first = entry_points(GROUP)
    assert rows(first) == reference() == [("one", "json:dumps", "first-plugin", "1.0")]
    assert len(cache_files(site)) == 1

    def no_scan(group):
        raise AssertionError("importlib.metadata asked again")

    monkeypatch.setattr(plugin_entry_points, "_scan", no_scan)
    assert entry_points(GROUP) == first
    assert first[0].load() is __import__("json").dumps


def test_an_install_an_upgrade_or_an_edit_is_seen(site) -> None:
    install(site, "first-plugin", "1.0", "one = json:dumps")
    entry_points(GROUP)
    second = install(site, "second-plugin", "2.0", "two = json")
    assert rows(entry_points(GROUP)) == reference()
    assert {ep[0] for ep in reference()} == {"one", "two"}
    points = second / "entry_points.txt"
    points.write_text(f"[{GROUP}]\ntwo = json:loads\nthree = os.path:join\n")
    os.utime(points, ns=(1, 1))  # a new modification time, whatever the clock's resolution
    assert rows(entry_points(GROUP)) == reference()
    assert {ep[0] for ep in reference()} == {"one", "two", "three"}
    second.rename(site / "second_plugin-3.0.dist-info")
    (site / "second_plugin-3.0.dist-info" / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: second-plugin\nVersion: 3.0\n"
    )
    assert rows(entry_points(GROUP)) == reference()
    assert ("two", "json:loads", "second-plugin", "3.0") in reference()


@pytest.mark.parametrize(
    "content",
    [
        "not json",
        '{"format": 2, "key": "0", "group": "GROUP", "entry_points": []}',
        "[]",
        '{"format": 2, "key": "KEY", "group": "GROUP", "entry_points": [["one", 2, null, null, "S"]]}',
        '{"format": 2, "key": "KEY", "group": "GROUP", "entry_points": [["one", "json"]]}',
        '{"format": 2, "key": "KEY", "group": "GROUP", "entry_points": [["one", "json:dumps", null, null, null]]}',
        '{"format": 999, "key": "KEY", "group": "GROUP", "entry_points": []}',
        '{"format": 1, "key": "KEY", "entry_points": [["one", "json:dumps", null, null]]}',
    ],
)
def test_a_damaged_stale_or_foreign_cache_file_is_not_trusted(site, content) -> None:
    install(site, "first-plugin", "1.0", "one = json:dumps")
    entry_points(GROUP)
    (cache,) = cache_files(site)
    key = plugin_entry_points._environment_key(GROUP)
    cache.write_text(content.replace("KEY", key or "").replace("GROUP", GROUP))
    assert rows(entry_points(GROUP)) == reference()
    assert rows(entry_points(GROUP)) == reference()  # and rewritten
    assert plugin_entry_points._read_cache(cache, key, GROUP) is not None


def forge(site: Path, entries: list[list], group: str = GROUP) -> None:
    """Overwrite the cache file with ``entries`` under the right key (anyone can compute it)."""
    key = plugin_entry_points._environment_key(GROUP)
    body = {"format": plugin_entry_points.FORMAT, "key": key, "group": group}
    plugin_entry_points._cache_file(key).write_text(json.dumps({**body, "entry_points": entries}))


@pytest.mark.parametrize("where", ["declaring dist", "outside sys.path", "other group"])
def test_a_forged_file_with_the_right_key_cannot_add_or_change_an_entry(
    site, tmp_path, where
) -> None:
    info = install(site, "first-plugin", "1.0", "one = json:dumps")
    entry_points(GROUP)
    honest = ["one", "json:dumps", "first-plugin", "1.0", str(info)]
    if where == "declaring dist":  # an entry the distribution does not declare, a changed value
        forge(site, [honest, ["evil", "os:system", "first-plugin", "1.0", str(info)]])
        assert rows(entry_points(GROUP)) == reference()
        forge(site, [["one", "os:system", "first-plugin", "1.0", str(info)]])
    elif where == "outside sys.path":  # a distribution made for the purpose, off the path
        elsewhere = tmp_path / "elsewhere"
        elsewhere.mkdir()
        planted = install(elsewhere, "planted", "1.0", "evil = os:system")
        forge(site, [honest, ["evil", "os:system", "planted", "1.0", str(planted)]])
    else:  # entries of another group, declared there
        (info / "entry_points.txt").write_text(
            f"[{GROUP}]\none = json:dumps\n[other]\nevil = os:system\n"
        )
        os.utime(info / "entry_points.txt", ns=(1, 1))
        entry_points(GROUP)
        forge(site, [["evil", "os:system", "first-plugin", "1.0", str(info)]], group="other")
    assert rows(entry_points(GROUP)) == reference()
    assert "os:system" not in {ep.value for ep in entry_points(GROUP)}
    key = plugin_entry_points._environment_key(GROUP)
    rewritten = plugin_entry_points._read_cache(plugin_entry_points._cache_file(key), key, GROUP)
    assert rewritten is not None and rows(rewritten) == reference()


def test_the_cache_can_be_turned_off(site, monkeypatch) -> None:
    install(site, "first-plugin", "1.0", "one = json:dumps")
    monkeypatch.setenv(plugin_entry_points.NO_CACHE_ENV, "1")
    assert rows(entry_points(GROUP)) == reference()
    assert cache_files(site) == []


def test_a_zip_on_the_path_is_not_keyed_and_is_asked_every_time(site, monkeypatch) -> None:
    archive = site.parent / "plugins.zip"
    archive.write_bytes(b"PK\x05\x06" + bytes(18))  # an empty zip archive
    monkeypatch.syspath_prepend(str(archive))
    install(site, "first-plugin", "1.0", "one = json:dumps")
    assert plugin_entry_points._environment_key(GROUP) is None
    assert rows(entry_points(GROUP)) == reference()
    assert cache_files(site) == []


def test_load_follows_the_attribute_path() -> None:
    assert PluginEntryPoint("j", "os.path:join", None, None).load() is os.path.join
    assert PluginEntryPoint("m", "os.path", None, None).load() is os.path
    with pytest.raises(ValueError, match="invalid entry point value"):
        PluginEntryPoint("bad", "not a module!", None, None).load()


def test_one_file_per_environment_and_the_oldest_go(site, monkeypatch) -> None:
    monkeypatch.setattr(plugin_entry_points, "MAX_CACHE_FILES", 2)
    install(site, "first-plugin", "1.0", "one = json:dumps")
    for version in ("2.0", "3.0", "4.0"):
        entry_points(GROUP)
        install(site, f"plugin-{version[0]}", version, f"p{version[0]} = json")
    entry_points(GROUP)
    assert len(cache_files(site)) == 2
    assert rows(entry_points(GROUP)) == reference()


def test_the_importlib_metadata_backport_on_the_meta_path_keeps_the_cache(site) -> None:
    backport = pytest.importorskip("importlib_metadata")  # importing it adds its finder
    assert any(isinstance(f, backport.MetadataPathFinder) for f in sys.meta_path)
    install(site, "first-plugin", "1.0", "one = json:dumps")
    assert plugin_entry_points._environment_key(GROUP) is not None
    assert rows(entry_points(GROUP)) == reference()
    assert len(cache_files(site)) == 1


def test_a_finder_with_distributions_of_its_own_turns_the_cache_off(site, monkeypatch) -> None:
    class OwnDistributions:
        def find_spec(self, *args):
            return None

        def find_distributions(self, *args, **kwargs):
            return iter(())

    monkeypatch.setattr(sys, "meta_path", [*sys.meta_path, OwnDistributions()])
    assert plugin_entry_points._environment_key(GROUP) is None
