"""WordNet 3.0 for METEOR, assembled from the Debian packages' files."""

from __future__ import annotations

import gzip
import re
from pathlib import Path

import pytest

from seebench.suites.judge import wordnet
from seebench.suites.judge.wordnet import WordNetUnavailableError, lexnames_text, nltk_data_dir
from tests.requirements import requires

LEXNAMES_MAN_PAGE = Path("/usr/share/man/man5/lexnames.5WN.gz")

needs_wordnet = requires("wordnet")


def test_lexnames_has_the_45_lexicographer_files_in_order():
    lines = lexnames_text().splitlines()
    assert len(lines) == 45
    assert lines[0] == "00\tadj.all\t3"
    assert lines[3] == "03\tnoun.Tops\t1"
    assert lines[44] == "44\tadj.ppl\t3"


@pytest.mark.skipif(not LEXNAMES_MAN_PAGE.is_file(), reason="lexnames(5WN) man page not installed")
def test_lexnames_matches_the_packages_documentation():
    page = gzip.decompress(LEXNAMES_MAN_PAGE.read_bytes()).decode()
    documented = re.findall(r"^(\d\d)\t(\S+)\s", page, flags=re.MULTILINE)
    assert [(f"{n:02d}", name) for n, name in enumerate(wordnet.LEXICOGRAPHER_FILES)] == documented


def test_missing_wordnet_is_one_clear_line(tmp_path, monkeypatch):
    monkeypatch.setenv(wordnet.WORDNET_DIR_ENV, str(tmp_path))
    with pytest.raises(WordNetUnavailableError) as error:
        nltk_data_dir()
    message = str(error.value)
    assert "\n" not in message
    assert str(tmp_path) in message and "wordnet-base wordnet-sense-index" in message


@needs_wordnet
def test_the_folder_is_built_once_and_rebuilt_when_damaged(isolated_home):
    root = nltk_data_dir()
    folder = root / "corpora" / "wordnet"
    assert (folder / "lexnames").read_text() == lexnames_text()
    first = (folder / "data.noun").stat().st_mtime_ns
    assert nltk_data_dir() == root
    assert (folder / "data.noun").stat().st_mtime_ns == first
    (folder / "index.sense").write_text("truncated")
    nltk_data_dir()
    assert (folder / "index.sense").stat().st_size == (
        (wordnet.source_dir() / "index.sense").stat().st_size
    )


@needs_wordnet
def test_the_reader_knows_wordnet_30():
    reader = wordnet.wordnet_reader()
    assert reader.get_version() == "3.0"
    dog = reader.synsets("dog")[0]
    assert dog.name() == "dog.n.01" and dog.lexname() == "noun.animal"
    assert reader.morphy("running", "v") == "run"
