"""Write the repository scenarios' file list and facts table
(``task_configs/copilot_repo/data/copilot_repos.{sha256,tsv}``) from the data
mirror's MANIFEST.tsv: every staged repository tar, its language and whether it is whole.

    python scripts/copilot_repos_file_list.py ../shared/data/MANIFEST.tsv
"""

from __future__ import annotations

import csv
import sys
from pathlib import Path

from seebench.suites.copilot.repos.staging import FACTS_COLUMNS, FACTS_FILE, file_list_rows


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: copilot_repos_file_list.py MANIFEST.tsv", file=sys.stderr)
        return 2
    lines, rows = file_list_rows(Path(argv[0]))
    FACTS_FILE.with_suffix(".sha256").write_text("\n".join(lines) + "\n", encoding="utf-8")
    with open(FACTS_FILE, "w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, FACTS_COLUMNS, delimiter="\t", lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
    print(f"{FACTS_FILE.with_suffix('.sha256')}: {len(lines)} repositories")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
