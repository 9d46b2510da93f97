"""The SELU suite as one plugin: its task YAMLs, preparation steps, reader and leaderboard
metadata (task families, model groups, the task types ``compare`` ranks by default).

Everything SELU-specific lives in :mod:`seebench.suites.selu`; disabling this plugin
(``SEEBENCH_DISABLE_PLUGINS=selu``) removes the suite as a whole. Registration imports
nothing heavy: steps are given as ``"module:function"`` references.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from seebench.hookspecs import RegisterFunction, RegisterSuite, RegisterTaskDir, hookimpl
from seebench.tasks.configs import task_config_dir
from seebench.tasks.yaml_loader import safe_load

_STRINGS = {"type": "array", "items": {"type": "string"}}
_STRING_MAP = {"type": "object", "additionalProperties": {"type": "string"}}

STEPS: dict[str, tuple[str, str, dict[str, Any]]] = {
    "selu_clean_text": (
        "seebench.suites.selu.text:clean_columns",
        "SELU text cleaning: mask code blocks, URLs, 40-hex hashes and @mentions; strip "
        "Markdown/HTML/Jira markup; normalise whitespace.",
        {"required": ["columns"], "properties": {"columns": _STRINGS, "strip": {"type": "string"}}},
    ),
    "selu_pivot_long": (
        "seebench.suites.selu.reshape:pivot_long_to_multilabel",
        "Long format (one row per instance x label with a 0/1 flag) to one multi-label row "
        "per instance.",
        {
            "required": ["key", "label", "indicator"],
            "properties": {
                "key": {"type": "string"},
                "label": {"type": "string"},
                "indicator": {"type": "string"},
                "column": {"type": "string"},
                "keep": _STRINGS,
                "labels": _STRING_MAP,
            },
        },
    ),
    "selu_ner_posts": (
        "seebench.suites.selu.reshape:group_ner_posts",
        "Join StackOverflowNER sentences into posts and drop the post header lines.",
        {"properties": {"starts": _STRINGS, "drop": _STRINGS}},
    ),
    "selu_entity_types": (
        "seebench.suites.selu.reshape:map_entity_types",
        "Rename or remove (map to O) entity types in BIO tag sequences.",
        {
            "required": ["mapping"],
            "properties": {
                "mapping": _STRING_MAP,
                "column": {"type": "string"},
                "outside": {"type": "string"},
            },
        },
    ),
    "selu_split_lines": (
        "seebench.suites.selu.masking:split_sentences",
        "One row per non-empty line of a text column.",
        {"properties": {"column": {"type": "string"}}},
    ),
    "selu_mask_verbs": (
        "seebench.suites.selu.masking:mask_verbs_step",
        "Mask POS-tagged verbs with a probability (spaCy); the target lists the masked words.",
        {
            "properties": {
                "column": {"type": "string"},
                "target": {"type": "string"},
                "probability": {"type": "number", "exclusiveMinimum": 0, "maximum": 1},
                "seed": {"type": "integer"},
                "mask_token": {"type": "string"},
                "model": {"type": "string"},
                "drop_unmasked": {"type": "boolean"},
            },
        },
    ),
}


@hookimpl
def register_prepare_steps(register: RegisterFunction) -> None:
    for name, (ref, description, schema) in STEPS.items():
        register(
            name,
            ref,
            description=description,
            schema={"type": "object", "additionalProperties": False, **schema},
        )


@hookimpl
def register_data_readers(register: RegisterFunction) -> None:
    register(
        "text",
        "seebench.suites.selu.readers:read_text",
        description="A plain-text document as one row (column 'input').",
    )


def suite_dir() -> Path:
    """The folder of the SELU suite package (task YAMLs in ``tasks/``, ``families.json``)."""
    from importlib import resources  # (tempfile, shutil...): not at start-up

    return Path(str(resources.files("seebench.suites.selu")))


@hookimpl
def register_task_dirs(register: RegisterTaskDir) -> None:
    register(task_config_dir("selu"), suite="selu")


@hookimpl
def register_suites(register: RegisterSuite) -> None:
    metadata = json.loads((suite_dir() / "families.json").read_text(encoding="utf-8"))
    register(
        "selu",
        description="Software Engineering Language Understanding: 22 text tasks (SELU paper).",
        task_families=metadata["task_families"],
        model_groups=metadata["model_groups"],
        # The paper ranks models on classification and regression; NER and MLM scores only
        # enter its per-type breakdown.
        compare_task_types=("binary", "multiclass", "multilabel", "regression"),
        task_groups=safe_load((suite_dir() / "groups.yaml").read_text(encoding="utf-8")),
    )
