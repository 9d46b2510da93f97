"""Which fix cases reproduce: the case's warning on its whole file, analysed alone.

Only reproducing cases become samples; the others are counted and listed with their reason
(``seebench copilot fix-cases``). The analyses are cached by (analyzer identity, file name,
content) in the data cache, so the verdicts are computed once.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from seebench.errors import SeebenchError
from seebench.suites.copilot.fix.analysis import AnalysisRunner
from seebench.suites.copilot.fix.analyzers import Analyzer, analyzer
from seebench.suites.copilot.fix.cases import is_artefact, locate

#: verdicts, in report order; only ``reproduced`` cases are evaluated
VERDICTS = ("reproduced", "artefact", "not_reproduced", "no_file", "analyzer_error")


@dataclass(frozen=True)
class Verdict:
    """Whether one case reproduces, and where its target warning is."""

    case_id: str
    verdict: str
    reason: str = ""
    line: int | None = None
    warnings: int | None = None


def open_analyzer_sandbox(tool: Analyzer, workers: int = 2, unsafe_host_exec: bool = False) -> Any:
    """A sandbox pool that shows ``tool``'s tools folder (read-only)."""
    from seebench.sandbox import open_sandbox

    return open_sandbox(
        workers=workers, unsafe_host_exec=unsafe_host_exec, extra_mounts=tool.mounts()
    )


class LazySandbox:
    """Opens the sandbox on the first run only (cached analyses need none)."""

    def __init__(self, tool: Analyzer, workers: int = 2, unsafe_host_exec: bool = False) -> None:
        self.tool, self.workers, self.unsafe = tool, workers, unsafe_host_exec
        self._sandbox: Any = None

    def _get(self) -> Any:
        if self._sandbox is None:
            self.tool.check_installed()
            self._sandbox = open_analyzer_sandbox(self.tool, self.workers, self.unsafe)
        return self._sandbox

    @property
    def available(self) -> bool:
        return bool(self._get().available)

    @property
    def reason(self) -> str:
        return str(getattr(self._get(), "reason", ""))

    def run_many(self, requests: list[Any]) -> list[Any]:
        return self._get().run_many(requests)

    def close(self) -> None:
        if self._sandbox is not None:
            self._sandbox.close()
            self._sandbox = None


def case_verdicts(
    rows: Sequence[dict[str, Any]], runner: AnalysisRunner | None = None
) -> list[Verdict]:
    """The verdict of each row (all rows of one analyzer) of the ``copilot_fix`` reader."""
    if not rows:
        return []
    names = {r["analyzer"] for r in rows}
    if len(names) != 1:
        raise SeebenchError(f"fix cases of several analyzers in one call: {sorted(names)}")
    tool = analyzer(names.pop())
    sandbox = None
    if runner is None:
        sandbox = LazySandbox(tool)
        runner = AnalysisRunner(tool, sandbox)
    try:
        with_file = [r for r in rows if r.get("file") is not None]
        analyses = runner.analyse([(r["file_path"], r["file"]) for r in with_file])
    finally:
        if sandbox is not None:
            sandbox.close()
    by_case = {r["case_id"]: a for r, a in zip(with_file, analyses, strict=True)}
    verdicts = []
    for row in rows:
        case = row["case_id"]
        if row.get("file") is None:
            verdicts.append(Verdict(case, "no_file", row.get("file_error") or "no file"))
            continue
        analysis = by_case[case]
        if not analysis.ok:
            verdicts.append(Verdict(case, "analyzer_error", analysis.error or ""))
            continue
        target = locate(analysis.diagnostics, row["rule"], row["message"], row["recorded_line"])
        count = len(analysis.diagnostics)
        if target is None:
            reason = f"no {row['rule']} warning with the case's message among {count}"
            verdicts.append(Verdict(case, "not_reproduced", reason, warnings=count))
        elif is_artefact(row["analyzer"], row["message"]):
            reason = "eslint 'rule definition not found': a missing plugin, not a bug"
            verdicts.append(Verdict(case, "artefact", reason, target.line, count))
        else:
            verdicts.append(Verdict(case, "reproduced", "", target.line, count))
    return verdicts


def verdict_counts(verdicts: Sequence[Verdict]) -> dict[str, int]:
    counts = Counter(v.verdict for v in verdicts)
    return {name: counts.get(name, 0) for name in VERDICTS}
