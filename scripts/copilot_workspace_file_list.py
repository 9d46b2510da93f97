"""Write the workspace task's file list
(``task_configs/copilot_repo/data/workspace_repos.sha256``): the lines of the
repository scenarios' list (``copilot_repos.sha256``) naming a repository the query set
(``workspace_queries.jsonl``) asks about, so the task needs only those tars.

    python scripts/copilot_workspace_file_list.py
"""

from __future__ import annotations

import sys

from seebench.suites.copilot.workspace.queries import (
    WORKSPACE_LIST,
    load_queries,
    workspace_file_list,
)


def main() -> int:
    lines = workspace_file_list(load_queries())
    WORKSPACE_LIST.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"{WORKSPACE_LIST}: {len(lines)} repositories")
    return 0


if __name__ == "__main__":
    sys.exit(main())
