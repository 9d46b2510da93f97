"""Write the checksum list of RealHumanEval's task files (a file-set source's ``files:``).

Reads the data mirror's ``MANIFEST.tsv`` (columns ``path``, ``source_path``, ``sha256``...) and
writes one ``<sha256>  <upstream path>`` line per mirrored file under ``--prefix``::

    python scripts/realhumaneval_file_list.py ../shared/data/MANIFEST.tsv \
        > task_configs/copilot/data/realhumaneval_tasks.sha256
"""

from __future__ import annotations

import argparse
import csv
import sys
from pathlib import Path

DEFAULT_PREFIX = "realhumaneval/tasks_json/"


def file_list(manifest: Path, prefix: str = DEFAULT_PREFIX) -> list[str]:
    """The ``sha256  upstream path`` lines of the manifest's files under ``prefix`` (sorted by
    upstream path); a row without a checksum or an upstream path is an error naming it."""
    with manifest.open(newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle, delimiter="\t"))
    lines = []
    for number, row in enumerate(rows, 2):
        if not (row.get("path") or "").startswith(prefix):
            continue
        digest, upstream = row.get("sha256") or "", row.get("source_path") or ""
        if len(digest) != 64 or not upstream:
            raise ValueError(f"{manifest}:{number}: no sha256 or source_path for {row['path']!r}")
        lines.append(f"{digest}  {upstream}")
    if not lines:
        raise ValueError(f"{manifest}: no file under {prefix!r}")
    return sorted(lines, key=lambda line: line.split("  ", 1)[1])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("manifest", type=Path)
    parser.add_argument("--prefix", default=DEFAULT_PREFIX)
    args = parser.parse_args(argv)
    try:
        lines = file_list(args.manifest, args.prefix)
    except (OSError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    sys.stdout.write("".join(line + "\n" for line in lines))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
