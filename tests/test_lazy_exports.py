"""Lazy package re-exports: a name is imported when first asked for, then kept."""

from __future__ import annotations

import importlib
import sys

import pytest


def test_a_lazy_name_is_imported_on_first_use_and_kept_in_the_package():
    import seebench.data as data

    data.__dict__.pop("Sample", None)
    sample = data.Sample
    assert sample is importlib.import_module("seebench.data.dataset").Sample
    assert data.__dict__["Sample"] is sample  # the next access is a plain attribute


def test_an_unknown_name_is_an_attribute_error_naming_the_package():
    import seebench.scoring as scoring

    with pytest.raises(AttributeError, match="seebench.scoring"):
        scoring.no_such_name  # noqa: B018


def test_importing_the_package_does_not_import_what_it_re_exports():
    code = (
        "import sys, seebench.sandbox; "
        "print('seebench.sandbox.pool' in sys.modules, hasattr(seebench.sandbox, 'open_sandbox'))"
    )
    import subprocess

    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "True"]
