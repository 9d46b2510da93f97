"""The analyzer names the commands and the scorer's options use without importing the analyzers."""

from __future__ import annotations

from seebench.suites.copilot.fix.analyzers import ANALYZERS
from seebench.suites.copilot.fix.options import ANALYZER_NAMES, OPTIONS


def test_the_names_are_the_analyzers() -> None:
    assert tuple(ANALYZERS) == ANALYZER_NAMES
    assert OPTIONS["analyzer"]["enum"] == sorted(ANALYZERS)
