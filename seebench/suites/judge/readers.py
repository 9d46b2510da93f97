"""Readers for the study's released files: responses, human scores and per-method scores.

Layout of one released task directory (e.g. ``llm_judge/codetransocean_scoring/``):

- ``test-D-responded.jsonl`` (or ``test-E-...``): one JSON object per response with ``lang``,
  ``input``, ``gold``, ``llm``, ``output`` and ``index``; the responses to one input are adjacent.
- ``test-0-human.jsonl``: one number per line, the human score of each response (scoring) or the
  difference of the two human scores of each ordered response pair (comparison).
- ``test-<group>-<k>-<method>.jsonl``: one number per line, a judging method's score or verdict.

Every problem is reported as one line naming the file and line (:class:`JudgeDataError`).
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass, field
from pathlib import Path

from seebench import safe_files
from seebench.data.dataset import DataError
from seebench.suites.judge.methods import RELEASED_METHODS, ReleasedMethod

RESPONSE_KEYS = ("lang", "input", "gold", "llm", "output", "index")
HUMAN_FILE = "test-0-human.jsonl"
RESPONSES_PATTERN = re.compile(r"^test-[A-Z]-responded\.jsonl$")
METHOD_FILE_PATTERN = re.compile(r"^test-([1-9])-(\d+)-([A-Za-z0-9.+-]+)\.jsonl$")
VARIANTS = ("scoring", "comparison")


class JudgeDataError(DataError):
    """A released judge file is malformed; the message names the file (and line)."""


@dataclass(frozen=True)
class ResponseRecord:
    """One model response to judge: the task input, the reference and the response."""

    index: int
    lang: str
    input: str
    gold: str
    llm: str
    output: str

    @property
    def languages(self) -> tuple[str, ...]:
        """The languages involved (``"C++, Java"`` for a translation gives two)."""
        return tuple(part.strip() for part in self.lang.split(",") if part.strip())


@dataclass
class ReleasedTask:
    """One released judging task: its responses, human scores and every method's scores."""

    name: str
    variant: str
    responses: list[ResponseRecord]
    human: list[float]
    methods: dict[str, list[float]] = field(default_factory=dict)
    files: dict[str, Path] = field(default_factory=dict)

    @property
    def input_ids(self) -> list[int]:
        """For each response, the position of its input group (responses to one input share it)."""
        return group_ids([r.input for r in self.responses])

    def pairs(self) -> list[tuple[int, int, int]]:
        """The ordered response pairs ``(input id, first, second)`` of the comparison variant."""
        return ordered_pairs(self.input_ids)

    def unit_input_ids(self) -> list[int]:
        """The input id of each scored unit: a response (scoring) or an ordered pair (comparison)."""
        if self.variant == "scoring":
            return self.input_ids
        return [pair[0] for pair in self.pairs()]

    def method_info(self, name: str) -> ReleasedMethod:
        return RELEASED_METHODS[name]


def _where(path: Path, line: int | None = None) -> str:
    return f"{path}:{line}" if line is not None else str(path)


def read_responses(path: Path) -> list[ResponseRecord]:
    """Read a ``test-?-responded.jsonl`` file; any malformed line raises one clear error."""
    path = Path(path)
    records: list[ResponseRecord] = []
    try:
        lines = safe_files.read_text(path).splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise JudgeDataError(f"{path}: cannot read ({exc})") from None
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            raise JudgeDataError(f"{_where(path, number)}: empty line")
        try:
            row = json.loads(line)
        except json.JSONDecodeError as exc:
            raise JudgeDataError(f"{_where(path, number)}: not JSON ({exc.msg})") from None
        if not isinstance(row, dict):
            raise JudgeDataError(f"{_where(path, number)}: expected a JSON object")
        missing = [key for key in RESPONSE_KEYS if key not in row]
        if missing:
            raise JudgeDataError(f"{_where(path, number)}: missing key(s) {', '.join(missing)}")
        for key in RESPONSE_KEYS[:-1]:
            if not isinstance(row[key], str):
                raise JudgeDataError(f"{_where(path, number)}: key '{key}' must be a string")
        if isinstance(row["index"], bool) or not isinstance(row["index"], int):
            raise JudgeDataError(f"{_where(path, number)}: key 'index' must be an integer")
        records.append(ResponseRecord(**{key: row[key] for key in RESPONSE_KEYS}))
    if not records:
        raise JudgeDataError(f"{path}: no responses")
    return records


def read_score_lines(path: Path) -> list[float]:
    """Read a file of one finite number per line (the study's score files)."""
    path = Path(path)
    try:
        lines = safe_files.read_text(path).splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise JudgeDataError(f"{path}: cannot read ({exc})") from None
    values: list[float] = []
    for number, line in enumerate(lines, start=1):
        text = line.strip()
        try:
            value = float(text)
        except ValueError:
            shown = text if len(text) <= 40 else text[:37] + "..."
            raise JudgeDataError(f"{_where(path, number)}: not a number: {shown!r}") from None
        if not math.isfinite(value):
            raise JudgeDataError(f"{_where(path, number)}: not a finite number: {text!r}")
        values.append(value)
    if not values:
        raise JudgeDataError(f"{path}: no scores")
    return values


def group_ids(inputs: list[str]) -> list[int]:
    """Number consecutive runs of equal inputs 0, 1, 2...; an input seen again later is an error."""
    ids: list[int] = []
    seen: dict[str, int] = {}
    for position, text in enumerate(inputs):
        if position and text == inputs[position - 1]:
            ids.append(ids[-1])
            continue
        if text in seen:
            raise JudgeDataError(
                f"response {position}: its input already appeared in group {seen[text]} "
                "(responses to one input must be adjacent)"
            )
        seen[text] = len(seen)
        ids.append(seen[text])
    return ids


def ordered_pairs(input_ids: list[int]) -> list[tuple[int, int, int]]:
    """All ordered pairs ``(input id, j, k)``, j != k, of responses sharing an input, in the
    study's order: for each input, j then k ascending (0-1, 0-2, 1-0, 1-2, 2-0, 2-1)."""
    groups: dict[int, list[int]] = {}
    for position, group in enumerate(input_ids):
        groups.setdefault(group, []).append(position)
    return [
        (group, first, second)
        for group, members in groups.items()
        for first in members
        for second in members
        if first != second
    ]


def _variant_of(directory: Path) -> str:
    for variant in VARIANTS:
        if directory.name.endswith(f"_{variant}"):
            return variant
    raise JudgeDataError(
        f"{directory}: the directory name must end in _scoring or _comparison to tell the variant"
    )


def load_released_task(directory: Path, *, variant: str | None = None) -> ReleasedTask:
    """Load one released task directory and check that every file lines up with the responses."""
    directory = Path(directory)
    if not directory.is_dir():
        raise JudgeDataError(f"{directory}: not a directory")
    variant = variant or _variant_of(directory)
    if variant not in VARIANTS:
        raise JudgeDataError(f"{directory}: unknown variant {variant!r} (scoring or comparison)")
    response_files = sorted(p for p in directory.iterdir() if RESPONSES_PATTERN.match(p.name))
    if len(response_files) != 1:
        raise JudgeDataError(
            f"{directory}: expected exactly one test-?-responded.jsonl, found {len(response_files)}"
        )
    responses = read_responses(response_files[0])
    try:
        input_ids = group_ids([r.input for r in responses])
    except JudgeDataError as exc:
        raise JudgeDataError(f"{response_files[0]}: {exc}") from None
    expected = len(responses) if variant == "scoring" else len(ordered_pairs(input_ids))
    unit = "responses" if variant == "scoring" else "ordered response pairs"

    def checked(path: Path) -> list[float]:
        values = read_score_lines(path)
        if len(values) != expected:
            raise JudgeDataError(
                f"{path}: {len(values)} lines, expected {expected} (one per {unit[:-1]})"
            )
        return values

    human_path = directory / HUMAN_FILE
    if not human_path.is_file():
        raise JudgeDataError(f"{human_path}: missing")
    task = ReleasedTask(
        name=directory.name,
        variant=variant,
        responses=responses,
        human=checked(human_path),
        files={"responses": response_files[0], "human": human_path},
    )
    for path in sorted(directory.glob("test-*.jsonl")):
        match = METHOD_FILE_PATTERN.match(path.name)
        if not match:
            continue
        name = match.group(3)
        if name not in RELEASED_METHODS:
            raise JudgeDataError(f"{path}: unknown judging method {name!r}")
        task.methods[name] = checked(path)
        task.files[name] = path
    return task
