"""The ``copilot_repo_fix`` task type, its reader and its prepare step.

Items are part 1's reproducing fix cases (the warning found on the file alone) whose
repository is staged as a whole tree. The prompt and the answer (the whole fixed file) are
part 1's; the target adds where the repository is::

    {...part 1's target..., "repo": "benjaminp/six", "commit": "<40 hex>",
     "repo_tar_sha256": "<sha256 of the repository's tar in the data cache>"}
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from seebench.suites.copilot.fix.types import TARGET_KEYS, FixType, _data_error

if TYPE_CHECKING:
    from seebench.tasks.spec import TaskSpec

REPO_TARGET_KEYS = {**TARGET_KEYS, "repo": str, "commit": str, "repo_tar_sha256": str}


def read_repo_fix_cases(files: Any, *, analyzer: str) -> list[dict[str, Any]]:
    """Reader ``copilot_repo_fix``: part 1's fix cases of ``analyzer`` (reader
    ``copilot_fix``) whose repository is a whole tree in the facts table, each with the
    checksum of its repository's tar."""
    from seebench.data.file_sets import FileSet, read_file_list
    from seebench.suites.copilot.fix.cases import archive_name, read_fix_cases
    from seebench.suites.copilot.repos.staging import read_facts

    if not isinstance(files, FileSet):
        raise ValueError("the copilot_repo_fix reader reads a file set (a source with 'files:')")
    checksums = {m.path: m.sha256 for m in read_file_list(files.list_path)}
    whole = {
        f"repos/{slug}.tar" for slug, row in read_facts().items() if row["whole_tree"] == "yes"
    }
    rows = []
    for row in read_fix_cases(files, analyzer=analyzer):
        tar = archive_name(row["repo"], row["commit"])
        if tar in whole and tar in checksums:
            rows.append({**row, "repo_tar_sha256": checksums[tar]})
    return rows


def copilot_repo_fix_items(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Prepare step: part 1's ``copilot_fix_reproducible`` (the case's warning reproduces on
    the file alone), then the repository's identity added to each target; items are ordered
    by file length (shortest first, then case id), so ``--limit`` takes the shortest files."""
    from seebench.suites.copilot.fix.types import copilot_fix_reproducible

    out = []
    for row in copilot_fix_reproducible(rows):
        target = {
            **row["target"],
            "repo": row["repo"],
            "commit": row["commit"],
            "repo_tar_sha256": row["repo_tar_sha256"],
        }
        out.append({**row, "target": target})
    # shortest files first: a smoke run (--limit) gets the items a small model can hold
    out.sort(key=lambda row: (len(row["target"]["original"]), row["case_id"]))
    return out


class RepoFixType(FixType):
    """Part 1's fix, judged by the analyzer over the whole repository as well."""

    default_metrics = ("repo_fix_rate",)
    default_scorers = ("copilot_repo_fix",)

    def normalise_target(self, task: TaskSpec, value: Any) -> dict[str, Any]:
        where = f"task {task.name!r}"
        if not isinstance(value, dict):
            raise _data_error(f"{where}: a fix target is a record, got {type(value).__name__}")
        for key, kind in REPO_TARGET_KEYS.items():
            if not isinstance(value.get(key), kind):
                raise _data_error(f"{where}: repo fix target key {key!r} is missing or not {kind}")
        return {key: value[key] for key in REPO_TARGET_KEYS}
