"""Write the repository test scenario's file list
(``task_configs/copilot_repo/data/copilot_repo_test.sha256``) from the data mirror's
MANIFEST.tsv: every public test_gen case JSON and every staged repository tar they point into.

    python scripts/copilot_repo_test_file_list.py ../shared/data/MANIFEST.tsv
"""

from __future__ import annotations

import sys
from pathlib import Path

from seebench.suites.copilot.repo_testgen.cases import file_list_lines

TARGET = (
    Path(__file__).resolve().parents[1] / "task_configs/copilot_repo/data/copilot_repo_test.sha256"
)


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: copilot_repo_test_file_list.py MANIFEST.tsv", file=sys.stderr)
        return 2
    lines = file_list_lines(Path(argv[0]))
    TARGET.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"{TARGET}: {len(lines)} files")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
