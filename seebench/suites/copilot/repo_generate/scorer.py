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
   as it did before the change (§3.3.1, §4.2.3), and the run itself is a pass (pytest's own
   end of session, its exit status: see ``docs/sandbox.md``, "Repository suites"; a jest or
   mocha run, which runs whole files, may fail only tests that failed at baseline too:
   ``repos.baseline_rule``, counted in ``baseline_failures``). A run
   that did not happen because the sandbox was unavailable is unscored; one refused or
   caught for touching the test infrastructure scores 0 with ``tampered`` in its metadata
   (counted apart by ``repo_generate_tampered``).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Any

from seebench.scoring.core import Score, ScoreContext
from seebench.suites.copilot.repo_generate.assembly import place_answer
from seebench.suites.copilot.repo_generate.options import OPTIONS  # noqa: F401  (its options)
from seebench.suites.copilot.repos.integrity import TAMPERED

#: sandbox verdicts that say the run could not be judged (the answer is not at fault)
UNJUDGED_VERDICTS = frozenset({"sandbox_unavailable"})


def _ensure_env(repo: Any) -> Any:
    from seebench.suites.copilot.repos.envs import ensure_env

    return ensure_env(repo, build=False)


def _run_tests(env: Any, **options: Any) -> Any:
    from seebench.suites.copilot.repos.testrun import run_tests

    return run_tests(env, **options)


def _open_sandbox(env: Any) -> Any:
    from seebench.suites.copilot.repos.testrun import open_repo_sandbox

    return open_repo_sandbox([env])


def _item_errors() -> tuple[type[Exception], ...]:
    from seebench.errors import SeebenchError

    return (SeebenchError, OSError, ValueError)


_ITEM_ERRORS = _item_errors()


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

    def __init__(self, timeout_s: float = 600) -> None:
        self.timeout_s = float(timeout_s)

    def identity(self) -> dict[str, Any]:
        # version 2: tamper-evident runs (verdict tampered, the run's own pass required)
        # version 3: whole-file runners (jest, mocha...) pass a run whose only failures are
        # the environment's baseline failures (repos.baseline_rule); node without Wasm traps
        return {"scorer": "copilot_repo_generate", "version": 3, "timeout_s": self.timeout_s}

    def score(self, sample: Any, prediction: Any, context: ScoreContext) -> Score:
        return self.score_many([(sample, prediction)], context)[0]

    def score_many(self, items: Sequence[tuple[Any, Any]], context: ScoreContext) -> list[Score]:
        """Score ``(sample, answer)`` pairs; the runs of one repository share a sandbox."""
        scores: list[Score | None] = [None] * len(items)
        envs: dict[str, Any] = {}
        runs: dict[str, list[tuple[int, dict[str, Any], str, dict[str, Any]]]] = {}
        for index, (sample, answer) in enumerate(items):
            try:
                prepared = self._prepare(sample.target, answer, envs)
            except _ITEM_ERRORS as exc:  # one broken item never stops the others
                prepared = Score(None, explanation=f"not scored: {exc}")
            if isinstance(prepared, Score):
                scores[index] = prepared
            else:
                runs.setdefault(sample.target["slug"], []).append((index, sample.target, *prepared))
        for slug, group in runs.items():
            self._run_group(envs[slug], group, scores)
        return [s if s is not None else Score(None, explanation="not scored") for s in scores]

    def _env(self, slug: str, envs: dict[str, Any]) -> Any:
        if slug not in envs:
            repo = staged_repo(slug)
            envs[slug] = repo if isinstance(repo, str) else _ensure_env(repo)
        return envs[slug]

    def exclusion(self, target: dict[str, Any], envs: dict[str, Any]) -> str | None:
        """Why the item cannot be judged here (``None``: it can)."""
        if target.get("excluded"):
            return target["excluded"]
        env = self._env(target["slug"], envs)
        if isinstance(env, str):
            return env
        if env.status != "ready":
            return f"environment {env.status}: {env.reason}"
        missing = [t for t in target["tests"] if t not in env.passing]
        if missing:
            return f"{len(missing)} covering test(s) did not pass at baseline here: {missing[0]}"
        return None

    def _prepare(
        self, target: dict[str, Any], answer: Any, envs: dict[str, Any]
    ) -> Score | tuple[str, dict[str, Any]]:
        """The final score of an item that needs no test run, else (file, metadata)."""
        excluded = self.exclusion(target, envs)
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
        return built.source, metadata

    def _run_group(self, env: Any, group: list, scores: list[Score | None]) -> None:
        """Run the covering tests of one repository's items in one sandbox."""
        try:
            with _open_sandbox(env) as box:
                for index, target, source, metadata in group:
                    try:
                        scores[index] = self._judge(env, target, source, metadata, box)
                    except _ITEM_ERRORS as exc:
                        scores[index] = Score(
                            None, explanation=f"not run: {exc}", metadata=metadata
                        )
        except _ITEM_ERRORS as exc:  # no sandbox: the rest of the group is unscored
            for index, _, _, metadata in group:
                if scores[index] is None:
                    scores[index] = Score(None, explanation=f"not run: {exc}", metadata=metadata)

    def _judge(
        self, env: Any, target: dict[str, Any], source: str, metadata: dict[str, Any], box: Any
    ) -> Score:
        run = _run_tests(
            env,
            changes={target["file"]: source},
            tests=list(target["tests"]),
            timeout_s=self.timeout_s,
            sandbox=box,
        )
        failed = [t for t in target["tests"] if not run.passed(t)]
        metadata = {**metadata, "verdict": run.verdict, "tests": len(target["tests"]),
                    "tests_failed": len(failed), "seconds": round(run.seconds, 2),
                    "baseline_failures": len(run.baseline_failures)}  # fmt: skip
        if run.verdict in UNJUDGED_VERDICTS:
            return Score(
                None, explanation=f"not run: {run.reason or run.verdict}", metadata=metadata
            )
        metadata["tests_passed"] = not failed and run.verdict == "passed"
        if run.verdict == TAMPERED:
            metadata.update(tampered=True, tests_passed=False)
            return Score(0.0, explanation=f"tampered: {run.reason}"[:500], metadata=metadata)
        if failed:
            detail = run.reason or run.outcomes.get(failed[0], "not run")
            explanation = (
                f"{len(failed)}/{len(target['tests'])} covering tests fail ({failed[0]}: {detail})"
            )
            return Score(0.0, explanation=explanation[:500], metadata=metadata)
        if run.verdict != "passed":
            explanation = f"the run did not pass ({run.verdict}): {run.reason}"
            return Score(0.0, explanation=explanation[:500], metadata=metadata)
        return Score(1.0, metadata=metadata)
