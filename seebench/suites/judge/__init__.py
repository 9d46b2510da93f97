"""LLM-as-a-judge suite: read the released study files, reproduce its similarity metrics,
prompt and parse LLM judges honestly, and measure judge-vs-human agreement.

The source is the ISSTA'25 study "Can LLMs replace human evaluators? An empirical study of
LLM-as-a-judge in software engineering" (code translation, summarization and generation, each
in a scoring and a pairwise-comparison variant). See ``docs/tasks/judge.md``. The plugin that
registers tasks, types, metrics, methods and the ``judge-agreement`` command is
:mod:`seebench.suites.judge.plugin`.

Names are re-exported lazily, so importing one submodule (as the CLI does) stays cheap.
"""

from __future__ import annotations

import importlib
from typing import Any

_EXPORTS = {
    "CorrelationReport": "agreement",
    "correlate_per_input": "agreement",
    "correlate_pooled": "agreement",
    "score_agreement": "agreement",
    "ComparisonReport": "comparison",
    "compare_with_human": "comparison",
    "ParsedScore": "parsing",
    "ParsedVerdict": "parsing",
    "parse_score": "parsing",
    "parse_verdict": "parsing",
    "JudgeDataError": "readers",
    "ReleasedTask": "readers",
    "ResponseRecord": "readers",
    "load_released_task": "readers",
    "read_responses": "readers",
    "read_score_lines": "readers",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    if name in _EXPORTS:
        return getattr(importlib.import_module(f"{__name__}.{_EXPORTS[name]}"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
