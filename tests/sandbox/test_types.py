"""Validation of limits and requests: one clear error naming the bad value."""

from __future__ import annotations

import pytest

from seebench.sandbox import Limits, PythonProgram, SandboxRequest


def test_limits_must_be_positive():
    with pytest.raises(ValueError, match="cpu_s must be a positive number, got 0"):
        Limits(cpu_s=0)
    with pytest.raises(ValueError, match="address_space_mb"):
        Limits(memory_mb=512, address_space_mb=100)


@pytest.mark.parametrize("name", ["/etc/passwd", "../x", "a/../../b", "", "a//b", "./a"])
def test_file_names_must_stay_in_the_work_dir(name):
    with pytest.raises(ValueError, match="sandbox file name"):
        SandboxRequest(files={name: "x"}, command=["true"])


def test_exactly_one_of_command_or_program():
    with pytest.raises(ValueError, match="exactly one"):
        SandboxRequest()
    with pytest.raises(ValueError, match="exactly one"):
        SandboxRequest(command=["true"], program=PythonProgram("pass"))
    with pytest.raises(ValueError, match="non-empty list of strings"):
        SandboxRequest(command=[])


def test_env_entries_are_checked():
    with pytest.raises(ValueError, match="'A=B'"):
        SandboxRequest(command=["true"], env={"A=B": "x"})
