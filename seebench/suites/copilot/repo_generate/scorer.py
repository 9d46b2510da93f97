"""The ``copilot_repo_generate`` scorer: the answer in place, then the tests that covered it.

Per sample, in this order:

1. ``excluded`` (unscored, counted): the item did not match the list, its repository's
   environment is not ready here (not built, failed to build), or one of its covering tests
   did not pass in this environment's baseline run.
2. ``placed`` / ``syntax_ok``: the answer goes in place of the placeholder
   (:mod:`.assembly`) and the file parses (Python: tree-sitter and CPython's parser, as part
   1's generate scenario; JavaScript / TypeScript: tree-sitter). Otherwise 0.
3. ``tests_passed``: the covering tests run on a private copy of the repository with the new
   file (repo-envs' ``run_tests``, sandbox, network off): 1 when every one of them passes,
   as it did before the change (§3.3.1, §4.2.3). A run that did not happen because the
   sandbox was unavailable is unscored.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Any

from seebench.scoring.core import Score, ScoreContext
from seebench.suites.copilot.repo_generate.assembly import place_answer

OPTIONS: dict[str, Any] = {
    "timeout_s": {
        "type": "number",
        "exclusiveMinimum": 0,
        "maximum": 3600,
        "description": "wall-clock limit of one run of an item's covering tests (seconds)",
    },
    "workers": {
        "type": "integer",
        "minimum": 1,
        "maximum": 16,
        "description": "sandbox workers of one repository's runs",
    },
}
#: sandbox verdicts that say the run could not be judged (the answer is not at fault)
UNJUDGED_VERDICTS = frozenset({"sandbox_unavailable"})


def _ensure_env(repo: Any) -> Any:
    from seebench.suites.copilot.repos.envs import ensure_env

    return ensure_env(repo, build=False)


def _run_tests(env: Any, **options: Any) -> Any:
    from seebench.suites.copilot.repos.testrun import run_tests

    return run_tests(env, **options)


@cache
def staged_repo(slug: str) -> Any:
    """The staged repository ``slug`` with its cached tar, or the reason it is not at hand."""
    from seebench.data.cache import cached_file
    from seebench.data.file_sets import read_file_list
    from seebench.suites.copilot.repos.staging import FACTS_FILE, staged_repos

    members = {m.path: m.sha256 for m in read_file_list(FACTS_FILE.with_suffix(".sha256"))}
    member = f"repos/{slug}.tar"
    if member not in members:
        return f"repository {slug} is not in the staged list"
    tar = cached_file(members[member])
    if tar is None:
        return f"{member} is not in the data cache (seebench data import)"
    return staged_repos({member: tar})[0]


def syntax_verdicts(source: str, target: dict[str, Any]) -> tuple[bool, dict[str, Any], str | None]:
    """Whether the file parses in its language, the parsers' verdicts and the first error."""
    from seebench.suites.copilot.generate.scorers import python_syntax
    from seebench.suites.copilot.languages import check_syntax
    from seebench.suites.copilot.repo_generate.methods import grammar_for

    if target["language"] == "python":
        return python_syntax(source)
    grammar = (grammar_for(target["file"]) or (target["language"],))[0]
    check = check_syntax(source, grammar)
    return check.ok, {"tree_sitter_ok": check.ok}, None if check.ok else check.message


class RepoGenerateScorer:
    """1.0 when the answer parses in place and every covering test still passes, 0.0 when it
    does not; unscored (``excluded`` in the metadata) when the item cannot be judged here."""

    def __init__(self, timeout_s: float = 600, workers: int = 1) -> None:
        self.timeout_s = float(timeout_s)
        self.workers = workers

    def identity(self) -> dict[str, Any]:
        return {"scorer": "copilot_repo_generate", "timeout_s": self.timeout_s}

    def score(self, sample: Any, prediction: Any, context: ScoreContext) -> Score:
        return self.score_many([(sample, prediction)], context)[0]

    def score_many(self, items: Sequence[tuple[Any, Any]], context: ScoreContext) -> list[Score]:
        """Score ``(sample, answer)`` pairs, the runs of one repository one after another."""
        scores: list[Score] = []
        envs: dict[str, Any] = {}
        for sample, answer in items:
            try:
                scores.append(self._score_one(sample.target, answer, envs))
            except Exception as exc:  # one broken item never stops the others
                from seebench.errors import SeebenchError

                if not isinstance(exc, SeebenchError | OSError | ValueError):
                    raise
                scores.append(Score(None, explanation=f"not scored: {exc}"))
        return scores

    def _env(self, slug: str, envs: dict[str, Any]) -> Any:
        if slug not in envs:
            repo = staged_repo(slug)
            envs[slug] = repo if isinstance(repo, str) else _ensure_env(repo)
        return envs[slug]

    def exclusion(self, target: dict[str, Any], envs: dict[str, Any]) -> tuple[Any, str | None]:
        """The item's environment and why the item cannot be judged here (``None``: it can)."""
        if target.get("excluded"):
            return None, target["excluded"]
        env = self._env(target["slug"], envs)
        if isinstance(env, str):
            return None, env
        if env.status != "ready":
            return env, f"environment {env.status}: {env.reason}"
        missing = [t for t in target["tests"] if t not in env.passing]
        if missing:
            return (
                env,
                f"{len(missing)} covering test(s) did not pass at baseline here: {missing[0]}",
            )
        return env, None

    def _score_one(self, target: dict[str, Any], answer: Any, envs: dict[str, Any]) -> Score:
        env, excluded = self.exclusion(target, envs)
        if excluded is not None:
            return Score(None, explanation=f"excluded: {excluded}", metadata={"excluded": excluded})
        built = place_answer(target, answer)
        if built.source is None:
            return Score(
                0.0, explanation=built.error, metadata={"placed": False, "syntax_ok": False}
            )
        ok, verdicts, error = syntax_verdicts(built.source, target)
        metadata: dict[str, Any] = {"placed": True, "mode": built.mode, "syntax_ok": ok, **verdicts}
        if not ok:
            return Score(0.0, explanation=f"syntax error: {error}", metadata=metadata)
        run = _run_tests(
            env,
            changes={target["file"]: built.source},
            tests=list(target["tests"]),
            timeout_s=self.timeout_s,
        )
        failed = [t for t in target["tests"] if not run.passed(t)]
        metadata.update(verdict=run.verdict, tests=len(target["tests"]), tests_failed=len(failed),
                        seconds=round(run.seconds, 2))  # fmt: skip
        if run.verdict in UNJUDGED_VERDICTS:
            reason = run.reason or run.verdict
            return Score(None, explanation=f"not run: {reason}", metadata=metadata)
        metadata["tests_passed"] = not failed
        if failed:
            detail = run.reason or f"{run.outcomes.get(failed[0], 'not run')}"
            explanation = (
                f"{len(failed)}/{len(target['tests'])} covering tests fail ({failed[0]}: {detail})"
            )
            return Score(0.0, explanation=explanation[:500], metadata=metadata)
        return Score(1.0, metadata=metadata)
