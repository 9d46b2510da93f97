"""The SELU suite's preparation steps (tasks: ``task_configs/selu/``).

Registration imports nothing heavy: steps are given as ``"module:function"`` references.
"""

from __future__ import annotations

from typing import Any

from seebench.plugin_manager import hookimpl

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
                "key": {"type": "string"}, "label": {"type": "string"},
                "indicator": {"type": "string"}, "column": {"type": "string"},
                "keep": _STRINGS, "labels": _STRING_MAP,
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
            "properties": {"mapping": _STRING_MAP, "column": {"type": "string"},
                           "outside": {"type": "string"}},
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
                "column": {"type": "string"}, "target": {"type": "string"},
                "probability": {"type": "number", "exclusiveMinimum": 0, "maximum": 1},
                "seed": {"type": "integer"}, "mask_token": {"type": "string"},
                "model": {"type": "string"}, "drop_unmasked": {"type": "boolean"},
            },
        },
    ),
}


@hookimpl
def register_prepare_steps(register) -> None:
    for name, (ref, description, schema) in STEPS.items():
        register(name, ref, description=description,
                 schema={"type": "object", "additionalProperties": False, **schema})


@hookimpl
def register_data_readers(register) -> None:
    register("text", "seebench.suites.selu.readers:read_text",
             description="A plain-text document as one row (column 'input').")
