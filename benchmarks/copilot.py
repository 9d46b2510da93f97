"""Doc scenario scoring on all 7,742 Copilot-harness doc cases: seebench versus a per-case
reference, for the ``null`` and ``oracle`` answers.

    .venv/bin/python benchmarks/copilot.py [--data ../shared/data/copilot_harness/doc] [--limit N]

(a) seebench, as ``seebench eval`` loads and scores the task: the file set is opened from the
    task's checksum list (``task_configs/copilot/data/copilot_doc.sha256``; every member
    stat-ed; equal files are one file, as in the data cache), :func:`read_doc_cases` reads
    and parses each distinct source file once for all the cases that point into it and keeps
    the parse of each case's file without its doc (timed as *preparation*); then every answer
    is judged by :func:`check_answer`, which re-parses only the answer's lines from the kept
    parse (timed as *scoring*). The scoring is timed again with nothing kept (one whole parse
    of the edited file per answer, ``reuse=False``).
(b) reference: what a competent user writes to score one answer at a time with the same
    checks (the public harness's scorer judges one answer at a time): read the case's JSON
    and its source file, build a fresh tree-sitter parser, parse the file once to find the
    function and its doc comment (re-parsing only the removed lines when there is a doc to
    take out), compute the original code's digests, insert the answer, parse the edited file
    once and compute every check on that parse. Nothing is cached between answers. (An
    earlier reference redid all of this once per check, seven times per answer: it flattered
    seebench.)

Both sides run in this process on the same answers in the same order. Prints wall and CPU
time of each side, the ratios of scoring alone and including preparation, and the number of
answers whose verdict (every check and every reason) differs from the reference's (must be
0), with and without kept parses. Also prints how many Python functions, returned unchanged,
the public harness's rule (the first string literal anywhere in the function is the
docstring) would pass.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

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


LIST = Path(__file__).resolve().parents[1] / "task_configs/copilot/data/copilot_doc.sha256"


def read_case(folder: Path) -> tuple[dict, str]:
    case = json.loads((folder / f"{folder.name}.json").read_bytes())
    return case, (folder / case["file_path"]).read_bytes().decode("utf-8")


def open_files(root: Path, folders: list[Path]) -> Any:
    """The file set of the cases in ``folders``, as the data cache gives it: each member of
    the checksum list found under ``root`` (stat-ed, as ``seebench eval`` checks its cached
    files), members with equal checksums one file."""
    from seebench.data.file_sets import FileSet, read_file_list

    wanted = {folder.name for folder in folders}
    paths: dict[str, Path] = {}
    digests: dict[str, str] = {}
    by_digest: dict[str, Path] = {}
    prefix = f"{root}{os.sep}"
    for member in read_file_list(LIST):
        parts = member.path.split("/", 3)
        if parts[:2] != ["data", "doc"] or parts[2] not in wanted:
            continue
        local = by_digest.get(member.sha256)
        if local is None:  # like locate_members: a plain stat, one Path per cached file
            os.stat(prefix + member.path[9:])
            local = by_digest[member.sha256] = Path(prefix + member.path[9:])
        paths[member.path] = local
        digests[member.path] = member.sha256
    return FileSet(LIST, paths, digests)


def prepare(root: Path, folders: list[Path]) -> list[dict]:
    from seebench.suites.copilot.doc.cases import read_doc_cases

    return [row["target"] for row in read_doc_cases(open_files(root, folders))]


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


def seebench_side(records: list[dict], work: list[tuple[int, str, str]], reuse: bool) -> list:
    from seebench.suites.copilot.doc.checks import check_answer

    return [check_answer(records[index], answer, reuse=reuse) for index, _, answer in work]


def reference_case(folder: Path, rule: str) -> Any:
    """Every check of one answer from scratch: files read once, one fresh parser, the file
    parsed once (plus the lines a removed doc leaves), the edited file parsed once."""
    from seebench.suites.copilot.doc.cases import build_case
    from seebench.suites.copilot.doc.checks import check_answer
    from seebench.suites.copilot.languages import parser

    parser.cache_clear()  # a new tree-sitter parser for this answer
    record = build_case(*read_case(folder))
    answer = record["function"] if rule == "null" else record["oracle"]
    return check_answer(record, answer, reuse=False)


def reference_side(folders: list[Path], work: list[tuple[int, str, str]]) -> list:
    return [reference_case(folders[index], rule) for index, rule, _ in work]


def differences(ours: list, theirs: list) -> int:
    """Answers whose checks or reasons differ."""
    return sum(
        (a.checks, a.problems, a.edited) != (b.checks, b.problems, b.edited)
        for a, b in zip(ours, theirs, strict=True)
    )


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
    root = args.data.resolve()
    folders = case_dirs(root, args.limit)
    # a private, empty seebench home: the first load finds nothing cached
    with tempfile.TemporaryDirectory(prefix="seebench-copilot-bench-") as home:
        os.environ["SEEBENCH_HOME"] = home
        return measure(root, folders)


def measure(root: Path, folders: list[Path]) -> int:
    """Both sides on the cases in ``folders``; prints the figures; 1 if any verdict differs."""
    from seebench.suites.copilot.doc import trees

    # warm-up, untimed: imports, grammars and queries loaded once for both sides
    sample = prepare(root, folders[:20])
    reference_side(folders, answers(sample))
    trees.clear()
    clock = Clock()
    records = prepare(root, folders)  # nothing cached: every file read and parsed
    cold, cold_cpu = clock.lap()
    work = answers(records)
    clock.lap()
    ours = seebench_side(records, work, reuse=True)
    ours_s, ours_cpu = clock.lap()
    trees.clear()
    clock.lap()
    cached = prepare(root, folders)  # the records read back from the prepared-case cache
    warm, warm_cpu = clock.lap()
    again = seebench_side(cached, work, reuse=True)
    again_s, again_cpu = clock.lap()
    trees.clear()
    clock.lap()
    theirs = reference_side(folders, work)
    theirs_s, theirs_cpu = clock.lap()
    plain = seebench_side(records, work, reuse=False)
    plain_s, plain_cpu = clock.lap()
    differ = [differences(side, theirs) for side in (ours, again, plain)]
    excluded = sum(1 for r in records if r["excluded"])
    oracles = sum(1 for _, rule, _ in work if rule == "oracle")
    print(
        f"cases: {len(records)} ({excluded} excluded); answers: {len(work)} "
        f"({len(work) - oracles} null, {oracles} oracle); checks per answer: {len(CHECKS)}"
    )
    print(
        f"reference (per answer: files read, fresh parser, file parsed, edited file parsed, "
        f"all checks): {theirs_s:.2f} s wall / {theirs_cpu:.2f} s CPU"
    )
    for label, (prep_s, prep_cpu, score_s, score_cpu) in (
        ("first load (nothing cached)", (cold, cold_cpu, ours_s, ours_cpu)),
        ("later load (prepared cases cached)", (warm, warm_cpu, again_s, again_cpu)),
    ):
        print(
            f"seebench, {label}: prepare {prep_s:.2f} s wall / {prep_cpu:.2f} s CPU, scoring "
            f"{score_s:.2f} s wall / {score_cpu:.2f} s CPU; ratio reference / seebench: "
            f"scoring {theirs_s / score_s:.1f}x wall, {theirs_cpu / score_cpu:.1f}x CPU; "
            f"including preparation {theirs_s / (score_s + prep_s):.1f}x wall, "
            f"{theirs_cpu / (score_cpu + prep_cpu):.1f}x CPU"
        )
    print(
        f"seebench scoring with nothing kept (a whole parse per answer): {plain_s:.2f} s wall / "
        f"{plain_cpu:.2f} s CPU"
    )
    print(
        f"answers whose verdict differs from the reference's: first load {differ[0]}, later "
        f"load {differ[1]}, nothing kept {differ[2]} (of {len(work)} each)"
    )
    as_file, shown, total = first_string_rule(folders, records)
    print(
        f"public rule (first string literal anywhere = docstring), Python functions unchanged: "
        f"{as_file}/{total} = {as_file / max(total, 1):.1%} pass as in the file, "
        f"{shown}/{total} = {shown / max(total, 1):.1%} as shown to the model (doc removed)"
    )
    return 1 if any(differ) else 0


if __name__ == "__main__":
    sys.exit(main())
