"""``provenance.md`` of a published leaderboard: how its results were made, from the run file,
the manifest and the results themselves (``seebench leaderboard build`` writes it, so the
figures a README quotes are never typed by hand).

It lists the command, the seebench version and commit of the units, the machine, the data
files with their sha256, the wall and CPU seconds of every model and method (summed over its
units, from each result's ``timings``) and what each run caps and why.
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path
from typing import Any

from seebench.leaderboard.board_file import Board
from seebench.leaderboard.certificate import read_result

PROVENANCE_FILE = "provenance.md"


def provenance(board: Board, manifest: dict[str, Any]) -> str:
    """The Markdown text of ``provenance.md``."""
    results = {u["unit"]: read_result(board.results / u["unit"]) for u in manifest["units"]}
    lines = [
        f"# How `{board.folder.name}` was made",
        "",
        "Written by `seebench leaderboard build`; the numbers come from the results.",
        "",
        "```bash",
        f"seebench leaderboard build {board.folder.as_posix()}",
        "```",
        "",
        *_software(manifest),
        "",
        *_machine(results),
        "",
        *_runs(board),
        "",
        *_times(manifest, results),
        "",
        *_data(manifest),
    ]
    return "\n".join(lines) + "\n"


def _software(manifest: dict[str, Any]) -> list[str]:
    versions = sorted({str(u.get("seebench_version")) for u in manifest["units"]})
    commits = sorted(
        {
            f"{s['commit'][:12]}{' (uncommitted changes)' if s.get('dirty') else ''}"
            for u in manifest["units"]
            if isinstance(s := u.get("seebench_source"), dict) and s.get("commit")
        }
    )
    return [
        "## Software",
        "",
        f"- seebench {', '.join(versions)}; source commit(s) of the units: "
        f"{', '.join(commits) or 'not recorded (an installed wheel)'}",
    ]


def _machine(results: dict[str, dict[str, Any]]) -> list[str]:
    seen = set()
    lines = ["## Machine", ""]
    for result in results.values():
        env = result.get("environment") or {}
        hw = env.get("hardware") or {}
        blas = ", ".join(f"{b.get('library')} {b.get('version')}" for b in hw.get("blas") or [])
        text = (
            f"- {hw.get('cpu', '?')} ({hw.get('machine', '?')}), {hw.get('cpus_usable', '?')} of "
            f"{hw.get('cpu_count', '?')} CPUs usable; Python {env.get('python', '?')}; "
            f"{env.get('platform', '?')}; BLAS: {blas or 'not loaded'}"
        )
        if text not in seen:
            seen.add(text)
            lines.append(text)
    return lines


def _runs(board: Board) -> list[str]:
    lines = ["## Runs and caps", "", "| run | models | method | tasks | limit | capped (why) |"]
    lines.append("|:---|:---|:---|---:|---:|:---|")
    for run in board.runs:
        lines.append(
            f"| {run.name} | {', '.join(run.models)} | {run.method or 'default'} | "
            f"{len(run.tasks)} | {run.limit or 'all'} | {run.capped or 'not capped'} |"
        )
    return lines


def _times(manifest: dict[str, Any], results: dict[str, dict[str, Any]]) -> list[str]:
    sums: dict[str, list[float]] = defaultdict(lambda: [0, 0.0, 0.0])
    for unit in manifest["units"]:
        timings = results[unit["unit"]].get("timings") or {}
        row = sums[f"{unit['model']}/{unit['method']}"]
        row[0] += 1
        row[1] += float(timings.get("total_s") or 0)
        row[2] += float(timings.get("cpu_s") or 0)
    lines = ["## Wall and CPU time per model and method", ""]
    lines += ["| model/method | units | wall s | CPU s |", "|:---|---:|---:|---:|"]
    for name, (count, wall, cpu) in sorted(sums.items()):
        lines.append(f"| {name} | {count} | {wall:,.0f} | {cpu:,.0f} |")
    lines += [
        "",
        "Summed over the units, from each result's `timings.total_s` and `timings.cpu_s`.",
    ]
    return lines


def _data(manifest: dict[str, Any]) -> list[str]:
    files: dict[tuple[str, str], str] = {}
    for unit in manifest["units"]:
        for name, sha in (unit.get("data") or {}).items():
            files[(str(unit.get("task")), name)] = str(sha)
    lines = ["## Data files (sha256)", "", "| task | source | sha256 |", "|:---|:---|:---|"]
    lines += [f"| {task} | {name} | `{sha}` |" for (task, name), sha in sorted(files.items())]
    return lines


def write_provenance(board: Board, manifest: dict[str, Any]) -> Path:
    """Write ``provenance.md`` into the board's folder."""
    path = board.folder / PROVENANCE_FILE
    path.write_text(provenance(board, manifest), encoding="utf-8")
    return path
