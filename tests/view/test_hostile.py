"""Hostile results: the viewer shows a damaged unit as damaged with its reason, reads nothing
outside the folders it was given, never blocks on a pipe, escapes every text, never writes
through a link, and its exported site loads nothing from outside itself."""

from __future__ import annotations

import json
import os
import re
import threading
from pathlib import Path

import pytest

from seebench.plugin_manager import get_registry
from seebench.view.catalog import Catalog
from seebench.view.export import export_site
from seebench.view.index import cache_paths, clear_memory, load_index
from seebench.view.server import build_app
from seebench.view.site import Site
from seebench.view.synthetic import classification_records, write_unit
from tests.view.conftest import unit_of

SECRET = "top-secret-content-outside-the-results"


def _refresh(catalog: Catalog) -> list:
    """Refresh with a deadline: a FIFO must not block the scan."""
    out: list = []
    worker = threading.Thread(target=lambda: out.append(catalog.refresh()), daemon=True)
    worker.start()
    worker.join(timeout=60)
    assert not worker.is_alive(), "the scan blocked"
    return out[0]


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    folder = tmp_path / "outside"
    folder.mkdir()
    (folder / "secret.txt").write_text(SECRET)
    return folder


def _unit(root: Path, model: str, task: str, **kwargs) -> Path:
    return write_unit(root, model, "m", task, classification_records(5, 0.5), **kwargs)


def _problems(catalog: Catalog) -> dict[str, str]:
    return {f"{u.model}/{u.task}": u.problem for u in _refresh(catalog) if u.problem}


def test_damaged_result_files_are_shown_with_a_reason(tmp_path: Path, outside: Path) -> None:
    root = tmp_path / "results"
    good = _unit(root, "m1", "good")
    _unit(root, "m1", "nan_metric")
    path = root / "m1/m/nan_metric.json"
    path.write_text(path.read_text().replace('"accuracy": 0.', '"accuracy": NaN, "x": 0.', 1))
    (root / "m1/m/not_json.json").write_text("{ not json")
    (root / "m1/m/not_utf8.json").write_bytes(b'{"a": "\xff"}')
    (root / "m1/m/deep.json").write_text("[" * 50_000 + "]" * 50_000)
    (root / "m1/m/array.json").write_text("[1, 2]")
    with open(root / "m1/m/huge.json", "wb") as handle:
        handle.truncate(64 * 1024 * 1024)
    os.mkfifo(root / "m1/m/pipe.json")
    (root / "m1/m/copy.json").write_text(good.read_text())  # filed under another name
    os.symlink(outside / "secret.txt", root / "m1/m/link_out.json")
    _unit(root, "m1", "bad_samples")
    samples = root / "m1/m/bad_samples.samples.jsonl"
    samples.write_text(samples.read_text().replace("{", "<", 1))
    _unit(root, "m1", "pipe_samples")
    (root / "m1/m/pipe_samples.samples.jsonl").unlink()
    os.mkfifo(root / "m1/m/pipe_samples.samples.jsonl")
    _unit(root, "m1", "missing_samples")
    (root / "m1/m/missing_samples.samples.jsonl").unlink()

    problems = _problems(Catalog([root]))
    assert "m1/good" not in problems
    expected = {
        "m1/nan_metric": "not a finite number",
        "m1/not_json": "not a JSON object",
        "m1/not_utf8": "not a JSON object",
        "m1/deep": "not a JSON object",
        "m1/array": "not a JSON object",
        "m1/huge": "more than",
        "m1/pipe": "not a regular file",
        "m1/copy": "filed as m1/m/copy but records m1/m/good",
        "m1/link_out": "outside the results folder",
        "m1/bad_samples": "line 1 is not a sample record",
        "m1/pipe_samples": "not a regular file",
        "m1/missing_samples": "is missing",
    }
    for unit, reason in expected.items():
        assert reason in (problems.get(unit) or ""), (unit, problems.get(unit))
    assert SECRET not in json.dumps(problems)


def test_a_linked_model_folder_out_of_the_results_is_refused(tmp_path: Path) -> None:
    root, elsewhere = tmp_path / "results", tmp_path / "elsewhere"
    _unit(elsewhere, "m2", "t")
    root.mkdir()
    os.symlink(elsewhere / "m2", root / "m2")
    [unit] = _refresh(Catalog([root]))
    assert "outside the results folder" in unit.problem


def test_every_page_of_a_hostile_folder_answers(tmp_path: Path, outside: Path) -> None:
    from starlette.testclient import TestClient

    root = tmp_path / "results"
    name = '<img src=x onerror="alert(1)">'
    records = list(classification_records(5, 0.5))
    records[0]["artifacts"] = ["../../../outside/secret.txt", "link", "folder"]
    records[1] = "not a record"  # a damaged line
    records[2]["scores"] = {"s": {"value": "<b>bold</b>", "explanation": "<i>x</i>"}}
    write_unit(root, name, "m", "t", [r if isinstance(r, dict) else {} for r in records])
    samples = root / name / "m" / "t.samples.jsonl"
    lines = samples.read_text().splitlines()
    lines[1] = "not a record"
    samples.write_text("\n".join(lines) + "\n")
    artifacts = root / name / "m" / "t.artifacts"
    artifacts.mkdir()
    os.symlink(outside / "secret.txt", artifacts / "link")
    (artifacts / "folder").mkdir()
    os.symlink(outside, artifacts / "folder" / "escape")
    os.mkfifo(artifacts / "folder" / "pipe")
    catalog = Catalog([root])
    [unit] = _refresh(catalog)
    assert "line 2 is not a sample record" in unit.problem
    client = TestClient(build_app(Site(catalog, get_registry())), base_url="http://127.0.0.1")
    runs = client.get("/index.html").text
    assert name not in runs and "&lt;img src=x onerror=&#34;alert(1)&#34;&gt;" in runs
    page = client.get(f"/unit/{unit.uid}/page-1.html")
    assert page.status_code == 200
    assert "not a sample record" in page.text and "damage-reason" in page.text
    sample = client.get(f"/unit/{unit.uid}/sample-0.html").text
    assert SECRET not in sample
    assert "resolves outside" in sample
    assert "&lt;b&gt;bold&lt;/b&gt;" in client.get(f"/unit/{unit.uid}/sample-2.html").text
    for path in ("link", "folder/escape/secret.txt", "folder/pipe", "../../../outside/secret.txt"):
        got = client.get(f"/unit/{unit.uid}/artifact.txt", params={"path": path})
        assert got.status_code == 404 and SECRET not in got.text
    for url in (
        f"/unit/{unit.uid}/sample-1.html",
        f"/unit/{unit.uid}/sample-99.html",
        f"/unit/{unit.uid}/page-99999999999.html",
        f"/unit/{unit.uid}/page-x.html",
    ):
        assert client.get(url).status_code in (200, 404)


def test_the_index_cache_never_writes_through_a_link(tmp_path: Path, outside: Path) -> None:
    root = tmp_path / "results"
    _unit(root, "m3", "t")
    samples = root / "m3/m/t.samples.jsonl"
    target = outside / "secret.txt"
    os.symlink(target, cache_paths(samples)[0])
    clear_memory()
    _, origin = load_index(samples, root)
    assert origin == "built"
    assert target.read_text() == SECRET
    assert not cache_paths(samples)[0].is_symlink()  # the link itself was replaced


def test_the_exported_site_loads_nothing_from_outside(
    catalog, results: Path, tmp_path: Path
) -> None:
    unit = unit_of(catalog, "alpha", "issue_type")
    out = tmp_path / "site"
    export_site(Site(catalog, get_registry(), mode="export"), out)
    pages = list(out.rglob("*.html"))
    assert len(pages) > 10
    for page in pages:
        text = page.read_text()
        assert "Content-Security-Policy" in text and "default-src &#39;none&#39;" in text
        assert not re.search(
            r"""(src|href|action)\s*=\s*["']?\s*(https?:|//|file:|javascript:)""", text, re.I
        )
        assert "<script src" not in text and "@import" not in text
        assert not re.search(r"url\((?!#)", text)  # only the figures' own #ids
    text = (out / "unit" / unit.uid / "page-1.html").read_text()
    assert "<script>document.title" not in text
    assert all(not Path(p).is_absolute() for p in re.findall(r'href="([^"]+)"', text))


def test_export_refuses_to_write_into_the_results(catalog, results: Path) -> None:
    from seebench.errors import SeebenchError

    with pytest.raises(SeebenchError, match="inside the results folder"):
        export_site(Site(catalog, get_registry(), mode="export"), results / "site")
