"""The on-disk task index cache: what is parsed again, and what a damaged cache does."""

from __future__ import annotations

import dataclasses
import json
import os
import time
from pathlib import Path

import pytest

from seebench.cli.main import main
from seebench.plugin_manager import get_registry
from seebench.registry import Registry
from seebench.tasks import index_cache, validate
from seebench.tasks.index import build_task_index
from tests.conftest import write_task

BASE = """
suite: cached
version: 1
type: multiclass
labels:
  - {name: fix}
  - {name: feature}
metrics: [f1_macro]
data:
  sources:
    - {url: 'https://example.org/c.csv', sha256: 'aa%s', format: csv}
"""
INCLUDER = """
include: _base.yaml
name: %s
"""
STANDALONE = """
name: standalone
suite: cached
version: 2
type: binary
labels: [{name: bug}, {name: other}]
metrics: [accuracy]
data:
  sources:
    - {url: 'https://example.org/s.csv', sha256: 'bb%s', format: csv}
"""
BROKEN = """
include: _base.yaml
name: broken_one
metrics: [no_such_metric]
"""
SHA = "0" * 61 + "1"  # 62 hex digits: with the 2-letter prefixes, a well-formed sha256


def age(path: Path, seconds: float = 3600) -> None:
    """Date ``path`` back, as a file written long before the index is built (files modified
    within index_cache.RACY_NS of a build are read again by the next one)."""
    when = time.time_ns() - int(seconds * 1e9)
    os.utime(path, ns=(when, when))


@pytest.fixture
def tasks_dir(tmp_path: Path) -> Path:
    directory = tmp_path / "tasks"
    (directory / "_base.yaml").parent.mkdir(parents=True)
    (directory / "_base.yaml").write_text(BASE % SHA)
    write_task(directory, "first", INCLUDER % "first")
    write_task(directory, "second", INCLUDER % "second")
    write_task(directory, "standalone", STANDALONE % SHA)
    write_task(directory, "broken_one", BROKEN)
    for path in directory.iterdir():
        age(path)
    return directory


@pytest.fixture
def parsed(monkeypatch) -> list[str]:
    """The stems of the task files parsed (loaded and validated) from now on."""
    stems: list[str] = []
    real = validate.load_task

    def counting(path, *args, **kwargs):
        stems.append(Path(path).stem)
        return real(path, *args, **kwargs)

    monkeypatch.setattr(validate, "load_task", counting)
    return stems


def build(directory: Path, registry: Registry | None = None):
    return build_task_index(registry or get_registry(), [directory])


def listing_of(index) -> tuple:
    """What ``tasks list`` shows of an index, and each valid task's full document."""
    raws = {name: index.tasks[name].raw for name in index.summaries}
    return index.summaries, [(b.name, b.problems) for b in index.broken], raws


def cache_files() -> list[Path]:
    return sorted(index_cache.cache_dir().glob("index-*.bin"))


def test_a_second_build_parses_nothing_and_gives_the_same_tasks(tasks_dir, parsed) -> None:
    first = build(tasks_dir)
    assert {"first", "second", "standalone", "broken_one"} <= set(parsed)
    parsed.clear()
    second = build(tasks_dir)
    assert parsed == []
    assert list(second.summaries) == list(first.summaries)
    for name in ("first", "second", "standalone"):
        assert second.tasks[name].raw == first.tasks[name].raw
        assert second.tasks[name].config_hash == first.tasks[name].config_hash
        assert second.tasks[name].metrics == first.tasks[name].metrics
    assert second.tasks["first"].labels[1].name == "feature"
    assert second.tasks["standalone"].is_binary
    assert second.origins == first.origins
    assert parsed == []  # specs came from the cached documents


def test_specs_are_built_only_when_asked_for(tasks_dir) -> None:
    build(tasks_dir)
    index = build(tasks_dir)
    assert index.summaries["first"].metric == "f1_macro"
    assert index.summaries["standalone"].version == "2"
    assert index.tasks._built == {}  # type: ignore[attr-defined]
    assert [t.name for t in index.select("first")] == ["first"]
    assert set(index.tasks._built) == {"first"}  # type: ignore[attr-defined]


def test_changing_one_file_parses_only_it_again(tasks_dir, parsed) -> None:
    build(tasks_dir)
    write_task(tasks_dir, "second", (INCLUDER % "second") + "description: changed\n")
    age(tasks_dir / "second.yaml", seconds=60)
    parsed.clear()
    index = build(tasks_dir)
    assert parsed == ["second"]
    assert index.tasks["second"].description == "changed"
    parsed.clear()
    build(tasks_dir)
    assert parsed == []


def test_a_touched_file_with_the_same_content_is_not_parsed_again(tasks_dir, parsed) -> None:
    """A checkout, copy or reinstall gives files new mtimes: only their content counts."""
    first = build(tasks_dir)
    (cache,) = cache_files()
    age(cache, seconds=7200)  # (so that a rewrite shows)
    before = cache.stat().st_mtime_ns
    for path in tasks_dir.iterdir():
        age(path, seconds=60)
    parsed.clear()
    again = build(tasks_dir)
    assert parsed == []
    assert listing_of(again) == listing_of(first)
    assert cache.stat().st_mtime_ns != before  # the new stats are written
    written = cache.stat().st_mtime_ns
    build(tasks_dir)
    assert parsed == [] and cache.stat().st_mtime_ns == written  # trusted by stat again


def test_a_file_changed_within_a_build_is_read_again_by_content(tasks_dir, parsed) -> None:
    write_task(tasks_dir, "fresh", INCLUDER % "fresh")  # mtime: now, so racy at first
    build(tasks_dir)
    write_task(tasks_dir, "fresh", (INCLUDER % "fresh") + "description: edited\n")
    parsed.clear()
    index = build(tasks_dir)
    assert parsed == ["fresh"]
    assert index.tasks["fresh"].description == "edited"


def test_a_seebench_version_change_parses_everything_again(tasks_dir, parsed, monkeypatch) -> None:
    import seebench

    build(tasks_dir)
    monkeypatch.setattr(seebench, "__version__", seebench.__version__ + ".post1")
    parsed.clear()
    build(tasks_dir)
    assert {"first", "second", "standalone", "broken_one"} <= set(parsed)


def test_a_damaged_record_is_parsed_again_and_the_others_kept(tasks_dir, parsed) -> None:
    first = build(tasks_dir)
    (cache,) = cache_files()
    magic, header, documents = cache.read_text().split("\n", 2)
    data = json.loads(header)
    damaged = 0
    for record in data["records"]:
        if record[0].endswith("second.yaml"):
            record[1][0][3] = 42  # a digest that is not a string
            damaged += 1
    assert damaged == 1
    cache.write_text(magic + "\n" + json.dumps(data) + "\n" + documents)
    parsed.clear()
    again = build(tasks_dir)
    assert parsed == ["second"]
    assert listing_of(again) == listing_of(first)


def test_changing_an_included_base_parses_its_includers_again(tasks_dir, parsed) -> None:
    build(tasks_dir)
    base = tasks_dir / "_base.yaml"
    base.write_text((BASE % SHA).replace("version: 1", "version: 7"))
    age(base, seconds=60)
    parsed.clear()
    index = build(tasks_dir)
    assert sorted(parsed) == ["broken_one", "first", "second"]
    assert index.tasks["first"].version == "7"
    assert index.tasks["standalone"].version == "2"


def test_a_missing_include_that_appears_is_noticed(tasks_dir, parsed) -> None:
    write_task(tasks_dir, "orphan", "include: _later.yaml\nname: orphan\n")
    age(tasks_dir / "orphan.yaml")
    assert "not found" in next(b for b in build(tasks_dir).broken if b.name == "orphan").problems[0]
    (tasks_dir / "_later.yaml").write_text(BASE % SHA)
    age(tasks_dir / "_later.yaml")
    parsed.clear()
    index = build(tasks_dir)
    assert parsed == ["orphan"]
    assert "orphan" in index.tasks


def test_a_plugin_version_change_parses_everything_again(tasks_dir, parsed) -> None:
    registry = get_registry()
    build(tasks_dir, registry)
    parsed.clear()
    upgraded = dataclasses.replace(
        registry, distributions={**registry.distributions, "some_plugin": "some-dist==2.0"}
    )
    build(tasks_dir, upgraded)
    assert {"first", "second", "standalone", "broken_one"} <= set(parsed)


def test_a_new_metric_registered_parses_everything_again(tasks_dir, parsed) -> None:
    registry = get_registry()
    build(tasks_dir, registry)
    parsed.clear()
    metric = dataclasses.replace(registry.metrics["accuracy"], name="no_such_metric")
    extended = dataclasses.replace(registry, metrics={**registry.metrics, "no_such_metric": metric})
    index = build(tasks_dir, extended)
    assert "broken_one" in parsed
    assert "broken_one" in index.tasks  # its metric exists now


def test_a_broken_file_stays_broken_with_its_problems(tasks_dir, parsed) -> None:
    first = build(tasks_dir)
    parsed.clear()
    second = build(tasks_dir)
    assert parsed == []
    (was,) = [b for b in first.broken if b.name == "broken_one"]
    (still,) = [b for b in second.broken if b.name == "broken_one"]
    assert still == was
    assert "unknown metric 'no_such_metric'" in still.problems[0]
    assert "broken_one" not in second.tasks


def _corrupt(kind: str, path: Path) -> None:
    text = path.read_text()
    magic, header, documents = text.split("\n", 2)
    if kind == "truncated":
        path.write_text(text[: len(text) // 2])
    elif kind == "garbage":
        path.write_bytes(b"\xff\x00 not a cache \x80" * 50)
    elif kind == "empty":
        path.write_text("")
    elif kind == "foreign_version":
        path.write_text(magic.rsplit(" ", 1)[0] + " 99\n" + header + "\n" + documents)
    elif kind == "bad_header_json":
        path.write_text(magic + "\n{" + header + "\n" + documents)
    elif kind == "wrong_types":
        data = json.loads(header)
        for record in data["records"]:
            record[1] = "deps"  # every record malformed
        path.write_text(magic + "\n" + json.dumps(data) + "\n" + documents)
    elif kind == "documents_tampered":
        path.write_text(magic + "\n" + header + "\n" + documents.replace("cached", "cachex"))
    else:  # pragma: no cover
        raise AssertionError(kind)


@pytest.mark.parametrize(
    "kind",
    ["truncated", "garbage", "empty", "foreign_version", "bad_header_json", "wrong_types"],
)
def test_a_damaged_cache_is_ignored_and_rebuilt(tasks_dir, parsed, kind) -> None:
    first = build(tasks_dir)
    (cache,) = cache_files()
    _corrupt(kind, cache)
    parsed.clear()
    again = build(tasks_dir)
    assert {"first", "second", "standalone", "broken_one"} <= set(parsed)
    assert list(again.summaries) == list(first.summaries)
    assert again.tasks["first"].raw == first.tasks["first"].raw
    parsed.clear()
    build(tasks_dir)
    assert parsed == []  # rewritten whole


def test_a_tampered_document_is_read_from_its_yaml_again(tasks_dir, parsed) -> None:
    first = build(tasks_dir)
    (cache,) = cache_files()
    _corrupt("documents_tampered", cache)
    parsed.clear()
    index = build(tasks_dir)
    assert parsed == []  # the summaries are intact
    assert index.tasks["first"].raw == first.tasks["first"].raw
    assert index.tasks["first"].suite == "cached"
    assert "first" in parsed  # its document failed its digest: read from the YAML


def test_a_file_modified_just_before_a_build_is_checked_by_content(
    tasks_dir, parsed, monkeypatch
) -> None:
    write_task(tasks_dir, "fresh", INCLUDER % "fresh")  # mtime: now
    build(tasks_dir)
    read: list[str] = []
    real = index_cache.file_digest
    monkeypatch.setattr(index_cache, "file_digest", lambda p, m: read.append(p) or real(p, m))
    parsed.clear()
    build(tasks_dir)
    # same-tick rewrites could keep their mtime: not trusted by it, but by its content
    assert parsed == [] and [Path(p).name for p in read if p.endswith(".yaml")] == ["fresh.yaml"]


def test_no_cache_env_reads_everything(tasks_dir, parsed, monkeypatch) -> None:
    build(tasks_dir)
    monkeypatch.setenv("SEEBENCH_NO_TASK_CACHE", "1")
    parsed.clear()
    build(tasks_dir)
    assert {"first", "second", "standalone", "broken_one"} <= set(parsed)


def test_tasks_list_shows_the_same_rows_from_the_cache(tasks_dir, capsys) -> None:
    def listing() -> list[dict]:
        with pytest.raises(SystemExit):
            main(["tasks", "list", "--json", "--include-path", str(tasks_dir)])
        return json.loads(capsys.readouterr().out)

    cold, warm = listing(), listing()
    assert warm == cold
    rows = {row["name"]: row for row in warm}
    assert rows["first"]["status"] == "ok" and rows["first"]["metric"] == "f1_macro"
    assert rows["broken_one"]["status"] == "broken"
    assert "no_such_metric" in rows["broken_one"]["problems"][0]


def test_an_unwritable_cache_directory_is_not_an_error(tasks_dir, parsed, monkeypatch) -> None:
    blocker = index_cache.cache_dir().parent
    blocker.parent.mkdir(parents=True, exist_ok=True)
    blocker.write_text("a file where the cache directory should be")
    index = build(tasks_dir)
    assert "first" in index.tasks


def test_editing_a_registered_plugin_module_parses_everything_again(
    tasks_dir, parsed, tmp_path, monkeypatch
) -> None:
    module = tmp_path / "edited_metric_plugin.py"
    module.write_text("def score(y_true, y_pred):\n    return 1.0\n")
    age(module)
    monkeypatch.syspath_prepend(str(tmp_path))
    import edited_metric_plugin

    registry = get_registry()
    metric = dataclasses.replace(
        registry.metrics["accuracy"], name="edited", func=edited_metric_plugin.score
    )
    extended = dataclasses.replace(registry, metrics={**registry.metrics, "edited": metric})
    build(tasks_dir, extended)
    parsed.clear()
    build(tasks_dir, extended)
    assert parsed == []
    age(module, seconds=120)  # reinstalled unchanged: a new mtime, the same content
    build(tasks_dir, extended)
    assert parsed == []
    module.write_text("def score(y_true, y_pred):\n    return 0.0\n")
    age(module, seconds=60)
    build(tasks_dir, extended)
    assert {"first", "second", "standalone", "broken_one"} <= set(parsed)


def test_a_document_json_cannot_keep_is_read_from_its_yaml_each_time(tasks_dir, parsed) -> None:
    labels = "labels: [{name: fix, value: .nan}, {name: feature, value: 1}]\n"
    write_task(
        tasks_dir, "nan_valued", (INCLUDER % "nan_valued") + labels
    )  # NaN: not in strict JSON
    age(tasks_dir / "nan_valued.yaml")
    first = build(tasks_dir)
    assert "nan_valued" in first.tasks, [b.problems for b in first.broken]
    (cache,) = cache_files()
    written = cache.stat().st_mtime_ns
    parsed.clear()
    again = build(tasks_dir)
    assert parsed == ["nan_valued"]
    assert again.tasks["nan_valued"].labels[1].value == 1
    assert cache.stat().st_mtime_ns == written  # nothing new to write
