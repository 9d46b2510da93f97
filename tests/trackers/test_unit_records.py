"""What trackers read of a finished unit: its result and samples, only as seebench writes them."""

from __future__ import annotations

import json

import pytest

from seebench.events import UnitFinished
from seebench.trackers import unit_record


def finished(path) -> UnitFinished:
    return UnitFinished("m", "prompting", "t", "ok", result_path=path)


def test_the_result_and_its_samples_beside_it_are_read(tmp_path):
    (tmp_path / "t.samples.jsonl").write_text('{"id": "1"}\n\n{"id": "2"}\n')
    result = tmp_path / "t.json"
    result.write_text(json.dumps({"samples_file": "t.samples.jsonl", "primary_metric": "f1"}))
    record = unit_record(finished(result))
    assert record.result["primary_metric"] == "f1"
    assert [s["id"] for s in record.samples] == ["1", "2"]


@pytest.mark.parametrize("name", ["../secret.txt", "/etc/hostname", "sub/t.jsonl", ".."])
def test_a_samples_file_elsewhere_is_never_read(tmp_path, name, caplog):
    (tmp_path / "secret.txt").write_text('{"token": "do not upload"}\n')
    (tmp_path / "out" / "sub").mkdir(parents=True)
    (tmp_path / "out" / "sub" / "t.jsonl").write_text('{"token": "do not upload"}\n')
    result = tmp_path / "out" / "t.json"
    result.write_text(json.dumps({"samples_file": name}))
    record = unit_record(finished(result))
    assert record.samples == [] and record.samples_path is None and record.result is None
    assert "is not a file name beside the result" in caplog.text


@pytest.mark.parametrize("content", ["[1, 2]", '"text"', "not json"])
def test_a_result_that_is_not_an_object_is_reported_not_raised(tmp_path, content, caplog):
    result = tmp_path / "t.json"
    result.write_text(content)
    record = unit_record(finished(result))
    assert record.result is None and record.samples == []
    assert str(result) in caplog.text


def test_a_samples_line_that_is_not_an_object_is_reported_not_raised(tmp_path, caplog):
    (tmp_path / "t.samples.jsonl").write_text('{"id": "1"}\n[1]\n')
    result = tmp_path / "t.json"
    result.write_text(json.dumps({"samples_file": "t.samples.jsonl"}))
    record = unit_record(finished(result))
    assert record.samples == [] and record.result is None
    assert "not a JSON object" in caplog.text
