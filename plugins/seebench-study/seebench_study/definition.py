"""Study definitions: load a shipped study by name or a user's YAML file, validate it, and
resolve its tasks from the data cache (files are referenced by sha256, never shipped).

Every problem is one line naming the file and the key (``seebench study serve`` prints them).
"""

from __future__ import annotations

import csv
import io
import random
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

import yaml

from seebench.errors import DataMissingError, SeebenchError, did_you_mean
from seebench_study.schema import STUDY_SCHEMA

KINDS = ("none", "autocomplete", "chat")
#: The columns a task table must have (RealHumanEval's ``tasks_data.csv``).
TASK_COLUMNS = ("name", "task_description", "function_signature", "unit_test")


class StudyError(SeebenchError):
    """A study definition is invalid or its data is missing; one line per problem."""


@dataclass(frozen=True)
class StudyTask:
    """One coding task as a participant sees it, with its hidden tests."""

    name: str
    description: str
    starter: str
    tests: str
    category: str = ""

    def public(self) -> dict[str, str]:
        """What the browser gets: never the tests."""
        return {"name": self.name, "description": self.description, "starter": self.starter}


@dataclass(frozen=True)
class Condition:
    """One arm of the study: no assistant, inline autocomplete or chat, with a model."""

    id: str
    kind: str
    model: str | None = None
    options: dict[str, Any] = field(default_factory=dict)
    #: For autocomplete through a completions endpoint: ``{format, stop}`` (None: chat).
    completion: dict[str, Any] | None = None


@dataclass(frozen=True)
class MaxTokens:
    """A truncated normal for a suggestion's ``max_tokens`` (RealHumanEval: 64, 15, [10, 120])."""

    mean: float = 64.0
    sd: float = 15.0
    low: int = 10
    high: int = 120

    def draw(self, rng: random.Random) -> int:
        """One draw, rounded, within [low, high] (rejection sampling of the normal)."""
        if self.sd == 0:
            return int(min(max(round(self.mean), self.low), self.high))
        for _ in range(1000):
            value = round(rng.gauss(self.mean, self.sd))
            if self.low <= value <= self.high:
                return int(value)
        return int(min(max(round(self.mean), self.low), self.high))


@dataclass(frozen=True)
class Study:
    """A validated study definition with its tasks loaded."""

    name: str
    path: Path
    title: str
    instructions: str
    consent: str
    tasks: dict[str, StudyTask]
    task_sets: tuple[tuple[str, ...], ...]
    conditions: tuple[Condition, ...]
    session_s: float
    skip_after_s: float
    snapshot_s: float
    pause_ms: int
    max_tokens: MaxTokens
    suggestion_temperature: float
    chat_max_tokens: int
    chat_temperature: float
    run_limits: dict[str, Any]
    surveys: dict[str, list[dict[str, Any]]]
    tutorial: str | None = None
    run_workers: int = 2
    instructions_by_kind: dict[str, str] = field(default_factory=dict)
    #: Where the end page sends a participant (``{end_code}`` is replaced), e.g. Prolific's.
    completion_url: str | None = None
    #: The completion rule: tasks (after the tutorial) a participant must have ended
    #: (passed, skipped or run out of time on) before the post-survey gives an end code.
    min_tasks: int = 1
    #: The chat rate limit per participant: at most ``messages`` in any ``seconds``.
    chat_rate: tuple[int, float] = (10, 60.0)

    def screening_items(self, condition: Condition) -> list[dict[str, Any]]:
        """The pre-survey items that screen (asked first, on a page of their own)."""
        return [i for i in self.survey_items("pre", condition) if i.get("screen") is not None]

    def phase_items(self, phase: str, condition: Condition) -> list[dict[str, Any]]:
        """The survey items asked in protocol ``phase`` (screening, pre or post)."""
        if phase == "screening":
            return self.screening_items(condition)
        items = self.survey_items(phase, condition)
        return [i for i in items if i.get("screen") is None] if phase == "pre" else items

    def is_tutorial(self, task_set: int, index: int) -> bool:
        """Whether task ``index`` of ``task_set`` is the (untimed, uncounted) tutorial."""
        return bool(self.tutorial) and index == 0 and self.task_sets[task_set][0] == self.tutorial

    def instructions_for(self, kind: str) -> str:
        """The instructions a participant of a condition of ``kind`` reads."""
        return self.instructions_by_kind.get(kind, self.instructions)

    def survey_items(self, survey: str, condition: Condition) -> list[dict[str, Any]]:
        """The items of ``survey`` asked in ``condition`` (``conditions``/``kinds`` filters)."""
        return [
            item
            for item in self.surveys.get(survey, [])
            if condition.id in item.get("conditions", [condition.id])
            and condition.kind in item.get("kinds", [condition.kind])
        ]

    def condition(self, condition_id: str) -> Condition:
        for condition in self.conditions:
            if condition.id == condition_id:
                return condition
        raise StudyError(f"study {self.name!r}: no condition {condition_id!r}")

    def task_list(self, task_set: int) -> list[StudyTask]:
        return [self.tasks[name] for name in self.task_sets[task_set]]


def shipped_studies() -> dict[str, Path]:
    """The study definitions shipped with seebench, by name."""
    folder = Path(str(resources.files("seebench_study") / "studies"))
    return {p.stem: p for p in sorted(folder.glob("*.yaml"))}


def find_study(name_or_path: str) -> Path:
    """A shipped study's file, or ``name_or_path`` itself when it is a YAML file."""
    shipped = shipped_studies()
    if name_or_path in shipped:
        return shipped[name_or_path]
    path = Path(name_or_path)
    if path.is_file():
        return path
    raise StudyError(
        f"no study {name_or_path!r}: give a shipped study ({', '.join(shipped)}) or a YAML file"
        f"{did_you_mean(name_or_path, shipped)}"
    )


def read_document(path: Path) -> dict[str, Any]:
    """The validated YAML document of a study; :class:`StudyError` lists every problem."""
    import jsonschema

    try:
        document = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        raise StudyError(f"{path}: cannot read: {' '.join(str(exc).split())}") from None
    if not isinstance(document, dict):
        raise StudyError(f"{path}: <root>: expected a mapping")
    validator = jsonschema.Draft202012Validator(STUDY_SCHEMA)
    problems = []
    for error in validator.iter_errors(document):
        where = ".".join(str(p) for p in error.absolute_path) or "<root>"
        message = error.message if len(error.message) < 200 else error.message[:197] + "..."
        problems.append(f"{path}: {where}: {message}")
    problems += _consistency_problems(document, path)
    if problems:
        raise StudyError("\n".join(sorted(set(problems), key=problems.index)))
    return document


def _consistency_problems(document: dict[str, Any], path: Path) -> list[str]:
    problems = []
    ids = [c.get("id") for c in document.get("conditions", []) if isinstance(c, dict)]
    for duplicate in sorted({i for i in ids if ids.count(i) > 1}, key=str):
        problems.append(f"{path}: conditions: condition id {duplicate!r} is used twice")
    for index, condition in enumerate(document.get("conditions", [])):
        needs_model = isinstance(condition, dict) and condition.get("kind") in KINDS[1:]
        if needs_model and not condition.get("model"):
            problems.append(
                f"{path}: conditions.{index}: a {condition['kind']} condition needs a model"
            )
    for survey, items in (document.get("surveys") or {}).items():
        for index, item in enumerate(items or []):
            if not isinstance(item, dict):
                continue
            where = f"{path}: surveys.{survey}.{index}"
            if item.get("kind") == "scale" and not (
                isinstance(item.get("min"), int)
                and isinstance(item.get("max"), int)
                and item["min"] < item["max"]
            ):
                problems.append(f"{where}: a scale needs integers min < max")
            if item.get("kind") == "choice" and not item.get("options"):
                problems.append(f"{where}: a choice needs options")
            if item.get("kind") == "text" and item.get("screen"):
                problems.append(f"{where}: screen: a text item cannot screen")
            unknown = [c for c in item.get("conditions") or [] if c not in ids]
            if unknown:
                problems.append(f"{where}: conditions: no condition {unknown[0]!r}")
    for index, condition in enumerate(document.get("conditions", [])):
        if (
            isinstance(condition, dict)
            and condition.get("completion")
            and condition.get("kind") != "autocomplete"
        ):
            problems.append(
                f"{path}: conditions.{index}.completion: only an autocomplete condition "
                "uses a completions endpoint"
            )
    bounds = (document.get("suggestion") or {}).get("max_tokens")
    if isinstance(bounds, dict) and bounds.get("min", 0) > bounds.get("max", 0):
        problems.append(f"{path}: suggestion.max_tokens: min is larger than max")
    return problems


def read_task_table(source: dict[str, Any], path: Path) -> dict[str, StudyTask]:
    """The tasks of a study from its cached task table (checked against its sha256)."""
    from seebench.data.cache import cache_damage, cached_file

    local = cached_file(source["sha256"])
    if local is None:
        damage = cache_damage(source["sha256"])
        raise DataMissingError(
            f"{path}: tasks.source: "
            + (
                damage
                or f"{source.get('file_name', 'the task table')} (sha256 {source['sha256'][:12]}...) "
                f"is not in the data cache; run 'seebench study import-data {path.stem} DIR' "
                f"with the folder holding it (upstream: {source.get('url', 'not given')})"
            )
        )
    text = local.read_text(encoding="utf-8")
    rows = list(csv.DictReader(io.StringIO(text)))
    missing = [c for c in TASK_COLUMNS if rows and c not in rows[0]]
    if not rows or missing:
        raise StudyError(f"{local}: task table lacks column(s) {', '.join(missing) or 'rows'}")
    tasks = {}
    for number, row in enumerate(rows, start=2):
        name = (row["name"] or "").strip()
        if not name or not row["unit_test"].strip():
            raise StudyError(f"{local}: line {number}: a task needs a name and unit tests")
        tasks[name] = StudyTask(
            name=name,
            description=row["task_description"].strip(),
            starter=row["function_signature"].strip("\n") + "\n",
            tests=row["unit_test"],
            category=(row.get("type") or "").strip(),
        )
    return tasks


def load_study(name_or_path: str) -> Study:
    """Load, validate and resolve a study (a shipped name or a YAML path)."""
    path = find_study(name_or_path)
    doc = read_document(path)
    all_tasks = read_task_table(doc["tasks"]["source"], path)
    include = doc["tasks"].get("include") or list(all_tasks)
    unknown = [n for n in include if n not in all_tasks]
    if unknown:
        raise StudyError(
            f"{path}: tasks.include: unknown task {unknown[0]!r}{did_you_mean(unknown[0], all_tasks)}"
        )
    tasks = {n: all_tasks[n] for n in include}
    tutorial = doc.get("tutorial")
    sets = []
    for index, names in enumerate(doc["task_sets"]):
        full = ([tutorial] if tutorial and tutorial not in names else []) + list(names)
        for name in full:
            if name not in tasks:
                raise StudyError(
                    f"{path}: task_sets.{index}: task {name!r} is not among the study's tasks"
                    f"{did_you_mean(name, tasks)}"
                )
        sets.append(tuple(full))
    suggestion = doc.get("suggestion") or {}
    instructions = doc.get("instructions", "")
    by_kind: dict[str, str] = {}
    if isinstance(instructions, dict):
        common = instructions.get("all", "")
        by_kind = {k: "\n\n".join(t for t in (common, instructions.get(k, "")) if t) for k in KINDS}
        instructions = common
    run = dict(doc.get("run") or {})
    workers = int(run.pop("workers", 2))
    bounds = suggestion.get("max_tokens") or {}
    chat = doc.get("chat") or {}
    return Study(
        name=doc["name"],
        path=path,
        title=doc.get("title", doc["name"]),
        instructions=instructions,
        instructions_by_kind=by_kind,
        tutorial=tutorial,
        run_workers=workers,
        completion_url=doc.get("completion_url"),
        consent=doc.get("consent", ""),
        tasks=tasks,
        task_sets=tuple(sets),
        conditions=tuple(
            Condition(
                c["id"],
                c["kind"],
                c.get("model"),
                dict(c.get("options") or {}),
                c.get("completion"),
            )
            for c in doc["conditions"]
        ),
        session_s=float(doc.get("session_minutes", 35)) * 60,
        skip_after_s=float(doc.get("skip_after_minutes", 10)) * 60,
        snapshot_s=float(doc.get("snapshot_seconds", 15)),
        pause_ms=int(suggestion.get("pause_ms", 2000)),
        max_tokens=MaxTokens(
            float(bounds.get("mean", 64)),
            float(bounds.get("sd", 15)),
            int(bounds.get("min", 10)),
            int(bounds.get("max", 120)),
        ),
        suggestion_temperature=float(suggestion.get("temperature", 0.2)),
        chat_max_tokens=int(chat.get("max_tokens", 512)),
        chat_temperature=float(chat.get("temperature", 0.2)),
        chat_rate=(
            int((chat.get("rate_limit") or {}).get("messages", 10)),
            float((chat.get("rate_limit") or {}).get("seconds", 60)),
        ),
        min_tasks=int((doc.get("completion") or {}).get("min_tasks", 1)),
        run_limits=run,
        surveys={k: list(v or []) for k, v in (doc.get("surveys") or {}).items()},
    )


def import_study_data(study_path: Path, directory: Path) -> list[Path]:
    """Copy the files under ``directory`` whose sha256 the study declares into the cache."""
    from seebench.data.cache import cached_file, sha256_file, store_file

    doc = read_document(study_path)
    source = doc["tasks"]["source"]
    if not directory.is_dir():
        raise StudyError(f"{directory}: not a directory")
    if cached_file(source["sha256"]) is not None:
        return []
    wanted_name = source.get("file_name")
    files = sorted(p for p in directory.rglob("*") if p.is_file())
    files.sort(key=lambda p: p.name != wanted_name)  # likely matches are hashed first
    for candidate in files:
        if sha256_file(candidate) == source["sha256"]:
            store_file(candidate, source["sha256"], source.get("file_name") or candidate.name)
            return [candidate]
    raise StudyError(
        f"{directory}: no file with the sha256 of {study_path}'s task table ({source['sha256'][:12]}...)"
    )


def balanced_pick(counts: dict[Any, int], rng: random.Random) -> Any:
    """The key with the fewest sessions so far (ties broken at random): balanced assignment."""
    fewest = min(counts.values())
    return rng.choice(sorted(k for k, v in counts.items() if v == fewest))
