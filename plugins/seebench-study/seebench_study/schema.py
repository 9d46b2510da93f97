"""The JSON Schema of a study definition (the YAML a study is run from)."""

from __future__ import annotations

from typing import Any

_ID = {"type": "string", "pattern": "^[A-Za-z0-9_.-]+$"}
_SURVEY_ITEM = {
    "type": "object",
    "additionalProperties": False,
    "required": ["id", "text", "kind"],
    "properties": {
        "id": _ID,
        "text": {"type": "string", "minLength": 1},
        "kind": {"enum": ["scale", "text", "choice"]},
        "min": {"type": "integer"},
        "max": {"type": "integer"},
        "low": {"type": "string"},
        "high": {"type": "string"},
        "options": {"type": "array", "items": {"type": "string"}, "minItems": 1},
        "required": {"type": "boolean"},
        "conditions": {"type": "array", "items": _ID, "minItems": 1},
        "kinds": {
            "type": "array",
            "items": {"enum": ["none", "autocomplete", "chat"]},
            "minItems": 1,
        },
        "screen": {
            "type": "array",
            "items": {"type": ["string", "integer"]},
            "minItems": 1,
        },
    },
}
_TEXT_BY_KIND = {
    "type": "object",
    "additionalProperties": False,
    "properties": {k: {"type": "string"} for k in ("all", "none", "autocomplete", "chat")},
}
_TASK_SOURCE = {
    "type": "object",
    "additionalProperties": False,
    "required": ["sha256", "format"],
    "properties": {
        "url": {"type": "string"},
        "sha256": {"type": "string", "pattern": "^[0-9a-f]{64}$"},
        "file_name": {"type": "string"},
        "format": {"enum": ["csv"]},
    },
}

#: The schema every study YAML is validated against.
STUDY_SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "additionalProperties": False,
    "required": ["name", "tasks", "task_sets", "conditions"],
    "properties": {
        "name": _ID,
        "title": {"type": "string"},
        "description": {"type": "string"},
        "instructions": {"oneOf": [{"type": "string"}, _TEXT_BY_KIND]},
        "consent": {"type": "string"},
        "completion_url": {"type": "string", "pattern": "^https://"},
        "tasks": {
            "type": "object",
            "additionalProperties": False,
            "required": ["source"],
            "properties": {
                "source": _TASK_SOURCE,
                "include": {"type": "array", "items": _ID, "minItems": 1, "uniqueItems": True},
            },
        },
        "tutorial": _ID,
        "task_sets": {
            "type": "array",
            "minItems": 1,
            "items": {"type": "array", "items": _ID, "minItems": 1, "uniqueItems": True},
        },
        "conditions": {
            "type": "array",
            "minItems": 1,
            "items": {
                "type": "object",
                "additionalProperties": False,
                "required": ["id", "kind"],
                "properties": {
                    "id": _ID,
                    "kind": {"enum": ["none", "autocomplete", "chat"]},
                    "model": {"type": "string", "minLength": 1},
                    "options": {"type": "object"},
                    "completion": {
                        "type": "object",
                        "additionalProperties": False,
                        "required": ["format"],
                        "properties": {
                            "format": {
                                "enum": [
                                    "suffix",
                                    "prefix",
                                    "codellama",
                                    "starcoder",
                                    "deepseek",
                                    "qwen",
                                ]
                            },
                            "stop": {"type": "array", "items": {"type": "string"}},
                        },
                    },
                },
            },
        },
        "session_minutes": {"type": "number", "exclusiveMinimum": 0},
        "skip_after_minutes": {"type": "number", "minimum": 0},
        "snapshot_seconds": {"type": "number", "exclusiveMinimum": 0},
        "suggestion": {
            "type": "object",
            "additionalProperties": False,
            "properties": {
                "pause_ms": {"type": "integer", "minimum": 100},
                "temperature": {"type": "number", "minimum": 0},
                "max_tokens": {
                    "type": "object",
                    "additionalProperties": False,
                    "required": ["mean", "sd", "min", "max"],
                    "properties": {
                        "mean": {"type": "number"},
                        "sd": {"type": "number", "minimum": 0},
                        "min": {"type": "integer", "minimum": 1},
                        "max": {"type": "integer", "minimum": 1},
                    },
                },
            },
        },
        "chat": {
            "type": "object",
            "additionalProperties": False,
            "properties": {
                "max_tokens": {"type": "integer", "minimum": 1},
                "temperature": {"type": "number", "minimum": 0},
                "rate_limit": {
                    "type": "object",
                    "additionalProperties": False,
                    "required": ["messages", "seconds"],
                    "properties": {
                        "messages": {"type": "integer", "minimum": 1},
                        "seconds": {"type": "number", "exclusiveMinimum": 0},
                    },
                },
            },
        },
        "completion": {
            "type": "object",
            "additionalProperties": False,
            "properties": {"min_tasks": {"type": "integer", "minimum": 0}},
        },
        "run": {
            "type": "object",
            "additionalProperties": False,
            "properties": {
                "cpu_s": {"type": "number", "exclusiveMinimum": 0},
                "wall_s": {"type": "number", "exclusiveMinimum": 0},
                "memory_mb": {"type": "integer", "minimum": 16},
                "workers": {"type": "integer", "minimum": 1, "maximum": 64},
            },
        },
        "surveys": {
            "type": "object",
            "additionalProperties": False,
            "properties": {
                "pre": {"type": "array", "items": _SURVEY_ITEM},
                "post": {"type": "array", "items": _SURVEY_ITEM},
            },
        },
    },
}
