"""WordNet 3.0 for NLTK's METEOR, from Debian's ``wordnet-base`` and ``wordnet-sense-index``.

No PyPI package ships WordNet and NLTK's downloader needs the network. The Debian packages hold
the WordNet 3.0 database files; NLTK's reader also wants ``lexnames`` (the list of the 45
lexicographer files, documented in the packages' ``lexnames(5WN)`` page but not shipped as a
file). We assemble an NLTK-style ``corpora/wordnet`` folder under ``SEEBENCH_HOME``: the
database files copied (NLTK refuses symlinks that leave its data folders) plus ``lexnames``.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import threading
import warnings
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from seebench import safe_files
from seebench.data.cache import seebench_home
from seebench.errors import SeebenchError

if TYPE_CHECKING:
    from nltk.corpus.reader.wordnet import WordNetCorpusReader

DEBIAN_WORDNET_DIR = Path("/usr/share/wordnet")
DEBIAN_PACKAGES = "wordnet-base wordnet-sense-index"
WORDNET_DIR_ENV = "SEEBENCH_WORDNET_DIR"

#: The database files NLTK's WordNet reader opens (``lexnames`` is generated).
DATABASE_FILES = (
    *(f"{kind}.{pos}" for kind in ("data", "index") for pos in ("noun", "verb", "adj", "adv")),
    *(f"{pos}.exc" for pos in ("noun", "verb", "adj", "adv")),
    "cntlist.rev",
    "index.sense",
)

#: WordNet 3.0's lexicographer files in number order (``lexnames(5WN)``).
LEXICOGRAPHER_FILES = [
    "adj.all",
    "adj.pert",
    "adv.all",
    "noun.Tops",
    "noun.act",
    "noun.animal",
    "noun.artifact",
    "noun.attribute",
    "noun.body",
    "noun.cognition",
    "noun.communication",
    "noun.event",
    "noun.feeling",
    "noun.food",
    "noun.group",
    "noun.location",
    "noun.motive",
    "noun.object",
    "noun.person",
    "noun.phenomenon",
    "noun.plant",
    "noun.possession",
    "noun.process",
    "noun.quantity",
    "noun.relation",
    "noun.shape",
    "noun.state",
    "noun.substance",
    "noun.time",
    "verb.body",
    "verb.change",
    "verb.cognition",
    "verb.communication",
    "verb.competition",
    "verb.consumption",
    "verb.contact",
    "verb.creation",
    "verb.emotion",
    "verb.motion",
    "verb.perception",
    "verb.possession",
    "verb.social",
    "verb.stative",
    "verb.weather",
    "adj.ppl",
]
_SYNTACTIC_CATEGORY = {"noun": 1, "verb": 2, "adj": 3, "adv": 4}

_lock = threading.Lock()


class WordNetUnavailableError(SeebenchError):
    """WordNet 3.0 is not installed where seebench looks for it."""


def lexnames_text() -> str:
    """The ``lexnames`` file: number, lexicographer file name and syntactic category per line."""
    return "".join(
        f"{number:02d}\t{name}\t{_SYNTACTIC_CATEGORY[name.split('.')[0]]}\n"
        for number, name in enumerate(LEXICOGRAPHER_FILES)
    )


def source_dir() -> Path:
    """Where the WordNet database files are read from (``$SEEBENCH_WORDNET_DIR`` or Debian's)."""
    return Path(os.environ.get(WORDNET_DIR_ENV) or DEBIAN_WORDNET_DIR)


def _check_source(source: Path) -> None:
    missing = [name for name in DATABASE_FILES if not (source / name).is_file()]
    if missing:
        raise WordNetUnavailableError(
            f"WordNet 3.0 not found in {source} (missing {', '.join(missing[:3])}"
            f"{'...' if len(missing) > 3 else ''}): install the Debian packages "
            f"'{DEBIAN_PACKAGES}' or set {WORDNET_DIR_ENV}"
        )
    header = safe_files.read_head(source / "data.adj", 4096)
    if b"WordNet 3.0 Copyright" not in header:
        raise WordNetUnavailableError(f"{source / 'data.adj'}: not WordNet 3.0")


def _is_complete(target: Path, source: Path) -> bool:
    """A folder built earlier is reused only when every file matches the source's size."""
    try:
        if safe_files.read_text(target / "lexnames", 1 << 20, "ascii") != lexnames_text():
            return False
        return all(
            (target / name).stat().st_size == (source / name).stat().st_size
            for name in DATABASE_FILES
        )
    except (OSError, UnicodeDecodeError):
        return False


def nltk_data_dir() -> Path:
    """An NLTK data folder holding ``corpora/wordnet`` (built on first use, then reused)."""
    source = source_dir()
    _check_source(source)
    root = seebench_home() / "nltk_data"
    target = root / "corpora" / "wordnet"
    with _lock:
        if _is_complete(target, source):
            return root
        target.parent.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(dir=target.parent, prefix=".wordnet-"))
        try:
            for name in DATABASE_FILES:
                shutil.copyfile(source / name, staging / name)
            (staging / "lexnames").write_text(lexnames_text(), encoding="ascii")
            if target.exists():
                shutil.rmtree(target)
            os.replace(staging, target)
        finally:
            if staging.exists():
                shutil.rmtree(staging, ignore_errors=True)
    return root


@lru_cache(maxsize=1)
def wordnet_reader() -> WordNetCorpusReader:
    """NLTK's WordNet reader over WordNet 3.0 (no multilingual data)."""
    import nltk
    from nltk.corpus.reader.wordnet import WordNetCorpusReader

    root = nltk_data_dir()
    # NLTK only opens files under its data path; the reader also looks up 'corpora/wordnet'
    if str(root) not in nltk.data.path:
        nltk.data.path.append(str(root))
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="The multilingual functions are not available")
        return WordNetCorpusReader(str(root / "corpora" / "wordnet"), None)
