"""The public test-generation cases of the Copilot harness, read with their repositories.

A case (``data/test_gen/case-N.json`` upstream) names a repository, a commit, a file, a method
and the method's line range. Its focal file is read from the repository's ``git archive`` tar
at that commit (a member of the same file set). Items are the cases of one language, at most
``per_repo`` per repository, drawn with a seed (the cases are 30 per repository at most, so
the cap keeps a run bounded without favouring any repository).
"""

from __future__ import annotations

import json
import random
import re
import tarfile
from collections import defaultdict
from pathlib import Path
from typing import Any

from seebench import safe_files
from seebench.suites.copilot.fix.cases import case_number
from seebench.suites.copilot.repo_testgen.locate import locate_method
from seebench.suites.copilot.repos.staging import TAR_NAME

CASES_PREFIX = "data/test_gen/"
CASE_KEYS = ("case_id", "repo_name", "commit", "file_path", "line_range", "language")
LANGUAGES = ("python", "javascript", "typescript")
IDENTIFIER = re.compile(r"[A-Za-z_$][\w$]*")
#: the rules of :func:`.locate.locate_method` the rows were made with: the data's table cache
#: is keyed by this module's source, so a change of the locator changes this number
#: (2: named function expressions, ``module.exports = function name(...)``)
LOCATOR_VERSION = 2


def archive_member(repo: str, commit: str) -> str:
    """The file-set path of ``repo``'s tar at ``commit``."""
    return f"repos/{repo.replace('/', '+')}@{commit}.tar"


def case_row(case: Any, where: str) -> dict[str, Any]:
    """One case JSON as a row; ``ValueError`` naming ``where`` and the key when malformed."""
    if not isinstance(case, dict):
        raise ValueError(f"{where}: expected a JSON object")
    for key in CASE_KEYS:
        if key not in case:
            raise ValueError(f"{where}: no key {key!r}")
    fields = case.get("command_specific_fields")
    method = fields.get("method_name") if isinstance(fields, dict) else None
    if not isinstance(method, str) or not method:
        raise ValueError(f"{where}: command_specific_fields.method_name is missing")
    lines = case["line_range"]
    if (
        not isinstance(lines, list)
        or len(lines) != 2
        or not all(isinstance(n, int) and n >= 0 for n in lines)
        or lines[0] > lines[1]
    ):
        raise ValueError(f"{where}: line_range {lines!r} is not [first, last]")
    if case["language"] not in LANGUAGES:
        raise ValueError(f"{where}: language {case['language']!r} is not one of {LANGUAGES}")
    path = str(case["file_path"])
    if path.startswith("/") or ".." in path.split("/"):
        raise ValueError(f"{where}: file_path {path!r} is not a clean relative path")
    if not re.fullmatch(r"[0-9a-f]{40}", str(case["commit"])):
        raise ValueError(f"{where}: commit {case['commit']!r} is not 40 hex digits")
    return {
        "case_id": str(case["case_id"]),
        "repo": str(case["repo_name"]),
        "commit": str(case["commit"]),
        "language": str(case["language"]),
        "file_path": path,
        "method": method,
        "first_line": lines[0],
        "last_line": lines[1],
        "snippet": str(case.get("code_snippet") or ""),
    }


def _read_member(files: Any, tar_name: str, member: str, open_tars: dict) -> tuple[str | None, str]:
    """(text, "") or (None, why not) for ``member`` of the tar ``tar_name`` of ``files``."""
    if tar_name not in files:
        return None, f"no repository archive {tar_name} in the data"
    if tar_name not in open_tars:
        try:
            open_tars[tar_name] = tarfile.open(Path(files[tar_name]), "r:")  # noqa: SIM115
        except (OSError, tarfile.TarError) as exc:
            open_tars[tar_name] = None
            return None, f"{tar_name}: unreadable archive ({exc})"
    archive = open_tars[tar_name]
    if archive is None:
        return None, f"{tar_name}: unreadable archive"
    try:
        info = archive.getmember(member)
    except KeyError:
        return None, f"{member} is not in {tar_name}"
    handle = archive.extractfile(info) if info.isfile() else None
    if handle is None:
        return None, f"{member} in {tar_name} is not a regular file"
    try:
        return handle.read().decode("utf-8"), ""
    except UnicodeDecodeError:
        return None, f"{member} in {tar_name} is not UTF-8 text"


def python_module(file_path: str, names: set[str]) -> str:
    """The module name pytest (``prepend`` import mode) gives the focal file: its folders
    upward while they hold ``__init__.py`` make the package (``names``: the tree's files)."""
    parts = file_path[: -len(".py")].split("/") if file_path.endswith(".py") else [file_path]
    start = len(parts) - 1
    while start > 0 and "/".join([*parts[:start], "__init__.py"]) in names:
        start -= 1
    module = parts[start:]
    if len(module) > 1 and module[-1] == "__init__":
        module = module[:-1]
    return ".".join(module)


def read_repo_test_cases(
    files: Any, *, language: str, per_repo: int = 5, seed: int = 0
) -> list[dict[str, Any]]:
    """Reader ``copilot_repo_test``: the test_gen cases of ``language`` (at most ``per_repo``
    per repository, drawn with ``seed``), each with its focal file's text (``file``; ``None``
    with ``file_error`` when it cannot be had) and its repository tar's sha256 (``tar_sha256``)."""
    from seebench.data.file_sets import FileSet, read_file_list

    if not isinstance(files, FileSet):
        raise ValueError("the copilot_repo_test reader reads a file set (a source with 'files:')")
    if language not in LANGUAGES:
        raise ValueError(f"copilot_repo_test reader: language {language!r} not in {LANGUAGES}")
    if not isinstance(per_repo, int) or per_repo < 1:
        raise ValueError(f"copilot_repo_test reader: per_repo {per_repo!r} must be at least 1")
    digests = {m.path: m.sha256 for m in read_file_list(files.list_path)}
    by_repo: dict[tuple[str, str], list[dict[str, Any]]] = defaultdict(list)
    for name in files.under(CASES_PREFIX):
        if not name.endswith(".json"):
            continue
        try:
            case = json.loads(files.read_text(name))
        except (UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise ValueError(f"{name}: invalid JSON: {exc}") from None
        row = case_row(case, name)
        if row["language"] == language:
            by_repo[(row["repo"], row["commit"])].append(row)
    rows: list[dict[str, Any]] = []
    open_tars: dict[str, Any] = {}
    try:
        for key in sorted(by_repo):
            cases = sorted(by_repo[key], key=lambda r: case_number(r["case_id"]))
            drawn = random.Random(f"{seed}:{key[0]}@{key[1]}").sample(
                cases, min(per_repo, len(cases))
            )
            for row in sorted(drawn, key=lambda r: case_number(r["case_id"])):
                tar_name = archive_member(row["repo"], row["commit"])
                text, error = _read_member(files, tar_name, row["file_path"], open_tars)
                if not IDENTIFIER.fullmatch(row["method"]):
                    # two JS cases name an object key ('Times-Bold'): no method to trace
                    text, error = None, f"method name {row['method']!r} is not an identifier"
                if text is not None:
                    found = locate_method(text, row["language"], row["method"], row["first_line"])
                    if found is None:
                        text = None
                        error = f"no definition of {row['method']} near line {row['first_line']}"
                    else:
                        row = {**row, "first_line": found[0], "last_line": found[1]}
                module = ""
                if row["language"] == "python" and open_tars.get(tar_name) is not None:
                    names = set(open_tars[tar_name].getnames())
                    module = python_module(row["file_path"], names)
                rows.append(
                    {
                        **row,
                        "module": module,
                        "file": text,
                        "file_error": error,
                        "tar_sha256": digests.get(tar_name, ""),
                    }
                )
    finally:
        for archive in open_tars.values():
            if archive is not None:
                archive.close()
    rows.sort(key=lambda r: case_number(r["case_id"]))
    return rows


def file_list_lines(manifest: Path, prefix: str = "copilot_harness/") -> list[str]:
    """The ``sha256sum`` lines of the scenario's file set from the data mirror's MANIFEST.tsv:
    every test_gen case JSON (as ``data/test_gen/...``, its path upstream) and every staged
    repository tar a case points into (as ``repos/...``)."""
    records = safe_files.read_rows(manifest, "\t")
    by_path = {r["path"]: r for r in records}
    lines, needed = [], set()
    folder = f"{prefix}test_gen/"
    for record in records:
        path = record["path"]
        if path.startswith(folder) and path.endswith(".json"):
            if not re.fullmatch(r"[0-9a-f]{64}", record["sha256"] or ""):
                raise ValueError(f"{manifest}: {path} has no sha256")
            lines.append(f"{record['sha256']}  {CASES_PREFIX}{path[len(folder) :]}")
            case = json.loads(
                safe_files.read_text(manifest.parent / path, safe_files.TEXT_MAX_BYTES)
            )
            needed.add(archive_member(case["repo_name"], case["commit"]))
    for name in sorted(needed):
        member = by_path.get(prefix + name)
        if member is not None and TAR_NAME.match(name):
            lines.append(f"{member['sha256']}  {name}")
    return sorted(lines, key=lambda line: line[66:])
