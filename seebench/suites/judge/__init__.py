"""LLM-as-a-judge suite: read the released study files, reproduce its similarity metrics,
prompt and parse LLM judges honestly, and measure judge-vs-human agreement.

The source is the ISSTA'25 study "Can LLMs replace human evaluators? An empirical study of
LLM-as-a-judge in software engineering" (code translation, summarization and generation, each
in a scoring and a pairwise-comparison variant). See ``docs/tasks/judge.md``.
"""

from seebench.suites.judge.agreement import (
    CorrelationReport,
    correlate_per_input,
    correlate_pooled,
    score_agreement,
)
from seebench.suites.judge.comparison import ComparisonReport, compare_with_human
from seebench.suites.judge.parsing import ParsedScore, ParsedVerdict, parse_score, parse_verdict
from seebench.suites.judge.readers import (
    JudgeDataError,
    ReleasedTask,
    ResponseRecord,
    load_released_task,
    read_responses,
    read_score_lines,
)

__all__ = [
    "ComparisonReport",
    "CorrelationReport",
    "JudgeDataError",
    "ParsedScore",
    "ParsedVerdict",
    "ReleasedTask",
    "ResponseRecord",
    "compare_with_human",
    "correlate_per_input",
    "correlate_pooled",
    "load_released_task",
    "parse_score",
    "parse_verdict",
    "read_responses",
    "read_score_lines",
    "score_agreement",
]
