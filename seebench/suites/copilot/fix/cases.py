"""The fix cases of the Copilot harness: reading them, and finding their target warning.

A case names a repository, a commit, a file, an analyzer, a rule and a message. Its file is
taken from the repository's ``git archive`` tar at that commit (a member of the same file
set as the case JSONs). The target warning is located by rule and message, never by the
recorded line (which is off in about a third of the files): among the analyzer's warnings on
the whole file alone, the one with the case's rule and exact message nearest to the recorded
line.
"""

from __future__ import annotations

import json
import re
import tarfile
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from seebench import safe_files
from seebench.suites.copilot.fix.analyzers import Diagnostic

#: rule names in the data that the pinned analyzer spells differently (none so far)
RULE_ALIASES: dict[str, str] = {}
#: eslint's message for a rule named in an inline comment whose plugin is not loaded
ESLINT_ARTEFACT = re.compile(r"^Definition for rule '[^']+' was not found\.?$")
TSC_RULE = re.compile(r"^Error (TS\d+):")


def analyzer_rule(analyzer: str, rule: str) -> str:
    """The analyzer's own rule id for a case's rule (``pylint-no-member`` -> ``no-member``,
    ``tsc-Error TS2304: Cannot find name '{0}'.`` -> ``TS2304``)."""
    prefix = f"{analyzer}-"
    bare = rule[len(prefix) :] if rule.startswith(prefix) else rule
    if analyzer == "tsc":
        match = TSC_RULE.match(bare)
        if match:
            return match.group(1)
    return RULE_ALIASES.get(bare, bare)


def _normal(text: str) -> str:
    return " ".join(text.split())


def matches(diagnostic: Diagnostic, rule: str, message: str) -> bool:
    """Whether ``diagnostic`` is the warning with ``rule`` and ``message``."""
    return diagnostic.rule == rule and _normal(diagnostic.message) == _normal(message)


def locate(
    diagnostics: Iterable[Diagnostic], rule: str, message: str, near_line: int
) -> Diagnostic | None:
    """The warning with ``rule`` and ``message`` nearest to ``near_line`` (ties: the first)."""
    found = [d for d in diagnostics if matches(d, rule, message)]
    if not found:
        return None
    return min(found, key=lambda d: (abs(d.line - near_line), d.line, d.column))


def is_artefact(analyzer: str, message: str) -> bool:
    """An eslint "rule definition not found" case: a missing plugin, not a bug in the code."""
    return analyzer == "eslint" and bool(ESLINT_ARTEFACT.match(message.strip()))


def archive_name(repo: str, commit: str) -> str:
    """The file-set path of a repository's archive at ``commit``."""
    return f"repos/{repo.replace('/', '+')}@{commit}.tar"


@dataclass
class _Archives:
    """Open tars, one per archive, read on demand (a case file is one member)."""

    files: Any
    open: dict[str, tarfile.TarFile | None]

    def read(self, name: str, member: str) -> tuple[str | None, str | None]:
        """(text, None) or (None, why not)."""
        if name not in self.files:
            return None, f"no archive {name} in the data"
        if name not in self.open:
            try:
                self.open[name] = tarfile.open(Path(self.files[name]), "r:")  # noqa: SIM115 (closed by close())
            except (OSError, tarfile.TarError) as exc:
                self.open[name] = None
                return None, f"{name}: unreadable archive ({exc})"
        archive = self.open[name]
        if archive is None:
            return None, f"{name}: unreadable archive"
        try:
            info = archive.getmember(member)
        except KeyError:
            return None, f"{member} is not in {name}"
        handle = archive.extractfile(info) if info.isfile() else None
        if handle is None:
            return None, f"{member} in {name} is not a regular file"
        try:
            return handle.read().decode("utf-8"), None
        except UnicodeDecodeError:
            return None, f"{member} in {name} is not UTF-8 text"

    def close(self) -> None:
        for archive in self.open.values():
            if archive is not None:
                archive.close()


CASE_KEYS = ("case_id", "repo_name", "commit", "file_path", "line_range", "language")


def case_row(case: Any, where: str) -> dict[str, Any]:
    """One case JSON as a row (``ValueError`` naming ``where`` and the key when malformed)."""
    if not isinstance(case, dict):
        raise ValueError(f"{where}: expected a JSON object")
    for key in CASE_KEYS:
        if key not in case:
            raise ValueError(f"{where}: no key {key!r}")
    fields = case.get("command_specific_fields")
    if not isinstance(fields, dict) or not all(
        isinstance(fields.get(k), str) for k in ("static_analyzer", "rule", "analyzer_error")
    ):
        raise ValueError(f"{where}: command_specific_fields needs analyzer, rule and error")
    lines = case["line_range"]
    if not isinstance(lines, list) or not lines or not isinstance(lines[0], int):
        raise ValueError(f"{where}: line_range {lines!r} is not a list of line numbers")
    analyzer = fields["static_analyzer"]
    return {
        "case_id": str(case["case_id"]),
        "analyzer": analyzer,
        "rule": analyzer_rule(analyzer, fields["rule"]),
        "message": fields["analyzer_error"],
        "language": str(case["language"]),
        "repo": str(case["repo_name"]),
        "commit": str(case["commit"]),
        "file_path": str(case["file_path"]),
        "recorded_line": int(lines[0]),
    }


def read_fix_cases(
    files: Any, *, analyzer: str, pattern: str = "data/fix/"
) -> list[dict[str, Any]]:
    """Reader ``copilot_fix``: the cases of ``analyzer`` in a file set of case JSONs (under
    ``pattern``) and repository tars (``repos/``); each row carries the whole file at the
    case's commit under ``file`` (``None`` with ``file_error`` when it cannot be had)."""
    from seebench.data.file_sets import FileSet

    if not isinstance(files, FileSet):
        raise ValueError("the copilot_fix reader reads a file set (a source with 'files:')")
    archives = _Archives(files, {})
    rows = []
    try:
        for name in files.under(pattern.rstrip("/")):
            if not name.endswith(".json"):
                continue
            try:
                case = json.loads(files.read_text(name))
            except (UnicodeDecodeError, json.JSONDecodeError) as exc:
                raise ValueError(f"{name}: invalid JSON: {exc}") from None
            row = case_row(case, name)
            if row["analyzer"] != analyzer:
                continue
            text, error = archives.read(archive_name(row["repo"], row["commit"]), row["file_path"])
            rows.append({**row, "file": text, "file_error": error, "_path": name})
    finally:
        archives.close()
    rows.sort(key=lambda r: case_number(r["case_id"]))
    return rows


def case_number(case_id: str) -> tuple[int, str]:
    """Sort key of a case id: ``case-12`` before ``case-102``."""
    digits = re.sub(r"\D", "", case_id)
    return (int(digits) if digits else -1, case_id)


def file_list_lines(manifest: Path, prefix: str = "copilot_harness/") -> list[str]:
    """The ``sha256sum`` lines of the fix scenario's file set from the data mirror's
    MANIFEST.tsv: every fix case JSON (as ``data/fix/...``, its path upstream) and every
    repository tar a fix case points into (as ``repos/...``)."""
    records = safe_files.read_rows(manifest, "\t")
    by_path = {r["path"]: r for r in records}
    lines, needed = [], set()
    for record in records:
        path = record["path"]
        if path.startswith(f"{prefix}fix/") and path.endswith(".json"):
            if not re.fullmatch(r"[0-9a-f]{64}", record["sha256"] or ""):
                raise ValueError(f"{manifest}: {path} has no sha256")
            lines.append(f"{record['sha256']}  data/fix/{path[len(prefix) + 4 :]}")
            case = json.loads(
                safe_files.read_text(manifest.parent / path, safe_files.TEXT_MAX_BYTES)
            )
            needed.add(archive_name(case["repo_name"], case["commit"]))
    for name in sorted(needed):
        member = by_path.get(prefix + name)
        if member is not None:
            lines.append(f"{member['sha256']}  {name}")
    return sorted(lines, key=lambda line: line[66:])


def summarise(rows: Sequence[dict[str, Any]]) -> dict[str, int]:
    return {"cases": len(rows), "with_file": sum(1 for r in rows if r.get("file") is not None)}
