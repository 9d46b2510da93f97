"""The staged repositories: which tars there are, what is known about each, and their trees.

A staged repository is one ``git archive --format=tar <commit>`` tar of the data mirror
(``repos/<owner>+<name>@<commit>.tar``). Whole trees (61 of the 76 tars in the mirror) can be
built and tested; for 14 large repositories (15 tars) only the files the cases point into were
archived (``whole_tree`` false).
``git archive`` stamps every entry with the commit's time, which is how the commit date is
known without the repository's history.
"""

from __future__ import annotations

import csv
import hashlib
import json
import os
import re
import shutil
import tarfile
import tempfile
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from seebench import safe_files
from seebench.data.cache import seebench_home
from seebench.errors import SeebenchError
from seebench.tasks.configs import task_config_dir

#: the facts table shipped beside the file list
FACTS_FILE = task_config_dir("copilot_repo") / "data" / "copilot_repos.tsv"
FACTS_COLUMNS = ("slug", "repo", "commit", "language", "whole_tree")
TAR_NAME = re.compile(r"^repos/(?P<owner>[^/+]+)\+(?P<name>[^/@]+)@(?P<commit>[0-9a-f]{40})\.tar$")
LANGUAGES = ("python", "javascript", "typescript")


@dataclass(frozen=True)
class StagedRepo:
    """One repository at one commit, as staged in the data mirror."""

    repo: str  #: ``owner/name``
    commit: str  #: 40 hex digits
    language: str  #: ``python``, ``javascript`` or ``typescript`` (the cases' language)
    whole_tree: bool  #: False where only the cases' files were archived
    tar: Path  #: the verified cached tar

    @property
    def slug(self) -> str:
        """``owner+name@commit``: the tar's name without ``.tar``, used for cache folders."""
        return f"{self.repo.replace('/', '+')}@{self.commit}"

    @property
    def member(self) -> str:
        """The tar's path in the file set."""
        return f"repos/{self.slug}.tar"

    def commit_time(self) -> datetime:
        """The commit's time (UTC), from the tar entries' modification time."""
        with tarfile.open(self.tar) as archive:
            for info in archive:
                if info.isfile() or info.isdir():
                    return datetime.fromtimestamp(info.mtime, tz=UTC)
        raise SeebenchError(f"{self.tar}: repository archive has no entries")


def read_facts(path: Path = FACTS_FILE) -> dict[str, dict[str, str]]:
    """slug -> row of the facts table; a malformed row is an error naming file and line."""
    facts: dict[str, dict[str, str]] = {}
    with open(path, newline="", encoding="utf-8") as handle:
        reader = csv.DictReader(handle, delimiter="\t")
        if tuple(reader.fieldnames or ()) != FACTS_COLUMNS:
            raise SeebenchError(f"{path}: columns must be {', '.join(FACTS_COLUMNS)}")
        for line, row in enumerate(reader, start=2):
            if row["language"] not in LANGUAGES or row["whole_tree"] not in ("yes", "no"):
                raise SeebenchError(f"{path}:{line}: bad language or whole_tree in {row}")
            facts[row["slug"]] = row
    return facts


def staged_repos(files: Mapping[str, Path], facts_path: Path = FACTS_FILE) -> list[StagedRepo]:
    """The staged repositories among ``files`` (a file set: member path -> cached file),
    sorted by slug. Tars not in the facts table are an error (regenerate the list)."""
    facts = read_facts(facts_path)
    repos = []
    for member in sorted(files):
        match = TAR_NAME.match(member)
        if not match:
            continue
        slug = member[len("repos/") : -len(".tar")]
        row = facts.get(slug)
        if row is None:
            raise SeebenchError(f"{facts_path}: no row for staged repository {slug}")
        repos.append(
            StagedRepo(
                repo=row["repo"],
                commit=row["commit"],
                language=row["language"],
                whole_tree=row["whole_tree"] == "yes",
                tar=Path(files[member]),
            )
        )
    return repos


def repos_dir() -> Path:
    """``$SEEBENCH_HOME/copilot/repos``: extracted trees, environments, test-suite records."""
    return seebench_home() / "copilot" / "repos"


def _safe_members(archive: tarfile.TarFile, tar: Path) -> list[tarfile.TarInfo]:
    members = []
    for info in archive.getmembers():
        if info.issym() or info.islnk():
            continue  # a link could point out of the tree; repositories' links are not needed
        if not (info.isfile() or info.isdir()):
            continue
        parts = info.name.split("/")
        if info.name.startswith("/") or ".." in parts:
            raise SeebenchError(f"{tar}: unsafe path {info.name!r} in repository archive")
        members.append(info)
    return members


def source_tree(repo: StagedRepo, root: Path | None = None) -> Path:
    """The repository's files, extracted once under ``repos_dir()/src/<slug>`` (atomically:
    a half-extracted tree is never seen). Treat it as read-only: copy before changing."""
    target = (root or repos_dir() / "src") / repo.slug
    marker = target / ".seebench-extracted"
    if marker.is_file():
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{repo.slug}.", dir=target.parent))
    try:
        with tarfile.open(repo.tar) as archive:
            archive.extractall(staging, members=_safe_members(archive, repo.tar), filter="data")
        (staging / ".seebench-extracted").write_text(repo.member + "\n", encoding="utf-8")
        try:
            os.rename(staging, target)
        except OSError:
            if not marker.is_file():  # another process won the race only if it finished
                raise
    finally:
        if staging.exists():
            shutil.rmtree(staging, ignore_errors=True)
    return target


def file_list_rows(
    manifest: Path, prefix: str = "copilot_harness/"
) -> tuple[list[str], list[dict]]:
    """(``sha256sum`` lines, facts rows) of every staged repository tar in the data mirror's
    MANIFEST.tsv. The language is the cases' (fix and test_gen JSONs); ``whole_tree`` comes
    from the MANIFEST's source description."""
    records = safe_files.read_rows(manifest, "\t")
    languages: dict[str, str] = {}
    for record in records:
        path = record["path"]
        if re.match(rf"{prefix}(fix|test_gen)/.*\.json$", path):
            case = json.loads(
                safe_files.read_text(manifest.parent / path, safe_files.TEXT_MAX_BYTES)
            )
            languages.setdefault(case["repo_name"], case["language"])
    lines, rows = [], []
    for record in records:
        name = record["path"][len(prefix) :]
        match = TAR_NAME.match(name)
        if not record["path"].startswith(prefix) or not match:
            continue
        if not re.fullmatch(r"[0-9a-f]{64}", record["sha256"] or ""):
            raise SeebenchError(f"{manifest}: {record['path']} has no sha256")
        repo = f"{match['owner']}/{match['name']}"
        language = languages.get(repo)
        if language not in LANGUAGES:
            raise SeebenchError(f"{manifest}: no case gives the language of {repo}")
        lines.append(f"{record['sha256']}  {name}")
        rows.append(
            {
                "slug": name[len("repos/") : -len(".tar")],
                "repo": repo,
                "commit": match["commit"],
                "language": language,
                "whole_tree": "yes" if "(whole tree)" in record["source_path"] else "no",
            }
        )
    return sorted(lines, key=lambda line: line[66:]), sorted(rows, key=lambda r: r["slug"])


def tree_digest(paths: Iterable[Path]) -> str:
    """sha256 over the contents of ``paths`` (sorted, missing ones skipped): a manifest hash."""
    digest = hashlib.sha256()
    for path in sorted(paths):
        if path.is_file():
            data = safe_files.read_bytes(path, safe_files.TEXT_MAX_BYTES)
            digest.update(path.name.encode() + b"\0" + data + b"\0")
    return digest.hexdigest()
