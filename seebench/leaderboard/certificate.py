"""What a published leaderboard records about its units, and how a rerun is judged.

``seebench leaderboard build`` writes ``manifest.json`` beside the tables: for every unit of
the results folder the sha256 of its result and samples files, its metrics, the sha256 of
every data file it read, the model's identity, seed, limit, run hash and the seebench version
and commit it was made with. ``seebench reproduce`` reads it back, reruns (or re-scores) each
unit and gives each a :class:`Verdict`: ``identical``, ``within tolerance`` (with the cause
the run file states and the differences of threads, BLAS, CPU and packages between the two
environments) or ``different`` (with the reason). A verdict also notes when the unit was made
at another seebench source commit than the one reproducing it (a note, not a difference: the
version and the metrics decide). Nothing here runs anything.
"""

from __future__ import annotations

import hashlib
import json
import math
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from seebench.errors import SeebenchError

MANIFEST_FILE = "manifest.json"
IDENTICAL, WITHIN, DIFFERENT = "identical", "within tolerance", "different"


@dataclass(frozen=True)
class Verdict:
    """How one reproduced unit compares with its published record."""

    unit: str
    status: str  # identical | within tolerance | different
    detail: str = ""
    source: str = ""  # how the seebench commits of the two sides differ; "" when they agree

    def as_dict(self) -> dict[str, str]:
        """The verdict as a JSON-ready mapping."""
        return {
            "unit": self.unit,
            "status": self.status,
            "detail": self.detail,
            "source": self.source,
        }


def file_sha256(path: Path) -> str:
    """The sha256 of a file's bytes."""
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def result_paths(results: Path) -> list[Path]:
    """Every unit result below ``results`` (not the run records, not artifacts)."""
    paths = []
    for path in sorted(results.rglob("*.json")):
        relative = path.relative_to(results)
        if relative.parts[0] == "runs" or any(p.startswith(".") for p in relative.parts):
            continue  # run records; locks, work folders and event logs of running units
        if any(part.endswith(".artifacts") for part in relative.parts):
            continue
        paths.append(path)
    return paths


def unit_record(path: Path, results: Path, run_name: str | None) -> dict[str, Any]:
    """The manifest entry of the result at ``path``."""
    result = read_result(path)
    identity = json.dumps(result.get("model", {}).get("identity", {}), sort_keys=True)
    environment = result.get("environment") or {}
    return {
        "unit": path.relative_to(results).as_posix(),
        "run": run_name,
        "status": result.get("status"),
        "result_sha256": file_sha256(path),
        "samples_sha256": result.get("samples_sha256"),
        "model": result.get("model", {}).get("id"),
        "spec": result.get("model", {}).get("spec"),
        "model_identity_sha256": hashlib.sha256(identity.encode()).hexdigest(),
        "method": result.get("method"),
        "task": result.get("task", {}).get("name"),
        "seed": (result.get("run") or {}).get("seed"),
        "limit": (result.get("run") or {}).get("limit"),
        "config_hash": (result.get("run") or {}).get("config_hash"),
        "primary_metric": result.get("primary_metric"),
        "metrics": result.get("metrics") or {},
        "data": ((result.get("data") or {}).get("checksums")) or {},
        "seebench_version": result.get("seebench_version"),
        "seebench_source": environment.get("seebench_source"),
    }


def read_result(path: Path) -> dict[str, Any]:
    """A result file as a mapping; one line naming the file when it cannot be read."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise SeebenchError(f"{path}: not a readable result file: {exc}") from None
    if not isinstance(data, dict):
        raise SeebenchError(f"{path}: not a result (a JSON object was expected)")
    return data


def read_manifest(folder: Path) -> dict[str, Any]:
    """The folder's ``manifest.json``; one line naming it when missing or unreadable."""
    path = folder / MANIFEST_FILE
    try:
        manifest = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise SeebenchError(
            f"{path}: no such file; 'seebench leaderboard build {folder}' writes it"
        ) from None
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise SeebenchError(f"{path}: not a readable manifest: {exc}") from None
    if not isinstance(manifest, dict) or not isinstance(manifest.get("units"), list):
        raise SeebenchError(f"{path}: units: a list of units was expected")
    return manifest


def check_published(record: dict[str, Any], path: Path) -> str | None:
    """Why the published result at ``path`` no longer matches its manifest entry, or ``None``."""
    if not path.is_file():
        return f"the published result {path.name} is missing"
    result = read_result(path)
    metrics = result.get("metrics") or {}
    for name, value in sorted((record.get("metrics") or {}).items()):
        if metrics.get(name) != value:
            return f"stored metric {name} is {metrics.get(name)!r}; the manifest records {value!r}"
    if file_sha256(path) != record.get("result_sha256"):
        return "the published result file changed since the manifest was written (sha256)"
    return None


def judge(
    record: dict[str, Any],
    result: dict[str, Any] | None,
    tolerance: tuple[float, str],
    environments: tuple[dict[str, Any], dict[str, Any]],
    version: str,
    problem: str | None = None,
) -> Verdict:
    """The verdict of one unit: ``record`` (the manifest entry) against ``result`` (the rerun
    or re-scored result, ``None`` with ``problem`` when there is none), allowed to differ by
    ``tolerance`` (absolute, cause); ``environments`` are the published and the reproducing
    environment records; ``version`` the reproducing seebench version. The verdict's
    ``source`` says when the two sides ran different seebench commits."""
    published = record.get("seebench_source") or environments[0].get("seebench_source")
    verdict = _judge(record, result, tolerance, environments, version, problem)
    return replace(verdict, source=source_change(published, environments[1].get("seebench_source")))


def _judge(
    record: dict[str, Any],
    result: dict[str, Any] | None,
    tolerance: tuple[float, str],
    environments: tuple[dict[str, Any], dict[str, Any]],
    version: str,
    problem: str | None,
) -> Verdict:
    unit = str(record.get("unit"))
    if problem or result is None:
        return Verdict(unit, DIFFERENT, problem or "no reproduced result")
    if record.get("seebench_version") != version:
        return Verdict(
            unit,
            DIFFERENT,
            f"made with seebench {record.get('seebench_version')}, reproduced with {version}",
        )
    if result.get("status") != record.get("status"):
        return Verdict(
            unit, DIFFERENT, f"status {result.get('status')} (published {record.get('status')})"
        )
    changed = _data_changes(
        record.get("data") or {}, ((result.get("data") or {}).get("checksums")) or {}
    )
    if changed:
        return Verdict(unit, DIFFERENT, changed)
    return _metric_verdict(
        unit, record.get("metrics") or {}, result.get("metrics") or {}, tolerance, environments
    )


def source_change(published: Any, reproducing: Any) -> str:
    """How the seebench source of a published unit (``environment.seebench_source``:
    ``{"commit", "dirty"}``) differs from the one reproducing it; ``""`` when both are the
    same clean commit or neither side was a git checkout (the version then says all there is).
    The same commit with uncommitted changes on either side is reported: the code may differ."""
    before, after = _source_text(published), _source_text(reproducing)
    if before == after and "uncommitted" not in before:
        return ""
    return f"made at seebench {before}, reproduced at {after}"


def _source_text(source: Any) -> str:
    if not isinstance(source, dict) or not source.get("commit"):
        return "commit unknown"
    dirty = " with uncommitted changes" if source.get("dirty") else ""
    return f"commit {str(source['commit'])[:12]}{dirty}"


def _data_changes(recorded: dict[str, Any], now: dict[str, Any]) -> str | None:
    for name in sorted(set(recorded) | set(now)):
        if recorded.get(name) != now.get(name):
            return (
                f"data file {name}: sha256 {_short(recorded.get(name))} when published, "
                f"{_short(now.get(name))} now"
            )
    return None


def _short(value: Any) -> str:
    return str(value)[:12] if value else "absent"


def _metric_verdict(
    unit: str,
    recorded: dict[str, Any],
    now: dict[str, Any],
    tolerance: tuple[float, str],
    environments: tuple[dict[str, Any], dict[str, Any]],
) -> Verdict:
    if set(recorded) != set(now):
        return Verdict(unit, DIFFERENT, f"metrics {sorted(now)} (published {sorted(recorded)})")
    gaps = {name: _gap(recorded[name], now[name]) for name in recorded}
    worst = max(gaps, key=lambda n: gaps[n], default=None)
    if worst is None or gaps[worst] == 0:
        return Verdict(unit, IDENTICAL, "")
    limit, cause = tolerance
    shown = f"{worst}: {recorded[worst]!r} published, {now[worst]!r} now"
    if gaps[worst] <= limit:
        changes = environment_changes(*environments)
        why = (
            "; ".join(changes)
            if changes
            else "no difference of threads, BLAS, CPU or packages recorded"
        )
        return Verdict(unit, WITHIN, f"{shown} (|diff| <= {limit:g}: {cause}; {why})")
    return Verdict(unit, DIFFERENT, shown)


def _gap(a: Any, b: Any) -> float:
    try:
        fa, fb = float(a), float(b)
    except (TypeError, ValueError):
        return 0.0 if a == b else math.inf
    if math.isnan(fa) and math.isnan(fb):
        return 0.0
    gap = abs(fa - fb)
    return math.inf if math.isnan(gap) else gap


def environment_changes(before: dict[str, Any], after: dict[str, Any]) -> list[str]:
    """What differs between two result environments that can change floating-point results:
    thread settings, BLAS libraries, the CPU and package versions."""
    old, new = before.get("hardware") or {}, after.get("hardware") or {}
    lines = []
    for key, label in (
        ("cpus_usable", "usable CPUs"),
        ("torch_threads", "torch threads"),
        ("thread_variables", "thread variables"),
        ("cpu", "CPU"),
    ):
        if old.get(key) != new.get(key):
            lines.append(f"{label}: {old.get(key)} -> {new.get(key)}")
    if _blas(old) != _blas(new):
        lines.append(f"BLAS: {_blas(old) or 'unrecorded'} -> {_blas(new) or 'unrecorded'}")
    packages_old, packages_new = before.get("packages") or {}, after.get("packages") or {}
    for name in sorted(set(packages_old) | set(packages_new)):
        if packages_old.get(name) != packages_new.get(name):
            lines.append(f"{name}: {packages_old.get(name)} -> {packages_new.get(name)}")
    return lines


def _blas(hardware: dict[str, Any]) -> str:
    return ", ".join(
        f"{b.get('library')} {b.get('version')} ({b.get('threads')} threads)"
        for b in hardware.get("blas") or []
    )
