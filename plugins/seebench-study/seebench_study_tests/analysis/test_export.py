"""Exports round-trip: JSONL as is, CSV and Parquet one row per event."""

from __future__ import annotations

import json

import pandas as pd
import pytest
from seebench_study.analysis.events import read_events
from seebench_study.analysis.export import export_events, export_table

from seebench.errors import SeebenchError


def test_jsonl_export_round_trips(simulated_study, tmp_path):
    log = read_events(simulated_study)
    out = export_events(log.events, tmp_path / "out.jsonl")
    again = read_events(out)
    assert again.events == log.events and again.problems == []


@pytest.mark.parametrize("suffix", ["csv", "parquet"])
def test_table_exports_keep_every_event(simulated_study, tmp_path, suffix):
    log = read_events(simulated_study)
    out = export_events(log.events, tmp_path / f"out.{suffix}")
    frame = pd.read_csv(out) if suffix == "csv" else pd.read_parquet(out)
    assert len(frame) == len(log.events)
    assert frame["seq"].tolist() == [e["seq"] for e in log.events]
    assert [json.loads(d) for d in frame["data"]] == [e["data"] for e in log.events]


def test_unknown_format_names_the_file(tmp_path):
    with pytest.raises(SeebenchError, match="out.xlsx: unknown export format 'xlsx'"):
        export_table(pd.DataFrame({"a": [1]}), tmp_path / "out.xlsx")
    assert not (tmp_path / "out.xlsx").exists()
