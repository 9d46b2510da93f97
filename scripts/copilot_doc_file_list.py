"""Write the doc scenario's file list (``task_configs/copilot/data/copilot_doc.sha256``)
from the data mirror's ``MANIFEST.tsv``: one ``<sha256>  <upstream path>`` line per file of
``copilot_harness/doc/`` (case JSONs and their source files), sorted by path.

    python scripts/copilot_doc_file_list.py ../shared/data/MANIFEST.tsv
"""

from __future__ import annotations

import argparse
import csv
import sys
from pathlib import Path

DEFAULT_OUT = Path(__file__).resolve().parents[1] / "task_configs/copilot/data/copilot_doc.sha256"
PREFIX = "copilot_harness/doc/"


def file_list_lines(manifest: Path) -> list[str]:
    """The list's lines for every ok doc file of ``manifest``; a malformed row is an error
    naming its line."""
    lines = []
    with manifest.open(encoding="utf-8", newline="") as handle:
        for number, row in enumerate(csv.DictReader(handle, delimiter="\t"), 2):
            if not (row.get("path") or "").startswith(PREFIX):
                continue
            digest, upstream = row.get("sha256") or "", row.get("source_path") or ""
            if len(digest) != 64 or not upstream or row.get("status") != "ok":
                raise ValueError(f"{manifest}:{number}: unusable doc row {row.get('path')!r}")
            lines.append(f"{digest}  {upstream}")
    if not lines:
        raise ValueError(f"{manifest}: no rows under {PREFIX}")
    return sorted(lines, key=lambda line: line.split("  ", 1)[1])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("manifest", type=Path)
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = parser.parse_args(argv)
    try:
        lines = file_list_lines(args.manifest)
    except (OSError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    args.out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"{args.out}: {len(lines)} files")
    return 0


if __name__ == "__main__":
    sys.exit(main())
