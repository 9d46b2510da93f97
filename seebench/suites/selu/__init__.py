"""SELU (Software Engineering Language Understanding): text cleaning, reshaping and masking.

The task definitions live in ``task_configs/selu/``; this package holds the SELU-specific
preparation steps they name, registered by the plugin :mod:`seebench.builtin.selu`.
"""

from seebench.suites.selu.text import clean_text

__all__ = ["clean_text"]
