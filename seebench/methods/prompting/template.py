"""The SELU base template moved to :mod:`seebench.models.template` (``loglik`` shares it);
the names stay importable from here."""

from seebench.models.template import (
    SEPARATOR,
    Prompt,
    answer_format,
    answer_name,
    build_prompt,
    build_prompts,
    default_answer_format,
    entity_name,
    examples_section,
    format_target,
    instruction,
    label_definitions,
    max_new_tokens,
    shots_for,
    verb,
)

__all__ = [
    "SEPARATOR",
    "Prompt",
    "answer_format",
    "answer_name",
    "build_prompt",
    "build_prompts",
    "default_answer_format",
    "entity_name",
    "examples_section",
    "format_target",
    "instruction",
    "label_definitions",
    "max_new_tokens",
    "shots_for",
    "verb",
]
