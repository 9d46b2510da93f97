"""SELU (Software Engineering Language Understanding): text cleaning, reshaping and masking.

The whole suite lives in this package: the task definitions (``tasks/``), the task families
and model groups of the paper's leaderboard (``families.json``) and the SELU-specific
preparation steps the tasks name, all registered by the plugin :mod:`seebench.suites.selu.plugin`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from seebench.lazy_exports import lazy_exports

if TYPE_CHECKING:
    from seebench.suites.selu.text import clean_text

#: each public name and the module that defines it, imported on first use (PEP 562): a plugin
#: module of this package, imported at start-up, does not import them all
_LAZY = {
    "clean_text": "seebench.suites.selu.text",
}

__all__ = ["clean_text"]


__getattr__ = lazy_exports(__name__, _LAZY)
