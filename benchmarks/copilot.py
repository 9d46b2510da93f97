"""Doc scenario scoring on all 7,742 Copilot-harness doc cases: seebench versus a per-case
reference, for the ``null`` and ``oracle`` answers.

    .venv/bin/python benchmarks/copilot.py [--data ../shared/data/copilot_harness/doc] [--limit N]

(a) seebench: each case is read and prepared once (the file without the function's doc, the
    original code's digests: what ``seebench eval`` does when it loads the task, timed
    apart), then every answer is judged by :func:`check_answer` on one parse of the edited
    file with the process's cached parser.
(b) reference: what a competent per-case scorer does (the public harness's scorer judges one
    answer at a time): for each answer, read the case's JSON and source file once, build one
    fresh tree-sitter parser, parse the original file to find the function, insert the answer,
    parse the edited file once and compute every check on that parse. (An earlier reference
    redid all of this once per check, seven times per answer: it flattered seebench.)

Both sides run in this process on the same answers in the same order. Prints the time of
each side, the ratio, and the number of (answer, check) verdicts on which they differ (must
be 0). Also prints how many Python functions, returned unchanged, the public harness's rule
(the first string literal anywhere in the function is the docstring) would pass.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

CHECKS = ("syntax", "found", "placement", "description", "params", "returns", "unchanged")
DEFAULT_DATA = Path(__file__).resolve().parents[1] / ".." / "shared/data/copilot_harness/doc"


class Clock:
    """Wall and CPU time since the last lap (CPU time: fair on a shared, loaded machine)."""

    def __init__(self) -> None:
        self.wall, self.cpu = time.perf_counter(), time.process_time()

    def lap(self) -> tuple[float, float]:
        wall, cpu = time.perf_counter(), time.process_time()
        out = (wall - self.wall, cpu - self.cpu)
        self.wall, self.cpu = wall, cpu
        return out


def case_dirs(root: Path, limit: int | None) -> list[Path]:
    dirs = sorted(
        (p for p in root.iterdir() if p.name.startswith("case-")),
        key=lambda p: int(p.name.split("-")[1]),
    )
    return dirs[:limit] if limit else dirs


def read_case(folder: Path) -> tuple[dict, str]:
    case = json.loads((folder / f"{folder.name}.json").read_text(encoding="utf-8"))
    return case, (folder / case["file_path"]).read_text(encoding="utf-8")


def prepare(folders: list[Path]) -> list[dict]:
    from seebench.suites.copilot.doc.cases import build_case

    return [build_case(*read_case(folder)) for folder in folders]


def answers(records: list[dict]) -> list[tuple[int, str, str]]:
    """``(case index, rule, answer)`` for every null and oracle answer there is."""
    out = []
    for index, record in enumerate(records):
        if record["excluded"]:
            continue
        out.append((index, "null", record["function"]))
        if record["oracle"] is not None:
            out.append((index, "oracle", record["oracle"]))
    return out


def seebench_side(records: list[dict], work: list[tuple[int, str, str]]) -> list[dict]:
    from seebench.suites.copilot.doc.checks import check_answer

    return [check_answer(records[index], answer).checks for index, _, answer in work]


def reference_case(folder: Path, rule: str) -> dict:
    """Every check of one answer from scratch: files read once, one fresh parser, one parse."""
    from seebench.suites.copilot.doc.cases import build_case
    from seebench.suites.copilot.doc.checks import check_answer
    from seebench.suites.copilot.languages import parser

    parser.cache_clear()  # a new tree-sitter parser for this answer
    record = build_case(*read_case(folder))
    answer = record["function"] if rule == "null" else record["oracle"]
    checks = check_answer(record, answer).checks
    return {check: checks[check] for check in CHECKS}


def reference_side(folders: list[Path], work: list[tuple[int, str, str]]) -> list[dict]:
    return [reference_case(folders[index], rule) for index, rule, _ in work]


def first_string_rule(folders: list[Path], records: list[dict]) -> tuple[int, int, int]:
    """Python cases whose function, as in the file and as the model is shown it, holds a string
    literal anywhere (the public harness's docstring test), and the number of such cases."""
    from seebench.suites.copilot.doc.functions import function_at, kind, walk
    from seebench.suites.copilot.languages import parser

    as_file = shown = total = 0
    for folder, record in zip(folders, records, strict=True):
        if record["language"] != "python" or record["excluded"]:
            continue
        total += 1
        case, source = read_case(folder)
        tree = parser("python").parse(source.encode("utf-8"))
        function = function_at(tree.root_node, "python", *case["line_range"])
        as_file += any(kind(n) == "string" for n in walk(function))
        stripped = parser("python").parse(record["function"].encode("utf-8"))
        shown += any(kind(n) == "string" for n in walk(stripped.root_node))
    return as_file, shown, total


def main() -> int:
    options = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    options.add_argument("--data", type=Path, default=DEFAULT_DATA)
    options.add_argument("--limit", type=int, default=None, help="only the first N cases")
    args = options.parse_args()
    if not args.data.is_dir():
        print(f"doc cases unavailable: {args.data} is not a folder (the data mirror)")
        return 1
    folders = case_dirs(args.data.resolve(), args.limit)
    clock = Clock()
    records = prepare(folders)
    prepared, prepared_cpu = clock.lap()
    work = answers(records)
    ours = seebench_side(records, work)
    ours_s, ours_cpu = clock.lap()
    theirs = reference_side(folders, work)
    theirs_s, theirs_cpu = clock.lap()
    differ = sum(ours[i][c] != theirs[i][c] for i in range(len(work)) for c in CHECKS)
    excluded = sum(1 for r in records if r["excluded"])
    oracles = sum(1 for _, rule, _ in work if rule == "oracle")
    print(
        f"cases: {len(records)} ({excluded} excluded); answers: {len(work)} "
        f"({len(work) - oracles} null, {oracles} oracle); checks per answer: {len(CHECKS)}"
    )
    print(
        f"seebench: prepare {prepared:.2f} s wall / {prepared_cpu:.2f} s CPU (once, at data "
        f"load); scoring {ours_s:.2f} s wall / {ours_cpu:.2f} s CPU"
    )
    print(
        f"reference (per answer: files read, fresh parser, one parse, all checks): {theirs_s:.2f} s wall "
        f"/ {theirs_cpu:.2f} s CPU"
    )
    print(
        f"ratio reference / seebench scoring: {theirs_s / ours_s:.1f}x wall, "
        f"{theirs_cpu / ours_cpu:.1f}x CPU; including seebench's preparation: "
        f"{theirs_s / (ours_s + prepared):.1f}x wall, "
        f"{theirs_cpu / (ours_cpu + prepared_cpu):.1f}x CPU"
    )
    print(f"verdicts that differ: {differ} of {len(work) * len(CHECKS)}")
    as_file, shown, total = first_string_rule(folders, records)
    print(
        f"public rule (first string literal anywhere = docstring), Python functions unchanged: "
        f"{as_file}/{total} = {as_file / max(total, 1):.1%} pass as in the file, "
        f"{shown}/{total} = {shown / max(total, 1):.1%} as shown to the model (doc removed)"
    )
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
