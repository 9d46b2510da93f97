"""The study analysis as one object, a text report, a JSON document and figures."""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from seebench_study.analysis.attempts import Attempt
from seebench_study.analysis.events import EventLog
from seebench_study.analysis.exclusions import Exclusions, apply_exclusions
from seebench_study.analysis.figures import acceptance_figure, chat_histograms, delta_figure
from seebench_study.analysis.metrics import OUTCOMES, condition_table, participant_table
from seebench_study.analysis.stats import compare_with_control
from seebench_study.analysis.suggestions import Suggestion
from seebench_study.analysis.surveys import choice_table, scale_table, survey_answers

#: Columns of the condition table shown in the text report (name in report, column).
REPORT_COLUMNS = [
    ("n", "participants"),
    ("tasks done", "tasks_completed"),
    ("time to success s", "time_to_success_s"),
    ("shown", "suggestions_shown"),
    ("accept", "pooled_acceptance_rate"),
    ("accept req.", "pooled_acceptance_rate_requested"),
    ("accept auto", "pooled_acceptance_rate_auto"),
    ("survival", "accepted_survival"),
    ("typed out", "typed_out_acceptances"),
    ("msgs", "chat_messages"),
    ("copy rate", "pooled_copy_rate"),
    ("msgs/task", "pooled_messages_per_task"),
    ("chars/msg", "pooled_chars_per_message"),
]


@dataclass
class StudyAnalysis:
    """Everything computed from one event log."""

    log: EventLog
    participants: pd.DataFrame
    conditions: pd.DataFrame
    comparison: pd.DataFrame
    attempts: list[Attempt]
    suggestions: list[Suggestion]
    exclusions: Exclusions | None = None
    survey_scales: pd.DataFrame | None = None
    survey_choices: pd.DataFrame | None = None


def analyze(
    log: EventLog, *, resamples: int = 2000, seed: int = 0, exclude: tuple[str, ...] = ()
) -> StudyAnalysis:
    """Participant and condition metrics, the comparison with the no-LLM condition and the
    survey tables, over the sessions the ``exclude`` rules keep (:mod:`.exclusions`)."""
    log, exclusions = apply_exclusions(log, exclude)
    answers = survey_answers(log)
    scales, choices = scale_table(answers), choice_table(answers)
    participants, attempts, suggestions = participant_table(log)
    if participants.empty:
        return StudyAnalysis(
            log, participants, pd.DataFrame(), pd.DataFrame(), [], [], exclusions, scales, choices
        )
    conditions = condition_table(participants)
    comparison = compare_with_control(participants, OUTCOMES, resamples=resamples, seed=seed)
    return StudyAnalysis(
        log,
        participants,
        conditions,
        comparison,
        attempts,
        suggestions,
        exclusions,
        scales,
        choices,
    )


def _cell(value: Any) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "-"
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e9:
        return str(int(value))
    if isinstance(value, float):
        return f"{value:.3f}" if abs(value) < 10 else f"{value:.1f}"
    return str(value)


def _pvalue(value: float) -> str:
    return "-" if value is None or math.isnan(value) else f"{value:.2g}"


def markdown_table(header: list[str], rows: list[list[Any]]) -> str:
    """A Markdown table; NaN and None cells print as ``-``."""
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(_cell(v) for v in row) + " |" for row in rows]
    return "\n".join(lines)


def format_report(analysis: StudyAnalysis) -> str:
    """The metrics table per condition and the comparison table, as Markdown."""
    header = [analysis.exclusions.summary()] if analysis.exclusions else []
    if analysis.participants.empty:
        return "\n".join([*header, f"{analysis.log.source}: no sessions"])
    parts = [
        *header,
        f"{len(analysis.participants)} sessions, {len(analysis.attempts)} task attempts, "
        f"{sum(s.shown for s in analysis.suggestions)} suggestions shown "
        f"(from {analysis.log.source})",
        "",
        markdown_table(
            ["condition", "kind"] + [name for name, _ in REPORT_COLUMNS],
            [
                [row["condition"], row["kind"]] + [row[column] for _, column in REPORT_COLUMNS]
                for _, row in analysis.conditions.iterrows()
            ],
        ),
    ]
    if analysis.comparison.empty:
        parts += ["", "no no-LLM condition (kind 'none'): no deltas"]
    else:
        parts += [
            "",
            "Difference from the no-LLM condition (participant means; 95% percentile bootstrap "
            "CI; OLS p-values, Benjamini-Hochberg corrected over all rows):",
            "",
            markdown_table(
                ["metric", "condition", "n", "delta", "CI low", "CI high", "p", "p BH", "sig."],
                [
                    [
                        r.metric,
                        r.condition,
                        r.n,
                        r.delta,
                        r.ci_low,
                        r.ci_high,
                        _pvalue(r.p),
                        _pvalue(r.p_bh),
                        "yes" if r.significant else "no",
                    ]
                    for r in analysis.comparison.itertuples()
                ],
            ),
        ]
    parts += survey_sections(analysis)
    return "\n".join(parts)


def survey_sections(analysis: StudyAnalysis) -> list[str]:
    """The survey tables as Markdown: scale items by condition, then background answers."""
    parts: list[str] = []
    scales = analysis.survey_scales
    if scales is not None and not scales.empty:
        conditions = sorted({str(c) for c in scales["condition"]})
        rows = []
        for item, group in scales.groupby("item", sort=True):
            cells = {str(r.condition): r for r in group.itertuples()}
            row: list[Any] = [item]
            for condition in conditions:
                r = cells.get(condition)
                row.append("-" if r is None else f"{_cell(r.mean)} ({_cell(r.sd)}, n={r.n})")
            rows.append(row)
        parts += [
            "",
            "Survey scales by condition: mean (sd, n); raw_tlx is the mean of the tlx_ items:",
            "",
            markdown_table(["item", *conditions], rows),
        ]
    choices = analysis.survey_choices
    if choices is not None and not choices.empty:
        parts += [
            "",
            "Background answers (pre-survey) by condition:",
            "",
            markdown_table(
                ["item", "answer", "condition", "n"],
                [[r.item, r.answer, r.condition, r.n] for r in choices.itertuples()],
            ),
        ]
    return parts


def _records(frame: pd.DataFrame) -> list[dict[str, Any]]:
    return json.loads(frame.to_json(orient="records")) if not frame.empty else []


def to_json(analysis: StudyAnalysis) -> dict[str, Any]:
    """The analysis as a JSON-ready document (NaN becomes null)."""
    public = [c for c in analysis.participants.columns if not c.startswith("_")]
    return {
        "source": analysis.log.source,
        "problems": analysis.log.problems,
        "participants": _records(analysis.participants[public]) if public else [],
        "conditions": _records(analysis.conditions),
        "comparison": _records(analysis.comparison),
        "exclusions": analysis.exclusions.to_json() if analysis.exclusions else None,
        "survey_scales": _records(analysis.survey_scales)
        if analysis.survey_scales is not None
        else [],
    }


def write_figures(analysis: StudyAnalysis, directory: Path) -> list[Path]:
    """Write the figures that have data (PNG) into ``directory``; returns their paths."""
    directory.mkdir(parents=True, exist_ok=True)
    written = [
        delta_figure(analysis.comparison, directory / "deltas_vs_no_llm.png"),
        acceptance_figure(analysis.conditions, directory / "acceptance_requested_vs_auto.png")
        if not analysis.conditions.empty
        else None,
    ]
    per_task = [
        n
        for a in analysis.attempts
        if (n := sum(e["type"] == "chat_user_message" for e in a.events))
    ]
    lengths = [
        len(e["data"]["text"])
        for a in analysis.attempts
        for e in a.of_type("chat_user_message")
        if isinstance(e["data"].get("text"), str)
    ]
    written.append(chat_histograms(per_task, lengths, directory / "chat_messages.png"))
    return [p for p in written if p is not None]
