"""Write the repository-level fix tasks' file list
(``task_configs/copilot_repo/data/copilot_repo_fix.sha256``) from the data mirror's
MANIFEST.tsv: every fix case JSON and the whole-tree repository tars they point into.

    python scripts/copilot_repo_fix_file_list.py ../shared/data/MANIFEST.tsv
"""

from __future__ import annotations

import sys
from pathlib import Path

from seebench.suites.copilot.repo_fix.file_list import LIST_FILE, repo_fix_file_lines


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: copilot_repo_fix_file_list.py MANIFEST.tsv", file=sys.stderr)
        return 2
    lines = repo_fix_file_lines(Path(argv[0]))
    LIST_FILE.write_text("\n".join(lines) + "\n", encoding="utf-8")
    tars = sum(1 for line in lines if line[66:].startswith("repos/"))
    print(f"{LIST_FILE}: {len(lines) - tars} cases, {tars} whole-tree repositories")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
