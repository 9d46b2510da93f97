"""Experiment trackers: log a run's results to Weights & Biases, MLflow or a third party's.

A tracker is a plugin module that observes ``on_unit_finished`` and names a
:class:`Tracker` subclass in its module attribute ``TRACKER``. ``seebench eval --log-to NAME``
(or ``$SEEBENCH_LOG_TO``) activates it for one run with :func:`tracking`: the tracker is
started before the first unit with the run's resolved configuration, receives every finished
unit (result, metrics and samples) and, at the end, the run's leaderboard as a CSV file.

Trackers read their own usual environment variables (``WANDB_MODE``, ``WANDB_PROJECT``,
``MLFLOW_TRACKING_URI``...). Everything they are given passes through the secret scrubber
first, so API keys never reach a tracker's records. A tracker that fails while logging a unit
is logged as a warning and the run goes on; one that cannot start fails the run before any
unit runs, with one line that says why.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import logging
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

from seebench.csv_files import write_records
from seebench.errors import SeebenchError
from seebench.events import UnitFinished
from seebench.secrets import scrub

log = logging.getLogger("seebench")

#: Columns of the leaderboard CSV a tracker receives at the end of a run.
LEADERBOARD_COLUMNS = ("model", "method", "task", "status", "metric", "value", "n", "reason")


@dataclass(frozen=True)
class UnitRecord:
    """One finished unit as trackers see it (secrets scrubbed)."""

    event: UnitFinished
    result: dict[str, Any] | None = None
    samples: list[dict[str, Any]] = field(default_factory=list)
    samples_path: Path | None = None

    @property
    def key(self) -> str:
        """``model/method/task``: unique within a run."""
        return f"{self.event.model_id}/{self.event.method}/{self.event.task}"


class Tracker:
    """Base of experiment trackers; subclasses implement :meth:`start`, :meth:`log_unit` and
    :meth:`finish`."""

    #: the name ``--log-to`` uses
    name: ClassVar[str] = ""

    def __init__(self, config: dict[str, Any], output: Path):
        self.config = scrub(config)
        self.output = output
        self.units: list[UnitRecord] = []

    def start(self) -> None:
        """Open the tracker's run (raise :class:`SeebenchError` when that is impossible)."""

    def log_unit(self, unit: UnitRecord) -> None:
        """Record one finished unit."""

    def finish(self, leaderboard: Path) -> None:
        """Close the run; ``leaderboard`` is a CSV of every unit the run handled."""

    def handle(self, event: UnitFinished) -> None:
        """Called by the tracker's ``on_unit_finished`` hook while the tracker is active."""
        unit = unit_record(event)
        self.units.append(unit)
        self.log_unit(unit)


_active: dict[str, Tracker] = {}


def active_tracker(name: str) -> Tracker | None:
    """The tracker ``name`` if the current run logs to it."""
    return _active.get(name)


def known_trackers(plugins: Iterable[Any]) -> dict[str, type[Tracker]]:
    """Tracker classes declared by ``plugins`` (the loaded plugin modules), by name."""
    found = {}
    for plugin in plugins:
        cls = getattr(plugin, "TRACKER", None)
        if isinstance(cls, type) and issubclass(cls, Tracker) and cls.name:
            found[cls.name] = cls
    return found


def import_tracker_library(module: str, tracker: str) -> Any:
    """Import a tracker's library or fail with a one-line install hint."""
    import importlib

    try:
        return importlib.import_module(module)
    except ImportError:
        raise SeebenchError(
            f"--log-to {tracker}: needs the package {module}: pip install 'seebench[trackers]'"
        ) from None


def _read_samples(path: Path) -> list[dict[str, Any]]:
    from seebench import safe_files

    records = []
    for line in safe_files.read_text(path).splitlines():
        if line.strip():
            record = json.loads(line)
            if not isinstance(record, dict):
                raise ValueError(f"a samples line is not a JSON object: {line[:80]!r}")
            records.append(record)
    return records


def _samples_name(result: dict[str, Any]) -> str | None:
    """The result's ``samples_file`` when it is a plain file name beside the result (a name
    with a folder in it, or ``..``, is refused: trackers upload what they read)."""
    name = result.get("samples_file")
    if not name:
        return None
    if not isinstance(name, str) or "/" in name or "\\" in name or name in (".", ".."):
        raise ValueError(f"samples_file {name!r} is not a file name beside the result")
    return name


def unit_record(event: UnitFinished) -> UnitRecord:
    """Read a finished unit's result and samples files (when there are any)."""
    from seebench import safe_files

    result, samples, samples_path = None, [], None
    path = event.result_path
    if path is not None and path.is_file():
        try:
            result = json.loads(safe_files.read_text(path))
            if not isinstance(result, dict):
                raise ValueError("the result is not a JSON object")
            name = _samples_name(result)
            if name:
                samples_path = path.parent / name
                samples = _read_samples(samples_path) if samples_path.is_file() else []
        except (OSError, ValueError) as exc:
            result, samples, samples_path = None, [], None
            log.warning("trackers: cannot read %s: %s", path, exc)
    clean = dataclasses.replace(event, reason=scrub(event.reason))
    return UnitRecord(clean, scrub(result), scrub(samples), samples_path)


def leaderboard_rows(units: list[UnitRecord]) -> list[dict[str, Any]]:
    """One row per unit: its primary metric's value (or why it has none)."""
    rows = []
    for unit in units:
        event, result = unit.event, unit.result or {}
        metric = result.get("primary_metric") or next(iter(event.metrics), None)
        value = event.metrics.get(metric) if metric else None
        rows.append(
            {
                "model": event.model_id,
                "method": event.method,
                "task": event.task,
                "status": event.status,
                "metric": metric or "",
                "value": value if value is not None else "",
                "n": result.get("n", ""),
                "reason": event.reason or "",
            }
        )
    return rows


def write_leaderboard(units: list[UnitRecord], path: Path) -> Path:
    """Write :func:`leaderboard_rows` as CSV to ``path``."""
    return write_records(path, leaderboard_rows(units), LEADERBOARD_COLUMNS)  # no formula cell


@contextlib.contextmanager
def tracking(
    names: list[str], config: dict[str, Any], output: Path, plugins: Iterable[Any]
) -> Iterator[list[Tracker]]:
    """Activate the trackers ``names`` (declared by one of ``plugins``) inside the block."""
    known = known_trackers(plugins)
    unknown = [n for n in names if n not in known]
    if unknown:
        raise SeebenchError(
            f"--log-to {unknown[0]}: unknown tracker; known: {', '.join(sorted(known)) or 'none'}"
        )
    trackers = [known[name](config, output) for name in dict.fromkeys(names)]
    started: list[Tracker] = []
    try:
        for tracker in trackers:
            try:
                tracker.start()
            except SeebenchError:
                raise
            except Exception as exc:  # the library's own error: one line, before any unit runs
                first = (str(exc).splitlines() or [""])[0]
                raise SeebenchError(
                    f"--log-to {tracker.name}: cannot start: {type(exc).__name__}: {first}"
                ) from None
            started.append(tracker)
            _active[tracker.name] = tracker
        yield trackers
    finally:
        for tracker in started:
            _active.pop(tracker.name, None)
            board = output / "runs" / f"leaderboard-{tracker.name}.csv"
            try:
                tracker.finish(write_leaderboard(tracker.units, board))
            except Exception as exc:  # a tracker must not turn a finished run into a failure
                log.warning(
                    "tracker %r failed to finish: %s: %s", tracker.name, type(exc).__name__, exc
                )
