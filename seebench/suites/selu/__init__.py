"""SELU (Software Engineering Language Understanding): text cleaning, reshaping and masking.

The whole suite lives in this package: the task definitions (``tasks/``), the task families
and model groups of the paper's leaderboard (``families.json``) and the SELU-specific
preparation steps the tasks name, all registered by the plugin :mod:`seebench.suites.selu.plugin`.
"""

from seebench.suites.selu.text import clean_text

__all__ = ["clean_text"]
