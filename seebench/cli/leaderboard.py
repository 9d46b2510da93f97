"""``seebench leaderboard build DIR`` and ``seebench reproduce DIR``.

``build`` makes a published leaderboard folder from its run file (``DIR/board.yaml``): every
evaluation of the file (``seebench eval``, in this process, finished units reused), then
``DIR/manifest.json`` (the hashes and metrics of every unit), ``DIR/build.json`` (the command
line, wall and CPU seconds of each evaluation) and ``seebench compare`` into DIR.

``reproduce`` is the reviewer's side: it reruns the evaluations (or, with ``--rescore``,
re-scores the stored samples) into a scratch folder and gives every unit of the manifest a
verdict (identical, within the run file's tolerance with its cause, or different with the
reason); the exit status is 1 when a unit differs.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import json
import os
import platform
import resource
import shutil
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import click

from seebench.errors import SeebenchError

BUILD_FILE = "build.json"
CERTIFICATE_FILE = "reproduce.json"


@click.group("leaderboard")
def leaderboard_group() -> None:
    """Published leaderboards: a folder made by one command from one run file."""


@leaderboard_group.command("build")
@click.argument("folder", type=click.Path(path_type=Path, file_okay=False, exists=True))
@click.option(
    "--compare-only",
    is_flag=True,
    help="Redraw the tables and manifest from the results there; run nothing.",
)
def build_command(folder: Path, compare_only: bool) -> None:
    """Run FOLDER/board.yaml's evaluations into its results folder, then write the manifest
    and the tables (seebench compare) into FOLDER."""
    from seebench.leaderboard.board_file import load_board

    board = load_board(folder)
    timings = (
        []
        if compare_only
        else [_timed_eval(run.name, run.eval_args(board.results)) for run in board.runs]
    )
    if timings:
        _write_json(folder / BUILD_FILE, _build_record(board, timings))
    write_manifest(board)
    code = _invoke(board.compare_args(board.results, folder))
    if code or any(t["exit_code"] for t in timings):
        failed = [t["run"] for t in timings if t["exit_code"]]
        raise SeebenchError(
            f"{folder}: built with failures (runs: {', '.join(failed) or 'compare'})"
        )


def _invoke(args: list[str]) -> int:
    """Run one seebench command in this process; its exit status."""
    group = click.get_current_context().find_root().command
    click.echo(f"$ seebench {' '.join(args)}", err=True)
    try:
        group.main(args=args, prog_name="seebench", standalone_mode=False)
    except SystemExit as exc:
        return int(exc.code or 0)
    except SeebenchError as exc:
        click.echo(f"error: {exc}", err=True)
        return 1
    return 0


def cpu_seconds() -> float:
    """User + system CPU seconds of this process and its waited-for children."""
    own, children = (
        resource.getrusage(resource.RUSAGE_SELF),
        resource.getrusage(resource.RUSAGE_CHILDREN),
    )
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def _timed_eval(name: str, args: list[str]) -> dict[str, Any]:
    wall, cpu, load = time.perf_counter(), cpu_seconds(), os.getloadavg()[0]
    code = _invoke(args)
    return {
        "run": name,
        "command": "seebench " + " ".join(args),
        "exit_code": code,
        "wall_s": round(time.perf_counter() - wall, 3),
        "cpu_s": round(cpu_seconds() - cpu, 3),
        "load_average": [round(load, 2), round(os.getloadavg()[0], 2)],
    }


def _build_record(board: Any, timings: list[dict[str, Any]]) -> dict[str, Any]:
    from seebench import __version__
    from seebench.runner.environment import environment

    return {
        "command": f"seebench leaderboard build {board.folder}",
        "finished_at": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        "seebench_version": __version__,
        "environment": environment(),
        "node": platform.node(),
        "runs": timings,
    }


def write_manifest(board: Any) -> Path:
    """``manifest.json``: every unit of the board's results folder, with hashes and metrics."""
    from seebench import __version__
    from seebench.leaderboard.certificate import (
        MANIFEST_FILE,
        file_sha256,
        result_paths,
        unit_record,
    )

    if not board.results.is_dir():
        raise SeebenchError(
            f"{board.results}: no results folder; run 'seebench leaderboard build {board.folder}'"
        )
    units = []
    for path in result_paths(board.results):
        record = unit_record(path, board.results, None)
        method, task = record["method"], record["task"]
        run = board.run_of(str(record["spec"]), method, task) or board.run_of(
            str(record["model"]), method, task
        )
        record["run"] = run.name if run else None
        units.append(record)
    manifest = {
        "board_sha256": file_sha256(board.path),
        "results": board.results.relative_to(board.folder).as_posix(),
        "written_with": __version__,
        "units": units,
    }
    path = _write_json(board.folder / MANIFEST_FILE, manifest)
    from seebench.leaderboard.provenance import write_provenance

    click.echo(str(write_provenance(board, manifest)))
    return path


def _write_json(path: Path, document: dict[str, Any]) -> Path:
    path.write_text(json.dumps(document, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    click.echo(str(path))
    return path


@click.command("reproduce")
@click.argument("folder", type=click.Path(path_type=Path, file_okay=False, exists=True))
@click.option(
    "--rescore", is_flag=True, help="Re-score the stored samples instead of rerunning the models."
)
@click.option(
    "--out",
    "scratch",
    type=click.Path(path_type=Path, file_okay=False),
    help="Scratch folder for the rerun (default: a new folder under the system's temp folder).",
)
@click.option(
    "--run",
    "only",
    multiple=True,
    metavar="NAME",
    help="Reproduce only this run of the run file (repeatable).",
)
@click.option(
    "--model",
    "models",
    multiple=True,
    metavar="SPEC",
    help="Reproduce only this model's units (repeatable).",
)
def reproduce_command(
    folder: Path,
    rescore: bool,
    scratch: Path | None,
    only: tuple[str, ...],
    models: tuple[str, ...],
) -> None:
    """Check that FOLDER's published results come from its run file: rerun every evaluation
    (or re-score the stored samples) into a scratch folder and compare unit by unit."""
    from seebench.leaderboard.board_file import load_board
    from seebench.leaderboard.certificate import read_manifest

    board, manifest = load_board(folder), read_manifest(folder)
    known = {run.name for run in board.runs}
    unknown = sorted(set(only) - known)
    if unknown:
        raise SeebenchError(
            f"--run {unknown[0]}: no such run in {board.path} (runs: {', '.join(sorted(known))})"
        )
    scratch = _scratch(scratch)
    units = [
        u
        for u in manifest["units"]
        if (not only or u.get("run") in only)
        and (not models or u.get("spec") in models or u.get("model") in models)
    ]
    if not units:
        raise SeebenchError(f"{folder}: no unit of the manifest matches --run/--model")
    started, cpu = time.perf_counter(), cpu_seconds()
    if rescore:
        verdicts = _rescored(board, units, scratch)
    else:
        verdicts = _rerun(board, units, scratch, only, models)
    seconds = (time.perf_counter() - started, cpu_seconds() - cpu)
    _report(verdicts, scratch, rescore, seconds)


def _scratch(scratch: Path | None) -> Path:
    import tempfile

    if scratch is None:
        return Path(tempfile.mkdtemp(prefix="seebench-reproduce-"))
    if scratch.exists() and any(scratch.iterdir()):
        raise SeebenchError(f"--out {scratch}: not empty (reproduce writes into an empty folder)")
    scratch.mkdir(parents=True, exist_ok=True)
    return scratch


def _tolerance(board: Any, record: dict[str, Any]) -> tuple[float, str]:
    run = next((r for r in board.runs if r.name == record.get("run")), None)
    return (run.tolerance.abs, run.tolerance.cause) if run else (0.0, "")


def _rescored(board: Any, units: list[dict[str, Any]], scratch: Path) -> list[Any]:
    """Copy each published unit into ``scratch`` and score its stored samples again."""
    from seebench import __version__
    from seebench.leaderboard.certificate import check_published, judge, read_result
    from seebench.plugin_manager import get_registry, get_task_index
    from seebench.runner.environment import environment

    registry, index, here = get_registry(), get_task_index(), environment()
    loaded: dict[tuple[Any, ...], Any] = {}  # task data shared by the units of one task
    verdicts = []
    for record in units:
        source = board.results / record["unit"]
        problem = check_published(record, source)
        result = None
        if problem is None:
            published = read_result(source)
            try:
                result = _rescore_copy(
                    source,
                    scratch / "results" / record["unit"],
                    published,
                    (registry, index, loaded),
                )
            except SeebenchError as exc:
                problem = f"not re-scored: {exc}"
        envs = ((result or {}).get("environment") or {}, here)
        verdicts.append(
            judge(record, result, _tolerance(board, record), envs, __version__, problem)
        )
        click.echo(f"{record['unit']}: {verdicts[-1].status}", err=True)  # progress
    return verdicts


def _rescore_copy(
    source: Path, target: Path, published: dict[str, Any], where: tuple[Any, Any, dict]
) -> dict[str, Any]:
    """Re-score a copy of the unit at ``source`` (result and samples) at ``target`` with
    ``where`` (registry, task index, task data cache); the re-scored result, with the data
    checksums of this load."""
    from seebench.leaderboard.certificate import read_result
    from seebench.runner.rescore import rescore

    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy2(source, target)
    samples = published.get("samples_file")
    if samples:
        shutil.copy2(source.with_name(samples), target.with_name(samples))
    if published.get("status") != "ok":
        return read_result(target)
    bootstrap = ((published.get("run") or {}).get("config") or {}).get("bootstrap")
    registry, index, loaded = where
    done = rescore(target, registry, index, bootstrap=bootstrap, data_cache=loaded)
    result = read_result(target)
    if done is not None and done.checksums is not None:
        result["data"] = {**(result.get("data") or {}), "checksums": done.checksums}
    return result


@contextlib.contextmanager
def _fresh_response_cache(folder: Path) -> Iterator[None]:
    """Model replies cached in ``folder`` (empty) while a rerun runs, in this process and the
    workers it starts: a rerun must ask the model again, not read the stored replies."""
    from seebench.models.cache import RESPONSE_CACHE_VARIABLE

    before = os.environ.get(RESPONSE_CACHE_VARIABLE)
    shutil.rmtree(folder, ignore_errors=True)
    os.environ[RESPONSE_CACHE_VARIABLE] = str(folder)
    try:
        yield
    finally:
        if before is None:
            os.environ.pop(RESPONSE_CACHE_VARIABLE, None)
        else:
            os.environ[RESPONSE_CACHE_VARIABLE] = before


def _rerun(
    board: Any,
    units: list[dict[str, Any]],
    scratch: Path,
    only: tuple[str, ...],
    models: tuple[str, ...],
) -> list[Any]:
    """Run the board's evaluations (those of ``only`` and ``models``, when given) again into
    ``scratch`` and judge every unit."""
    from seebench import __version__
    from seebench.leaderboard.certificate import judge, read_result
    from seebench.runner.environment import environment

    results, here = scratch / "results", environment()
    with _fresh_response_cache(scratch / "responses"):
        for run in board.runs:
            chosen = tuple(m for m in run.models if not models or m in models)
            if chosen and (not only or run.name in only):
                _timed_eval(run.name, run.eval_args(results, chosen))
    verdicts = []
    for record in units:
        path = results / record["unit"]
        result = read_result(path) if path.is_file() else None
        published = (
            read_result(board.results / record["unit"])
            if (board.results / record["unit"]).is_file()
            else {}
        )
        envs = (published.get("environment") or {}, (result or {}).get("environment") or here)
        problem = None if result else "the rerun wrote no result for this unit"
        verdicts.append(
            judge(
                record,
                result,
                _tolerance(board, record),
                envs,
                (result or {}).get("seebench_version", __version__),
                problem,
            )
        )
    return verdicts


def _report(
    verdicts: list[Any], scratch: Path, rescore: bool, seconds: tuple[float, float]
) -> None:
    from seebench.leaderboard.certificate import DIFFERENT, IDENTICAL, WITHIN
    from seebench.runner.environment import environment

    width = max((len(v.unit) for v in verdicts), default=4)
    for verdict in verdicts:
        detail = f"  {verdict.detail}" if verdict.detail else ""
        click.echo(f"{verdict.unit:<{width}}  {verdict.status}{detail}")
    counts = {s: sum(v.status == s for v in verdicts) for s in (IDENTICAL, WITHIN, DIFFERENT)}
    certificate = {
        "mode": "rescore" if rescore else "rerun",
        "created_at": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        "wall_s": round(seconds[0], 3),
        "cpu_s": round(seconds[1], 3),
        "counts": counts,
        "units": [v.as_dict() for v in verdicts],
        "seebench_source": environment().get("seebench_source"),
    }
    path = scratch / CERTIFICATE_FILE
    path.write_text(json.dumps(certificate, indent=1) + "\n", encoding="utf-8")
    click.echo(
        f"{len(verdicts)} unit(s): {counts[IDENTICAL]} identical, {counts[WITHIN]} within tolerance, "
        f"{counts[DIFFERENT]} different ({'re-scored' if rescore else 'rerun'} in {seconds[0]:.1f} s wall, "
        f"{seconds[1]:.1f} s CPU; {path})"
    )
    _source_notes(verdicts)
    if counts[DIFFERENT] or not verdicts:
        sys.exit(1)


def _source_notes(verdicts: list[Any]) -> None:
    """One ``note:`` line per distinct seebench source difference, with its unit count."""
    notes: dict[str, int] = {}
    for verdict in verdicts:
        if verdict.source:
            notes[verdict.source] = notes.get(verdict.source, 0) + 1
    for note, count in sorted(notes.items()):
        click.echo(f"note: {count} unit(s) {note}")
