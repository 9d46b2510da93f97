"""A call in a process of its own returns its value, and says why when it fails."""

from __future__ import annotations

import math

import pytest

from seebench.errors import SeebenchError
from seebench.view.child import call_in_process


def _fails(text: str) -> None:
    raise SeebenchError(text)


def test_a_call_in_a_process_returns_its_value_or_its_error() -> None:
    assert call_in_process(math.comb, 10, 3) == 120
    with pytest.raises(ChildProcessError, match="SeebenchError: no data here"):
        call_in_process(_fails, "no data here")
