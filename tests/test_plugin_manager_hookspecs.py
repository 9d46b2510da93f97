"""Every hook says since when it exists (``.. versionadded:: X.Y.Z``), as the stability promise
of docs/plugins.md asks, and no hook claims a version newer than seebench's own."""

from __future__ import annotations

import re

import pytest

import seebench
from seebench import hookspecs

VERSIONADDED = re.compile(r"^\s*\.\. versionadded:: (\d+)\.(\d+)\.(\d+)\s*$", re.M)


def _version(text: str) -> tuple[int, ...]:
    return tuple(int(part) for part in text.split(".")[:3])


@pytest.mark.parametrize("name", hookspecs._all_hook_names())
def test_every_hook_has_versionadded(name: str) -> None:
    doc = getattr(hookspecs, name).__doc__ or ""
    found = VERSIONADDED.findall(doc)
    assert len(found) == 1, f"{name}: add '.. versionadded:: X.Y.Z' to its docstring"
    assert tuple(map(int, found[0])) <= _version(seebench.__version__)
