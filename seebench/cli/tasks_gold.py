"""``seebench tasks check --gold``: run each task's reference answers several times and say
which items' gold does not pass, every time.

For each task, the first registered reference model (:data:`REFERENCE_MODELS`) whose method
applies answers every test item with its reference (the canonical solution, the hidden
tests, the original documented function...); the task's own scorers judge those answers
``repeats`` times, each time from scratch (a fresh artifacts folder: no score cache). An item
is

- ``stable`` when its gold scores full marks every time;
- ``infrastructure`` when some run could not judge it (unscored: the sandbox, the
  repository environment or the harness failed, or the item is excluded here);
- ``flaky`` (ambiguous) when it passes some runs and fails others;
- ``broken`` when its gold fails every run (the item, its tests or its reference is wrong).

Items without a reference answer are counted (``noref``), not checked.

The control: the ``null`` model's answer (the input unchanged, an empty test; an empty
string where no null model applies) of every checked item is scored once as well; an item whose empty answer gets full marks is *weak* (its tests cannot fail) and is
counted (``null``) and listed apart from the classes above.

Flagged items can be recorded (``--record``) in the exclusion list shipped with the task
(``data.exclude`` in its YAML, a JSON file next to it): they are then left out of scoring
and the results count them (``data.counts.excluded``). See ``docs/methodology.md``, "Gold
check".
"""

from __future__ import annotations

import json
import tempfile
import time
from collections import Counter
from collections.abc import Collection
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from seebench.errors import SeebenchError

#: the rule models that answer with each item's reference (tried in order, first that applies)
REFERENCE_MODELS = ("oracle", "reference")
#: the rule model whose (empty) answers must fail: the control
CONTROL_MODELS = ("null",)
CLASSES = ("stable", "flaky", "broken", "infrastructure")
#: verdicts that say the infrastructure failed, not the item (the sandbox's verdict strings;
#: defined here until seebench.sandbox.verdicts exports them)
INFRA_VERDICTS = frozenset({"infra_error", "sandbox_unavailable"})
#: item metadata keys that name an item for people (the first present is shown)
KEY_FIELDS = ("task_id", "case_id", "name", "problem_id", "id")


@dataclass
class ItemCheck:
    """One item's gold over the repeats: ``pass``, ``fail`` or ``unscored`` per run."""

    id: str
    key: str
    runs: list[str] = field(default_factory=list)
    reasons: list[str] = field(default_factory=list)
    null: str = ""  #: the control's run: ``pass`` (weak), ``fail``, ``unscored``; "" not run

    @property
    def verdict(self) -> str:
        """``stable``, ``infrastructure``, ``flaky`` or ``broken`` (see the module docs)."""
        if all(run == "pass" for run in self.runs):
            return "stable"
        if "unscored" in self.runs:
            return "infrastructure"
        return "flaky" if "pass" in self.runs else "broken"

    def as_dict(self) -> dict[str, Any]:
        reason = next((r for r in self.reasons if r), "")
        return {"id": self.id, "key": self.key, "class": self.verdict, "runs": self.runs,
                "reason": reason}  # fmt: skip


@dataclass
class TaskCheck:
    """The gold check of one task (``skipped`` says why it was not run)."""

    task: str
    model: str = ""
    items: list[ItemCheck] = field(default_factory=list)
    seconds: float = 0.0
    skipped: str = ""
    excluded: int = 0  #: items already left out by the task's exclusion list
    no_reference: int = 0  #: test items without a reference answer (not checked)

    def counts(self) -> dict[str, int]:
        found = Counter(item.verdict for item in self.items)
        return {name: found.get(name, 0) for name in CLASSES}

    def flagged(self) -> list[ItemCheck]:
        return [item for item in self.items if item.verdict != "stable"]

    def weak(self) -> list[ItemCheck]:
        """Items whose empty (null) answer passed: their tests cannot fail."""
        return [item for item in self.items if item.null == "pass"]

    def null_column(self) -> str:
        """How many items the null answer passed, ``-`` when no control ran."""
        return str(len(self.weak())) if any(item.null for item in self.items) else "-"

    def as_dict(self) -> dict[str, Any]:
        return {
            "task": self.task,
            "model": self.model,
            "items": len(self.items),
            "excluded": self.excluded,
            "no_reference": self.no_reference,
            **self.counts(),
            "null_passed": self.null_column(),
            "seconds": round(self.seconds, 1),
            "skipped": self.skipped,
            "flagged": [item.as_dict() for item in self.flagged()],
            "weak": [{"id": item.id, "key": item.key} for item in self.weak()],
        }


def item_key(sample: Any) -> str:
    """A name of ``sample`` people can read (its task id, case id...), else its id."""
    for name in KEY_FIELDS:
        value = sample.meta.get(name)
        if isinstance(value, str | int) and value != "":
            return str(value)
        if isinstance(sample.target, dict) and isinstance(sample.target.get(name), str | int):
            return str(sample.target[name])
    return sample.id


def reference_method(
    task: Any, registry: Any, names: tuple[str, ...] = REFERENCE_MODELS
) -> tuple[Any, Any] | str:
    """(model, method) of the first of the rule models ``names`` (the reference models by
    default) that applies to ``task``, else why none."""
    reasons = []
    for name in names:
        if name not in registry.models:
            continue
        entry = registry.model_entry(name)
        model = entry.load()(name)
        method = registry.method(entry.default_method).load()()
        why = method.not_applicable(task, model)
        if why is None:
            return model, method
        reasons.append(why)
    return reasons[-1] if reasons else "no reference model is registered"


def reference_predictions(task: Any, data: Any, model: Any, method: Any, registry: Any) -> list:
    """The reference answer of every test item (``None`` where an item has none)."""
    from seebench.methods.base import RunContext

    with tempfile.TemporaryDirectory(prefix="seebench-gold-") as work:
        context = RunContext(task, data, model, 0, {}, Path(work), registry=registry)
        output = method.run(context)
    answers = {p.sample_id: p.prediction for p in output.predictions}
    return [answers.get(sample.id) for sample in data.test]


def score_once(task: Any, samples: list, answers: list, registry: Any) -> list[Any]:
    """One fresh scoring of ``answers`` by the task's primary scorer (no score cache)."""
    from seebench.scoring.core import ScoreContext
    from seebench.scoring.run import close_scorers, configure_scorers, score_predictions

    runs = configure_scorers(task, registry)
    with tempfile.TemporaryDirectory(prefix="seebench-gold-") as artifacts:
        context = ScoreContext(task=task, artifacts=Path(artifacts))
        try:
            scores = score_predictions(runs[:1], samples, [answers], context)
        finally:
            close_scorers(runs)
    return scores[runs[0].name][0]


def run_of(score: Any) -> tuple[str, str]:
    """(``pass``/``fail``/``unscored``, the score's one-line explanation)."""
    why = (score.explanation or "").splitlines()[0][:200] if score.explanation else ""
    if score.value is None or score.metadata.get("verdict") in INFRA_VERDICTS:
        return "unscored", why or "not scored"
    return ("pass" if score.value >= 1.0 else "fail"), why


def run_control(check: TaskCheck, task: Any, data: Any, samples: list, registry: Any) -> None:
    """Score the null model's answer of each checked item once (``ItemCheck.null``); where no
    null model applies (a code task), the answer is the empty string."""
    found = reference_method(task, registry, CONTROL_MODELS)
    if isinstance(found, str):
        answers: list = [""] * len(samples)
    else:
        model, method = found
        every = reference_predictions(task, data, model, method, registry)
        by_id = dict(zip((s.id for s in data.test), every, strict=True))
        answers = [by_id.get(s.id) for s in samples]
    scores = score_once(task, samples, answers, registry)
    for item, score in zip(check.items, scores, strict=True):
        item.null = run_of(score)[0]


def check_task(
    task: Any,
    registry: Any,
    repeats: int = 3,
    limit: int | None = None,
    control: bool = True,
    skip: int = 0,
    sample_ids: Collection[str] | None = None,
) -> TaskCheck:
    """The gold check of ``task`` (see the module docs); one bad task is one skipped row.
    ``control``: also score the null model's answers once (weak items). ``skip`` leaves out
    the first test items (``limit`` then counts from there: items ``skip+1..skip+limit``);
    ``sample_ids`` keeps only those test items (a task with none of them is skipped)."""
    from seebench.data.dataset import load_task_data

    started = time.monotonic()
    check = TaskCheck(task.name)
    found = reference_method(task, registry)
    if isinstance(found, str):
        check.skipped = found
        return check
    model, method = found
    check.model = model.spec
    try:
        data = load_task_data(
            task, registry, limit=skip + limit if limit else None, sample_ids=sample_ids
        )
        pairs = list(
            zip(data.test, reference_predictions(task, data, model, method, registry), strict=True)
        )[skip:]
        kept = [(sample, answer) for sample, answer in pairs if answer is not None]
        check.no_reference = len(pairs) - len(kept)
        samples, answers = [s for s, _ in kept], [a for _, a in kept]
        check.excluded = len(getattr(data, "excluded", {}) or {})
        check.items = [ItemCheck(s.id, item_key(s)) for s in samples]
        for _ in range(repeats if samples else 0):
            scores = score_once(task, samples, answers, registry)
            for item, score in zip(check.items, scores, strict=True):
                outcome, why = run_of(score)
                item.runs.append(outcome)
                item.reasons.append("" if outcome == "pass" else why)
        if control and samples:
            run_control(check, task, data, samples, registry)
    except SeebenchError as exc:
        check.skipped = str(exc).splitlines()[0]
    check.seconds = time.monotonic() - started
    return check


def table(checks: list[TaskCheck]) -> str:
    """The checks as a fixed-width table, then the totals line."""
    head = f"{'task':<34} {'model':<9} {'items':>5} {'stable':>6} {'flaky':>5} {'broken':>6} "
    head += f"{'infra':>5} {'excl':>4} {'noref':>5} {'null':>4} {'seconds':>8}"
    lines = [head]
    totals: Counter[str] = Counter()
    for check in checks:
        if check.skipped:
            lines.append(f"{check.task:<34} skipped: {check.skipped}")
            continue
        c = check.counts()
        totals.update({**c, "items": len(check.items), "tasks": 1})
        lines.append(
            f"{check.task:<34} {check.model:<9} {len(check.items):>5} {c['stable']:>6} "
            f"{c['flaky']:>5} {c['broken']:>6} {c['infrastructure']:>5} {check.excluded:>4} "
            f"{check.no_reference:>5} {check.null_column():>4} {check.seconds:>8.1f}"
        )
        totals["weak"] += len(check.weak())
    lines.append(
        f"{totals['tasks']} tasks checked, {totals['items']} items: {totals['stable']} stable, "
        f"{totals['flaky']} flaky, {totals['broken']} broken, "
        f"{totals['infrastructure']} infrastructure; {totals['weak']} passed by the null answer"
    )
    return "\n".join(lines)


def exclusion_path(task: Any) -> Path:
    """Where ``task``'s exclusion list lives: ``data.exclude`` of its YAML (relative to it),
    else ``<task file stem>.exclusions.json`` beside it."""
    name = (task.data or {}).get("exclude") or f"{Path(task.path).stem}.exclusions.json"
    return Path(task.path).parent / name


def record_exclusions(check: TaskCheck, task: Any, command: str) -> Path | None:
    """Write ``check``'s flagged items as ``task``'s exclusion list (merged with the items it
    already lists); ``None`` when nothing is flagged and no list exists."""
    path = exclusion_path(task)
    listed: dict[str, dict[str, Any]] = {}
    if path.is_file():
        listed = {entry["id"]: entry for entry in read_exclusions(path)}
    for item in check.flagged():
        entry = item.as_dict()
        listed[item.id] = {k: entry[k] for k in ("id", "key", "class", "reason", "runs")}
    if not listed:
        return None
    body = {
        "task": task.name,
        "command": command,
        "items": sorted(listed.values(), key=lambda e: e["key"]),
    }
    path.write_text(json.dumps(body, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return path


def read_exclusions(path: Path) -> list[dict[str, Any]]:
    """The entries of an exclusion list (see :func:`seebench.data.dataset.read_exclusions`)."""
    from seebench.data.dataset import read_exclusions as read

    return [{"id": item_id, **entry} for item_id, entry in read(path).items()]
