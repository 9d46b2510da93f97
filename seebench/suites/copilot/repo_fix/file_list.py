"""The repository-level fix tasks' file list (``task_configs/copilot_repo/data/copilot_repo_fix.sha256``):
part 1's fix file set (every fix case JSON and the tars they point into) with only the tars
of whole trees kept. Written by ``scripts/copilot_repo_fix_file_list.py``."""

from __future__ import annotations

from pathlib import Path

from seebench.suites.copilot.repos.staging import FACTS_FILE, read_facts

LIST_FILE = FACTS_FILE.with_name("copilot_repo_fix.sha256")


def repo_fix_file_lines(manifest: Path, facts_path: Path = FACTS_FILE) -> list[str]:
    """The ``sha256sum`` lines from the data mirror's MANIFEST.tsv (see the module doc)."""
    from seebench.suites.copilot.fix.cases import file_list_lines

    whole = {
        f"repos/{s}.tar" for s, row in read_facts(facts_path).items() if row["whole_tree"] == "yes"
    }
    return [
        line
        for line in file_list_lines(manifest)
        if not line[66:].startswith("repos/") or line[66:] in whole
    ]
