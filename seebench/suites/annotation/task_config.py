"""The ``annotation_ratings`` data step of an annotation task file, and reading its data.

```yaml
data:
  prepare:
  - step: annotation_ratings
    layout: long            # long | wide_form | sparse_wide | rater_slots | joined
    source: final_megafile  # the data source (by name) holding the ratings; joined: see groups
    level: interval         # nominal | ordinal | interval | ratio: required, never defaulted
    scale: [{value: 1, label: Strongly disagree}, ...]
    options: {...}          # the layout reader's options; joined: groups {group: {rater: source}}
    sample: {size: 1000, seed: 42, min_ratings: 2}   # optional seeded sample of items
    exclude: [unknown]      # optional: ratings with these values are dropped (after sampling)
model_rater: {applicable: false, reason: ...}        # whether a model can rate from the data
```
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from seebench import safe_files
from seebench.data.dataset import DataError
from seebench.suites.annotation.layouts import LAYOUTS, read_ratings
from seebench.suites.annotation.ratings import RatingData, sample_items
from seebench.suites.annotation.scale import LEVELS, Scale
from seebench.tasks.configs import task_config_dir

STEP = "annotation_ratings"

_POINT = {
    "type": "object",
    "additionalProperties": False,
    "required": ["value", "label"],
    "properties": {"value": {"type": ["integer", "number", "string"]}, "label": {"type": "string"}},
}

#: The options of the ``annotation_ratings`` step (JSON Schema).
RATINGS_STEP_SCHEMA: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "required": ["layout", "level", "scale"],
    "properties": {
        "step": {"const": STEP},
        "layout": {"enum": sorted(LAYOUTS)},
        "source": {"type": "string"},
        "level": {"enum": list(LEVELS), "description": "Level of measurement; required."},
        "scale": {"type": "array", "minItems": 2, "items": _POINT},
        "options": {"type": "object"},
        "exclude": {
            "type": "array",
            "items": {"type": ["integer", "number", "string"]},
            "description": "Scale values whose ratings are dropped after sampling (a variant "
            "such as 'excluding unknown'); the scale keeps the other values.",
        },
        "sample": {
            "type": "object",
            "additionalProperties": False,
            "required": ["size", "seed"],
            "properties": {
                "size": {"type": "integer", "minimum": 1},
                "seed": {"type": "integer"},
                "min_ratings": {"type": "integer", "minimum": 1},
            },
        },
    },
}


def check_ratings_block(block: Any, *, task: str) -> None:
    """Raise DataError with one line naming the first problem of a ``ratings`` block."""
    import jsonschema  # slow to import; the task index only needs the step's schema

    errors = sorted(
        jsonschema.Draft202012Validator(RATINGS_STEP_SCHEMA).iter_errors(block),
        key=lambda e: list(e.path),
    )
    if errors:
        error = errors[0]
        where = ".".join(["ratings", *map(str, error.path)])
        message = " ".join(error.message.split())
        raise DataError(f"task {task!r}: {where}: {message}")
    if block["layout"] != "joined" and "source" not in block:
        raise DataError(f"task {task!r}: ratings.source: required for layout {block['layout']!r}")


def _file(files: Mapping[str, Path], name: Any, *, task: str, where: str) -> Path:
    if name not in files:
        known = ", ".join(sorted(files)) or "none"
        raise DataError(f"task {task!r}: {where}: no data source named {name!r} (sources: {known})")
    return Path(files[name])


def ratings_from_config(
    block: Mapping[str, Any], files: Mapping[str, Path], *, task: str
) -> RatingData:
    """Read a task's ratings from ``files`` ({source name: local path}) as its block declares."""
    check_ratings_block(block, task=task)
    scale = Scale.from_config(list(block["scale"]), where=f"task {task!r}: ratings.scale")
    options = dict(block.get("options") or {})
    if block["layout"] == "joined":
        groups = options.pop("groups", None)
        if not isinstance(groups, Mapping) or not groups:
            raise DataError(
                f"task {task!r}: ratings.options.groups: expected {{group: {{rater: source}}}}"
            )
        source: Any = {
            group: {
                rater: _file(
                    files, name, task=task, where=f"ratings.options.groups.{group}.{rater}"
                )
                for rater, name in dict(raters).items()
            }
            for group, raters in groups.items()
        }
    else:
        source = _file(files, block["source"], task=task, where="ratings.source")
    data = read_ratings(block["layout"], source, scale, block["level"], **options)
    sample = block.get("sample")
    if sample:
        data = sample_items(
            data, sample["size"], seed=sample["seed"], min_ratings=sample.get("min_ratings", 2)
        )
    if block.get("exclude"):
        data = exclude_values(data, block["exclude"], task=task)
    return data


def exclude_values(data: RatingData, values: list[Any], *, task: str) -> RatingData:
    """``data`` without the ratings whose value is one of ``values``; the scale loses them."""
    from dataclasses import replace

    try:
        dropped = {data.scale.parse(value) for value in values}
    except ValueError as exc:
        raise DataError(f"task {task!r}: ratings.exclude: {exc}") from None
    points = [p for p in data.scale.to_config() if p["value"] not in dropped]
    if len(points) < 2:
        raise DataError(f"task {task!r}: ratings.exclude: fewer than two scale values would remain")
    ratings = {
        rater: {item: v for item, v in by_item.items() if v not in dropped}
        for rater, by_item in data.ratings.items()
    }
    return replace(data, ratings=ratings, scale=Scale.from_config(points))


#: The suite's task files.
TASK_DIR = task_config_dir("annotation")


def ratings_step(document: Mapping[str, Any], *, task: str) -> dict[str, Any]:
    """The ``annotation_ratings`` step of a task document (options only)."""
    for step in document.get("data", {}).get("prepare", []) or []:
        if step.get("step") == STEP:
            return {k: v for k, v in step.items() if k != "step"}
    raise DataError(f"task {task!r}: data.prepare has no {STEP!r} step")


def mirror_index(mirror: Path) -> dict[str, Path]:
    """{sha256: file} of a data mirror folder from its ``MANIFEST.tsv`` (path, sha256 columns)."""
    manifest = Path(mirror) / "MANIFEST.tsv"
    try:
        return {
            row["sha256"]: Path(mirror) / row["path"]
            for row in safe_files.read_rows(manifest, "\t")
        }
    except FileNotFoundError:
        raise DataError(f"{manifest}: file not found") from None
    except KeyError as exc:
        raise DataError(f"{manifest}: column {exc.args[0]!r} missing") from None


def load_task_ratings(
    name: str, mirror: Path, *, task_dir: Path = TASK_DIR, sample: bool = True
) -> RatingData:
    """Read task ``name``'s ratings with its sources taken from a local mirror by sha256 (each
    file's checksum is verified); ``sample=False`` ignores the task's item sample."""
    from seebench.data.cache import sha256_file
    from seebench.tasks.yaml_loader import load_task_document

    document = load_task_document(Path(task_dir) / f"{name}.yaml")
    index = mirror_index(mirror)
    files = {}
    for source in document.get("data", {}).get("sources", []):
        path = index.get(source.get("sha256"))
        if path is None or not path.is_file():
            raise DataError(
                f"task {name!r}: source {source.get('name')!r} (sha256 {str(source.get('sha256'))[:12]}...) is not in {mirror}"
            )
        if sha256_file(path) != source["sha256"]:
            raise DataError(f"task {name!r}: {path} does not match its sha256")
        files[source["name"]] = path
    block = ratings_step(document, task=name)
    if not sample:
        block.pop("sample", None)
    return ratings_from_config(block, files, task=name)


def task_names(task_dir: Path = TASK_DIR) -> list[str]:
    """The annotation tasks shipped in ``task_dir`` (files starting with ``_`` are bases)."""
    return sorted(p.stem for p in Path(task_dir).glob("*.yaml") if not p.name.startswith("_"))
