"""Prompting backends: local transformers generation and OpenAI-compatible HTTP servers."""

from seebench.models.backends.base import Backend, Generation

__all__ = ["Backend", "Generation"]
