"""The study's analysis: telemetry in, metrics, comparisons, figures and exports out.

Library use::

    from seebench_study.analysis import analyze, format_report, read_events
    analysis = analyze(read_events(Path("study.jsonl")))
    print(format_report(analysis))

``docs/study_analysis.md`` defines every metric.
"""

from seebench_study.analysis.events import EventLog, Session, read_events
from seebench_study.analysis.export import export_events, export_table
from seebench_study.analysis.metrics import condition_table, participant_table
from seebench_study.analysis.released import read_released_chat, released_chat_path
from seebench_study.analysis.released_metrics import released_chat_summary
from seebench_study.analysis.replay import replay, replay_summary
from seebench_study.analysis.report import StudyAnalysis, analyze, format_report, to_json

__all__ = [
    "EventLog",
    "Session",
    "StudyAnalysis",
    "analyze",
    "condition_table",
    "export_events",
    "export_table",
    "format_report",
    "participant_table",
    "read_events",
    "read_released_chat",
    "released_chat_path",
    "released_chat_summary",
    "replay",
    "replay_summary",
    "to_json",
]
