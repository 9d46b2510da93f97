"""The end-of-run table never crashes on a metric value that is not a number."""

from __future__ import annotations

import io
from types import SimpleNamespace

from rich.console import Console

from seebench.runner.progress import summary_table


def test_non_numeric_metric_values_are_shown_not_formatted():
    rows = [
        SimpleNamespace(
            model_id="m",
            method="b",
            task=f"t{i}",
            primary_metric="f1",
            metrics={"f1": value},
            n=3,
            seconds=0.1,
            status="cached",
            reason=None,
            note=None,
        )
        for i, value in enumerate(["high", [1], True, 0.5, None])
    ]
    buffer = io.StringIO()
    Console(file=buffer, width=120).print(summary_table(rows))
    text = buffer.getvalue()
    assert "'high'" in text and "[1]" in text and "True" in text and "0.5000" in text
