"""Prompting generative models: SELU's base template, answer parsing, backends and a cache."""

from __future__ import annotations

from typing import TYPE_CHECKING

from seebench.lazy_exports import lazy_exports

if TYPE_CHECKING:
    from seebench.methods.prompting.template import Prompt, build_prompt
    from seebench.models.cache import ResponseCache, cache_key
    from seebench.tasks.parsing import ParsedAnswer, parse_answer

#: each public name and the module that defines it, imported on first use (PEP 562): a plugin
#: module of this package, imported at start-up, does not import them all
_LAZY = {
    "Prompt": "seebench.methods.prompting.template",
    "build_prompt": "seebench.methods.prompting.template",
    "ResponseCache": "seebench.models.cache",
    "cache_key": "seebench.models.cache",
    "ParsedAnswer": "seebench.tasks.parsing",
    "parse_answer": "seebench.tasks.parsing",
}

__all__ = ["ParsedAnswer", "Prompt", "ResponseCache", "build_prompt", "cache_key", "parse_answer"]


__getattr__ = lazy_exports(__name__, _LAZY)
