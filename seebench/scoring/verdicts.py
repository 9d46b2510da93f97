"""The verdict of one sample: what happened to the model's answer, in six words.

Every code-executing scorer puts one of :data:`SAMPLE_VERDICTS` in a score's
``metadata["verdict"]``:

- ``passed``: the tests ran to the end;
- ``failed``: the tests ran and did not pass (or there was no code to run);
- ``error``: the model's code raised, crashed, ran out of memory or did not answer (a sandbox
  worker that dies during a run is the run's ``error``: the code runs with the worker's uid
  and can kill it, so such a death is never ``infra_error``);
- ``timeout``: it ran past a time limit;
- ``tampered``: it tried to change how it is judged (test infrastructure in a patch, a reply
  to a question the tests did not ask, an analyzer directive added by a fix);
- ``infra_error``: the sandbox, a worker's start, an environment build or the harness failed
  before the code ran. Such a
  sample is retried a bounded number of times (:data:`INFRA_RETRIES`) and, if it still fails,
  left unscored (value ``None``, explanation starting ``infra_error:``): it is never counted as
  the model's failure, and the result's ``unscored`` count (the end-of-run table's ``excl.``)
  shows it beside the headline number.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Any, Literal

SampleVerdict = Literal["passed", "failed", "error", "timeout", "tampered", "infra_error"]

#: The six sample verdicts, in the order tables show them.
SAMPLE_VERDICTS: tuple[str, ...] = (
    "passed",
    "failed",
    "error",
    "timeout",
    "tampered",
    "infra_error",
)
#: Further runs of a sample whose run failed for infrastructure reasons (so at most 1 + this).
INFRA_RETRIES = 2
#: The sandbox's verdicts (:data:`seebench.sandbox.VERDICTS`) as sample verdicts.
_FROM_SANDBOX = {
    "passed": "passed",
    "failed": "failed",
    "error": "error",
    "tampered": "tampered",
    "timeout": "timeout",
    "memory": "error",
    "crashed": "error",
    "sandbox_unavailable": "infra_error",
}


def from_sandbox(verdict: str) -> str:
    """The sample verdict of a sandbox run's verdict (an unknown one is ``infra_error``: the
    harness does not know what happened, so it is not the model's failure)."""
    return _FROM_SANDBOX.get(verdict, "infra_error")


def score_value(verdict: str) -> float | None:
    """1.0 for ``passed``, ``None`` (unscored) for ``infra_error``, 0.0 for the rest."""
    if verdict == "infra_error":
        return None
    return 1.0 if verdict == "passed" else 0.0


def count_verdicts(scores: Iterable[Any]) -> dict[str, int]:
    """How many of ``scores`` (objects with a ``metadata`` dict) got each sample verdict, in
    :data:`SAMPLE_VERDICTS` order; scores without a verdict are left out."""
    counts = Counter(
        (score.metadata or {}).get("verdict")
        for score in scores
        if getattr(score, "metadata", None)
    )
    return {verdict: counts[verdict] for verdict in SAMPLE_VERDICTS if counts[verdict]}
