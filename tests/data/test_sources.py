"""Data sources: the checksummed cache, fetching over HTTP (local server) and clear failures."""

from __future__ import annotations

import functools
import hashlib
import http.server
import threading

import pytest

from seebench.data.cache import cached_file, sha256_file, store_file
from seebench.data.sources import Source, fetch_source, require_local
from seebench.errors import DataMissingError

CONTENT = b"title,bug\nCrash on save,1\nAdd dark mode,0\n"
SHA = hashlib.sha256(CONTENT).hexdigest()


@pytest.fixture
def server(tmp_path):
    (tmp_path / "issues.csv").write_bytes(CONTENT)
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(tmp_path))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    handler.log_message = lambda *args: None
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()


def source(url, sha=SHA):
    return Source(
        task="t",
        index=0,
        name="issues",
        format="csv",
        url=url,
        sha256=sha,
        path=None,
        options={},
        split=None,
    )


def test_fetch_verifies_and_caches(server):
    path = fetch_source(source(f"{server}/issues.csv"))
    assert path.read_bytes() == CONTENT and path.name == "issues.csv"
    assert cached_file(SHA) == path
    assert sha256_file(path) == SHA


def test_fetch_rejects_wrong_checksum(server):
    with pytest.raises(DataMissingError, match=f"has sha256 {SHA}, expected 0+"):
        fetch_source(source(f"{server}/issues.csv", sha="0" * 64))
    assert cached_file("0" * 64) is None


def test_fetch_404_and_unreachable_are_one_line(server):
    for url in (f"{server}/missing.csv", "http://127.0.0.1:9/issues.csv"):
        with pytest.raises(DataMissingError) as info:
            fetch_source(source(url), timeout=5)
        assert "\n" not in str(info.value) and "cannot download" in str(info.value)


def test_missing_source_says_how_to_get_it():
    with pytest.raises(DataMissingError) as info:
        require_local(source("https://example.org/issues.csv"))
    message = str(info.value)
    assert "seebench data fetch t" in message and "seebench data import DIR" in message
    assert "https://example.org/issues.csv" in message


def test_store_file_is_content_addressed(tmp_path):
    original = tmp_path / "any-name.csv"
    original.write_bytes(CONTENT)
    stored = store_file(original, SHA, "issues.csv")
    assert stored.parent.name == SHA and require_local(source("x")) == stored
