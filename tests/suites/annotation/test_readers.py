"""The five layouts, on small files written here, and their one-line errors."""

from __future__ import annotations

import json

import pytest

from seebench.data.dataset import DataError
from seebench.suites.annotation.layouts import read_ratings
from seebench.suites.annotation.readers import (
    read_joined,
    read_long,
    read_rater_slots,
    read_sparse_wide,
    read_wide_form,
)
from seebench.suites.annotation.scale import Scale

CLOSURE = Scale.from_config([["close", "closed"], ["open", "open"], ["unknown", "unknown"]])
BINARY = Scale.from_config([[0, "not causal"], [1, "causal"]])
SIMILARITY = Scale.from_config([[0, "different"], [1, "partly"], [2, "same"]])


def _one_line(excinfo) -> str:
    message = str(excinfo.value)
    assert "\n" not in message
    return message


def test_long_layout_groups_rows_into_items(tmp_path, likert4):
    path = tmp_path / "long.csv"
    path.write_text(
        "function_id,user_id,source,text,accurate\n"
        "10,1,reference,adds a,4\n10,2,reference,adds a,3\n10,1,baseline,adds b,2\n"
        "11,2,reference,gets c,\n"
    )
    data = read_long(
        path,
        likert4,
        "interval",
        item=["function_id", "source"],
        rater="user_id",
        rating="accurate",
        fields={"summary": "text"},
    )
    assert data.item_ids == ["10/reference", "10/baseline", "11/reference"]
    assert data.items[0].fields == {"summary": "adds a"}
    assert data.ratings == {"1": {"10/reference": 4, "10/baseline": 2}, "2": {"10/reference": 3}}
    assert data.level == "interval"


def test_long_layout_errors_name_file_row_and_column(tmp_path, likert4):
    path = tmp_path / "long.csv"
    path.write_text("function_id,user_id,accurate\n10,1,4\n11,1,7\n")
    with pytest.raises(DataError) as excinfo:
        read_long(
            path, likert4, "interval", item=["function_id"], rater="user_id", rating="accurate"
        )
    assert (
        _one_line(excinfo) == "long.csv row 2 column 'accurate': 7 is not on the scale [1, 2, 3, 4]"
    )
    with pytest.raises(DataError, match="long.csv: column 'adequate' not found"):
        read_long(
            path, likert4, "interval", item=["function_id"], rater="user_id", rating="adequate"
        )
    with pytest.raises(DataError, match="file not found"):
        read_long(tmp_path / "nope.csv", likert4, "interval", item=["a"], rater="b", rating="c")


def test_long_layout_conflicting_duplicate_is_dropped_and_reported_equal_one_counts_once(
    tmp_path, likert4
):
    path = tmp_path / "dup.csv"
    path.write_text("item,rater,score\nx,1,4\nx,1,4\ny,1,2\n")
    data = read_long(path, likert4, "ordinal", item=["item"], rater="rater", rating="score")
    assert data.ratings["1"] == {"x": 4, "y": 2}
    assert data.problems == ()
    path.write_text("item,rater,score\nx,1,4\nx,1,3\nx,1,2\ny,1,1\n")
    data = read_long(path, likert4, "ordinal", item=["item"], rater="rater", rating="score")
    assert data.ratings["1"] == {"y": 1}
    assert data.problems == (
        "dup.csv row 2 column 'score': rater '1' rated item 'x' 3 here and 4 at "
        "dup.csv row 1 column 'score'; rating dropped",
    )


def test_level_is_checked_against_the_scale(tmp_path):
    path = tmp_path / "long.csv"
    path.write_text("item,rater,label\nx,1,open\n")
    with pytest.raises(DataError, match="level 'interval' needs numeric scale values"):
        read_long(path, CLOSURE, "interval", item=["item"], rater="rater", rating="label")
    with pytest.raises(DataError, match="'categorical' is not one of"):
        read_long(path, CLOSURE, "categorical", item=["item"], rater="rater", rating="label")


def test_wide_form_reads_items_from_headers(tmp_path):
    scale = Scale.from_config([[k, str(k)] for k in range(1, 6)])
    path = tmp_path / "form.csv"
    path.write_text('rater,"Name: done\nValue: False\nType: bool",Free question?\nr1,5,2\nr2,4,\n')
    data = read_wide_form(path, scale, "interval", rater="rater")
    assert data.item_ids == ["q01", "q02"]
    assert data.items[0].fields == {"name": "done", "value": "False", "type": "bool"}
    assert data.items[1].fields == {"question": "Free question?"}
    assert data.ratings == {"r1": {"q01": 5, "q02": 2}, "r2": {"q01": 4}}
    path.write_text('rater,"Name: done"\nr1,6\n')
    with pytest.raises(DataError) as excinfo:
        read_wide_form(path, scale, "interval", rater="rater")
    assert _one_line(excinfo).startswith(
        "form.csv row 1 column q01 ('Name: done'): 6 is not on the scale"
    )


def test_sparse_wide_reads_empty_cells_as_missing(tmp_path):
    path = tmp_path / "causal.csv"
    path.write_text("Sentence,ann1,ann2,ann3\nIf A then B.,1,1,\nA car.,0,,0\nNothing,,,\n")
    data = read_sparse_wide(
        path, BINARY, "nominal", raters=["ann1", "ann2", "ann3"], fields={"sentence": "Sentence"}
    )
    assert data.item_ids == ["s1", "s2", "s3"]
    assert data.items[0].fields == {"sentence": "If A then B."}
    assert data.ratings == {"ann1": {"s1": 1, "s2": 0}, "ann2": {"s1": 1}, "ann3": {"s2": 0}}
    assert data.ratings_per_item() == {"s1": 2, "s2": 2, "s3": 0}
    path.write_text("Sentence,ann1\nx,yes\n")
    with pytest.raises(
        DataError, match=r"causal.csv row 1 column 'ann1': 'yes' is not on the scale \[0, 1\]"
    ):
        read_sparse_wide(path, BINARY, "nominal", raters=["ann1"])


def test_rater_slots_skip_missing_marker(tmp_path):
    path = tmp_path / "pairs.json"
    records = [
        {
            "pairid": "0",
            "first": {"method": "A.f()"},
            "goals": [{"rating": -1}, {"rating": 2}, {"rating": 1}],
        },
        {
            "pairid": "1",
            "first": {"method": "B.g()"},
            "goals": [{"rating": 0}, {"rating": -1}, {"rating": -1}],
        },
    ]
    path.write_text(json.dumps(records))
    data = read_rater_slots(
        path,
        SIMILARITY,
        "interval",
        criterion="goals",
        id_key="pairid",
        fields={"first_method": "first.method"},
    )
    assert data.ratings == {"r2": {"0": 2}, "r3": {"0": 1}, "r1": {"1": 0}}
    assert data.items[1].fields == {"first_method": "B.g()"}
    records[1]["goals"][0]["rating"] = 3
    path.write_text(json.dumps(records))
    with pytest.raises(
        DataError, match=r"pairs.json item 2 goals\[0\].rating: 3 is not on the scale"
    ):
        read_rater_slots(path, SIMILARITY, "interval", criterion="goals", id_key="pairid")
    with pytest.raises(DataError, match="pairs.json item 1: key 'effects' missing"):
        read_rater_slots(path, SIMILARITY, "interval", criterion="effects", id_key="pairid")
    path.write_text("{not json")
    with pytest.raises(DataError, match="pairs.json: not valid JSON"):
        read_rater_slots(path, SIMILARITY, "interval", criterion="goals", id_key="pairid")


def test_joined_files_pair_raters_on_the_key_per_group(tmp_path):
    files = {}
    for group, rows in {
        "cast": (("17", "close", "close"), ("40", "open", "unknown")),
        "dead": (("17", "open", None),),
    }.items():
        files[group] = {}
        for index, rater in enumerate(("p1", "p2")):
            path = tmp_path / f"{rater}-{group}.csv"
            lines = ["warning id,project,label"]
            lines += [
                f"{key},derby,{labels[index]}" for key, *labels in rows if labels[index] is not None
            ]
            path.write_text("\n".join(lines) + "\n")
            files[group][rater] = path
    data = read_joined(
        files, CLOSURE, "nominal", key="warning id", rating="label", fields=["project"]
    )
    assert data.item_ids == ["cast:17", "cast:40", "dead:17"]
    assert data.items[2].fields == {"group": "dead", "project": "derby"}
    assert data.ratings == {
        "p1": {"cast:17": "close", "cast:40": "open", "dead:17": "open"},
        "p2": {"cast:17": "close", "cast:40": "unknown"},
    }
    assert (
        read_ratings("joined", files, CLOSURE, "nominal", key="warning id", rating="label").ratings
        == data.ratings
    )


def test_unknown_layout_and_bad_option_are_one_line_errors(tmp_path, likert4):
    with pytest.raises(DataError, match="layout 'tall' is not one of long, wide_form"):
        read_ratings("tall", tmp_path / "x.csv", likert4, "interval")
    with pytest.raises(DataError, match="layout 'long': unknown option 'colour'"):
        read_ratings("long", tmp_path / "x.csv", likert4, "interval", colour=1)
    with pytest.raises(DataError, match="layout 'long': missing option '"):
        read_ratings("long", tmp_path / "x.csv", likert4, "interval")


def test_a_fifo_in_place_of_a_json_file_is_one_clear_error_not_a_hang(tmp_path):
    import os

    from seebench.suites.annotation.readers import json_rows

    path = tmp_path / "items.json"
    os.mkfifo(path)  # a plain open would wait for a writer forever
    with pytest.raises(DataError, match=r"items\.json.*not a regular file"):
        json_rows(path)
