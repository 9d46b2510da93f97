"""Prompting generative models: SELU's base template, answer parsing, backends and a cache."""

from seebench.methods.prompting.template import Prompt, build_prompt
from seebench.models.cache import ResponseCache, cache_key
from seebench.tasks.parsing import ParsedAnswer, parse_answer

__all__ = ["ParsedAnswer", "Prompt", "ResponseCache", "build_prompt", "cache_key", "parse_answer"]
