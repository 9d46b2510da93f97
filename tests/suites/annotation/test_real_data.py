"""The human-human analysis on the real per-rater data (``../shared/data/annotation``).

Reproduces the human-human column of Table I of Ahmed et al. (MSR 2025) at the interval level
(``data/hh_reproduced.csv``) and documents what does not reproduce. Skipped without the mirror.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from seebench.suites.annotation.agreement import agreement_by_level, pairwise_alpha
from seebench.suites.annotation.ratings import sample_items
from seebench.suites.annotation.readers import (
    read_joined,
    read_long,
    read_rater_slots,
    read_sparse_wide,
    read_wide_form,
)
from seebench.suites.annotation.replacement import human_band
from seebench.suites.annotation.scale import Scale

SHARED = Path(__file__).resolve().parents[3] / ".." / "shared" / "data" / "annotation"
DATA = Path(__file__).resolve().parent / "data"

pytestmark = pytest.mark.skipif(not SHARED.is_dir(), reason="no ../shared/data/annotation mirror")

LIKERT4 = Scale.from_config(
    [[1, "Strongly disagree"], [2, "Disagree"], [3, "Agree"], [4, "Strongly agree"]]
)
LIKERT5 = Scale.from_config([[k, str(k)] for k in range(1, 6)])
SESAME = Scale.from_config([[0, "not similar"], [1, "partly similar"], [2, "similar"]])
BINARY = Scale.from_config([[0, "no causal relation"], [1, "causal relation"]])
CLOSURE = Scale.from_config([["close", "closed"], ["open", "open"], ["unknown", "unknown"]])
SUMMARY_COLUMN = {
    "accuracy": "accurate",
    "adequacy": "adequate",
    "conciseness": "concise",
    "similarity": "similarity",
}
CAUSALITY_RATERS = ["jfr", "jannik", "MaxK", "student1", "student2", "arjen"]


def summarization(task: str):
    return read_long(
        SHARED / "code_summarization" / "final_megafile.csv",
        LIKERT4,
        "interval",
        item=["function_id", "source"],
        rater="user_id",
        rating=SUMMARY_COLUMN[task],
        fields={"summary": "text", "other_summary": "text.1"},
    )


def sesame(criterion: str):
    return read_rater_slots(
        SHARED / "semantic_similarity" / "dataset-unfiltered.json",
        SESAME,
        "interval",
        criterion=criterion,
        id_key="pairid",
        fields={"first": "first.method", "second": "second.method"},
    )


def warning_files() -> dict[str, dict[str, Path]]:
    folder = SHARED / "static_analysis_warnings"
    groups = {}
    for first in sorted(folder.glob("p1-data_original_*_labelling.csv")):
        group = first.name.removeprefix("p1-data_original_").removesuffix("_labelling.csv")
        second = folder / f"p2-labelled-original-{group}.csv"
        if not second.exists():  # the one category whose name differs by a plural s
            second = folder / f"p2-labelled-original-{group.removesuffix('s')}.csv"
        groups[group] = {"p1": first, "p2": second}
    return groups


def _published() -> dict[str, tuple[float, float]]:
    table = pd.read_csv(DATA / "table_i.csv", comment="#")
    return {row.task: (row.hh_mean, row.hh_median) for row in table.itertuples()}


REPRODUCED = pd.read_csv(DATA / "hh_reproduced.csv", comment="#")


@pytest.mark.parametrize("row", list(REPRODUCED.itertuples()), ids=list(REPRODUCED["task"]))
def test_human_human_alpha_on_the_public_data(row):
    data = summarization(row.task) if row.task in SUMMARY_COLUMN else sesame(row.task)
    zone = pairwise_alpha(data, row.level).zones()["HH"]
    assert zone["mean"] == pytest.approx(row.hh_mean, abs=0.0005)
    assert zone["median"] == pytest.approx(row.hh_median, abs=0.0005)
    paper_mean, paper_median = _published()[row.task]
    difference = max(abs(zone["mean"] - paper_mean), abs(zone["median"] - paper_median))
    assert difference <= row.table_i_diff_at_most
    if row.reproduces == "no":
        assert difference > 0.05


def test_nominal_alpha_is_far_below_the_published_values():
    """The paper calls its alpha categorical, but nominal alpha is 2-6x below Table I."""
    for task in ("adequacy", "conciseness", "similarity"):
        matrices = agreement_by_level(summarization(task))
        nominal = matrices["nominal"].zones()["HH"]["mean"]
        interval = matrices["interval"].zones()["HH"]["mean"]
        assert 1.9 <= interval / nominal <= 7


def test_code_summarization_design():
    data = summarization("accuracy")
    summary = data.summary()
    assert summary["items"] == 420 and summary["raters"] == 6
    assert summary["ratings_per_item"] == {"min": 3, "max": 3}
    assert set(summary["ratings_per_rater"].values()) == {210}


def test_name_value_design_and_its_agreement():
    data = read_wide_form(
        SHARED / "name_value_inconsistency" / "ratings_anonymized.DERIVED.csv",
        LIKERT5,
        "interval",
        rater="rater",
    )
    summary = data.summary()
    assert summary["items"] == 40 and summary["raters"] == 11
    assert summary["ratings_per_item"] == {"min": 11, "max": 11}
    assert {"name": "name", "value": "2.5", "type": "float"} in [item.fields for item in data.items]
    hh = pairwise_alpha(data, "interval").zones()["HH"]
    # Table I says 0.52 / 0.52; the public (anonymised) ratings give 0.555 / 0.559 at interval
    assert (round(hh["mean"], 3), round(hh["median"], 3)) == (0.555, 0.559)


def test_causality_design_and_seeded_sample():
    data = read_sparse_wide(
        SHARED / "causality" / "annotation_causal.csv",
        BINARY,
        "nominal",
        raters=CAUSALITY_RATERS,
        fields={"sentence": "Sentence"},
    )
    per_item = data.ratings_per_item()
    assert len(per_item) == 14983 and sum(n == 2 for n in per_item.values()) == 3000
    hh = pairwise_alpha(data, "nominal").zones()["HH"]
    assert hh["pairs"] == 7  # jannik and arjen share one sentence only: alpha undefined
    assert (round(hh["mean"], 3), round(hh["median"], 3)) == (0.447, 0.491)  # Table I: 0.44 / 0.49
    sample = sample_items(data, 1000, seed=42)
    assert len(sample.items) == 1000
    assert set(sample.ratings_per_item().values()) == {2}
    assert sample.item_ids == sample_items(data, 1000, seed=42).item_ids


def test_sesame_design():
    data = sesame("goals")
    counts = data.ratings_per_item()
    assert len(counts) == 900 and len(data.raters) == 8
    assert max(counts.values()) == 3


def test_static_analysis_warnings_join():
    data = read_joined(
        warning_files(),
        CLOSURE,
        "nominal",
        key="warning id",
        rating="label",
        fields=["project", "bug_pattern"],
    )
    counts = data.ratings_per_item()
    assert len(warning_files()) == 15
    # the paper says 1,306; the switch files list each warning twice, and each rater's two
    # labels contradict each other for one warning: those ratings are dropped and reported
    assert sum(n == 2 for n in counts.values()) == 1303
    assert [p.split("item ")[1].split(" ")[0] for p in data.problems] == [
        "'switch:431'",
        "'switch:615'",
    ]
    hh = pairwise_alpha(data, "nominal").zones()["HH"]
    assert round(hh["mean"], 3) == 0.826  # Table I: 0.80 on the paper's unknown 200-item sample


def test_human_band_on_similarity():
    band = human_band(summarization("similarity"), "interval", repetitions=100, seed=0)
    assert band.low < band.estimate < band.high
    assert band.estimate == pytest.approx(0.641, abs=0.0005)
