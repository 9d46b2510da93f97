"""Prompting generative models: SELU's base template, answer parsing, backends and a cache."""

from seebench.models.cache import ResponseCache, cache_key
from seebench.prompting.parsing import ParsedAnswer, parse_answer
from seebench.prompting.template import Prompt, build_prompt

__all__ = ["ParsedAnswer", "Prompt", "ResponseCache", "build_prompt", "cache_key", "parse_answer"]
