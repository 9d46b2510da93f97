"""The ``copilot_repo_fix`` scorer: part 1's file-alone rule and the repository-level rule,
side by side, for the same edited file.

Per sample (the answer is the whole edited file):

- part 1's verdicts (:func:`seebench.suites.copilot.fix.scorer.judge`): ``syntax_ok``,
  ``fixed`` (the file alone has strictly fewer warnings), ``target_fixed``, ``new_warnings``,
  with Python's own parser as a second syntax gate (:func:`seebench.suites.copilot.fix.scorer.python_syntax_gate`), so both
  rules below share one syntax verdict;
- ``repo_fixed`` (the score's value; the paper's rule at repository level): syntax ok and the
  analyzer over the whole repository, the edited file replacing the original, reports
  strictly fewer warnings than over the unchanged repository;
- ``repo_target_reproduced``: the case's warning (rule and message) is reported on the file
  in the unchanged repository too; ``repo_target_fixed`` (only then, else ``None``): syntax
  ok and no warning of the case's rule at the target's diff-mapped place of the edited file
  in the repository run;
- ``repo_new_warnings``: some file has a (rule, message) pair more often than before;
  ``repo_other_files``: the other files whose warnings changed;
- ``disagreement``: ``file_only`` (fixed alone, not in the repository), ``repo_only`` or
  ``agree``; ``env``: which repository environment the analyzer had (or why none);
- part 1's suppression rule holds for both rules: an edit that adds an analyzer directive
  (``suppressed``) fixes nothing in the repository either, and its ``verdict`` is
  ``tampered``; otherwise ``passed`` when ``repo_fixed``, else ``failed``.

Samples whose repository tar is missing or that an analyzer could not judge are unscored
with the reason. Artifacts per sample (``copilot_repo_fix/<sample id>-<answer hash>/``): the
edited file, the diff and both rules' analyses of it.
"""

from __future__ import annotations

import difflib
import json
from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path, PurePosixPath
from typing import Any

from seebench import safe_files
from seebench.errors import SeebenchError
from seebench.scoring.core import Score, ScoreContext
from seebench.scoring.run import stable_hash
from seebench.suites.copilot.fix.analysis import Analysis, AnalysisRunner
from seebench.suites.copilot.fix.analyzers import Diagnostic
from seebench.suites.copilot.fix.cases import locate
from seebench.suites.copilot.fix.scorer import OPTIONS as FIX_OPTIONS
from seebench.suites.copilot.fix.scorer import explain, judge, new_warnings
from seebench.suites.copilot.fix.suppressions import SUPPRESSIONS_VERSION
from seebench.suites.copilot.repo_fix.pool import AnalyzerPool
from seebench.suites.copilot.repo_fix.repo_analysis import (
    RepoAnalysis,
    RepoAnalysisRunner,
    RepoJob,
)
from seebench.suites.copilot.repo_fix.repo_analyzers import EnvPaths, repo_analyzer
from seebench.suites.copilot.repo_fix.tree import analyzed_files, with_edit

#: changes when a verdict's definition changes, so cached scores are not reused
VERDICTS_VERSION = 4  # 4: part 1's suppression rule (an added directive is tampered)
OPTIONS = FIX_OPTIONS  # the same options as part 1's scorer


def repo_verdicts(
    target: Mapping[str, Any],
    file_verdicts: Mapping[str, Any],
    before: RepoAnalysis,
    after: RepoAnalysis,
) -> dict[str, Any]:
    """The repository-level verdicts of one edited file (see the module docstring)."""
    path, rule = target["file_name"], target["rule"]
    syntax_ok = bool(file_verdicts["syntax_ok"])
    suppressed = bool(file_verdicts.get("suppressed"))
    start, end = file_verdicts["target_span"]
    left = [d for d in after.of(path) if d.rule == rule and start <= d.line <= end]
    added: list[tuple[str, Diagnostic]] = []
    changed = []
    for name in sorted(set(before.files) | set(after.files)):
        old, new = before.of(name), after.of(name)
        added += [(name, d) for d in new_warnings(old, new)]
        if name != path and Counter((d.rule, d.message) for d in old) != Counter(
            (d.rule, d.message) for d in new
        ):
            changed.append(name)
    repo_fixed = syntax_ok and not suppressed and after.total < before.total
    file_fixed = bool(file_verdicts["fixed"])
    reproduced = locate(before.of(path), rule, target["message"], target["line"]) is not None
    return {
        "repo_warnings_before": before.total,
        "repo_warnings_after": after.total,
        "repo_fixed": repo_fixed,
        "repo_target_reproduced": reproduced,
        "repo_target_fixed": (syntax_ok and not suppressed and not left) if reproduced else None,
        "repo_new_warnings": bool(added),
        "repo_new_warning_list": [{"file": n, **d.as_dict()} for n, d in added[:20]],
        "repo_other_files": changed[:50],
        "disagreement": "agree"
        if file_fixed == repo_fixed
        else ("file_only" if file_fixed else "repo_only"),
        "verdict": "tampered" if suppressed else ("passed" if repo_fixed else "failed"),
    }


class RepoFixScorer:
    """Scores an edited file 1.0 when it parses and the analyzer over the whole repository
    reports strictly fewer warnings, 0.0 otherwise; part 1's file-alone verdicts and the
    disagreement between the two rules go into the metadata."""

    def __init__(self, analyzer: str, workers: int = 1) -> None:
        self.tool = repo_analyzer(analyzer)
        self.workers = workers
        self.unsafe_host_exec = False
        self._pool: AnalyzerPool | None = None
        self._files: dict[tuple[str, str], dict[str, str]] = {}

    def configure(self, run_options: dict[str, Any]) -> None:
        """Take the run's ``unsafe_host_exec`` (the ``--unsafe-host-exec`` flag)."""
        self.unsafe_host_exec = bool(run_options.get("unsafe_host_exec", False))

    def identity(self) -> dict[str, Any]:
        from seebench.suites.copilot.repo_fix.envs import (
            PYTHON_ANALYZERS,
            ready_environments_digest,
        )

        identity = {
            **self.tool.identity(),
            "sandbox": "none" if self.unsafe_host_exec else "bwrap",
            "verdicts": VERDICTS_VERSION,
            "suppressions": SUPPRESSIONS_VERSION,
        }
        if self.tool.name in PYTHON_ANALYZERS:
            identity["ready_environments"] = ready_environments_digest()
        return identity

    def score(self, sample: Any, prediction: Any, context: ScoreContext) -> Score:
        return self.score_many([(sample, prediction)], context)[0]

    def score_many(self, items: Sequence[tuple[Any, Any]], context: ScoreContext) -> list[Score]:
        """Score ``(sample, edited file)`` pairs: the file alone and the whole repository,
        before and after, each analysis cached."""
        scores: dict[int, Score] = {}
        prepared: list[tuple[int, dict[str, str], EnvPaths]] = []
        for position, (sample, prediction) in enumerate(items):
            if not isinstance(prediction, str) or not prediction.strip():
                scores[position] = Score(
                    0.0,
                    explanation="no file to analyse (invalid answer)",
                    metadata={
                        "syntax_ok": False,
                        "fixed": False,
                        "repo_fixed": False,
                        "verdict": "failed",
                    },
                )
                continue
            try:
                files, env = self._repository(sample.target)
            except SeebenchError as exc:
                scores[position] = Score(None, explanation=str(exc))
                continue
            prepared.append((position, files, env))
        if prepared:
            self._analyse(items, prepared, scores, context)
        return [scores[position] for position in range(len(items))]

    def _repository(self, target: Mapping[str, Any]) -> tuple[dict[str, str], EnvPaths]:
        """The repository's analysed files (original file in place) and its environment."""
        from seebench.data.cache import cached_file
        from seebench.suites.copilot.repo_fix.envs import env_paths
        from seebench.suites.copilot.repos.staging import StagedRepo, source_tree

        checksum = target["repo_tar_sha256"]
        tar = cached_file(checksum)
        if tar is None:
            raise SeebenchError(
                f"the tar of {target['repo']}@{target['commit'][:12]} (sha256 {checksum[:12]}...) "
                "is not in the data cache: run 'seebench data import DIR'"
            )
        repo = StagedRepo(target["repo"], target["commit"], target["language"], True, tar)
        key = (checksum, self.tool.name)
        if key not in self._files:
            try:
                tree = source_tree(repo)
            except (OSError, SeebenchError) as exc:
                raise SeebenchError(f"{repo.member}: cannot extract: {exc}") from None
            self._files[key] = analyzed_files(tree, self.tool.name)
        return self._files[key], env_paths(repo, self.tool.name)

    def _analyse(
        self,
        items: Sequence[tuple[Any, Any]],
        prepared: list[tuple[int, dict[str, str], EnvPaths]],
        scores: dict[int, Score],
        context: ScoreContext,
    ) -> None:
        if self._pool is None:
            self._pool = AnalyzerPool(self.workers, self.unsafe_host_exec)
        singles: list[tuple[str, str]] = []
        jobs: list[RepoJob] = []
        for position, files, env in prepared:
            self._pool.need(self.tool.mounts(env))
            sample, edited = items[position]
            name, original = sample.target["file_name"], sample.target["original"]
            singles += [(name, original), (name, edited)]
            jobs += [RepoJob(with_edit(files, name, original), env)]
            jobs += [RepoJob(with_edit(files, name, edited), env)]
        try:
            self.tool.check_installed()
            alone = AnalysisRunner(self.tool.tool, self._pool).analyse(singles)
            whole = RepoAnalysisRunner(self.tool, self._pool).analyse(jobs, group=self.workers)
        except SeebenchError as exc:  # a missing tool: every sample unscored, with the reason
            alone = [Analysis(error=str(exc))] * len(singles)
            whole = [RepoAnalysis(error=str(exc))] * len(jobs)
        for index, (position, _, env) in enumerate(prepared):
            sample, edited = items[position]
            scores[position] = self._score_one(
                sample,
                edited,
                env,
                (alone[2 * index], alone[2 * index + 1]),
                (whole[2 * index], whole[2 * index + 1]),
                context,
            )

    def _score_one(
        self,
        sample: Any,
        edited: str,
        env: EnvPaths,
        alone: tuple[Analysis, Analysis],
        whole: tuple[RepoAnalysis, RepoAnalysis],
        context: ScoreContext,
    ) -> Score:
        folder = self._write_artifacts(context.artifacts, sample, edited, alone, whole)
        failed = [a.error for a in (*alone, *whole) if a.error]
        if failed:
            return Score(None, explanation=failed[0], metadata={"artifacts": folder})
        verdicts = judge(sample.target, edited, *alone)  # with the Python syntax gate
        verdicts |= repo_verdicts(sample.target, verdicts, *whole)
        verdicts |= {"env": env.note, "artifacts": folder}
        explanation = None
        if not verdicts["repo_fixed"]:
            before, after = verdicts["repo_warnings_before"], verdicts["repo_warnings_after"]
            explanation = explain(verdicts, before, after, "repository: ")
        return Score(
            1.0 if verdicts["repo_fixed"] else 0.0, explanation=explanation, metadata=verdicts
        )

    def _write_artifacts(
        self,
        artifacts: Path,
        sample: Any,
        edited: str,
        alone: tuple[Analysis, Analysis],
        whole: tuple[RepoAnalysis, RepoAnalysis],
    ) -> str:
        name = f"copilot_repo_fix/{sample.id}-{stable_hash(edited, 8)}"
        folder = artifacts / name
        folder.mkdir(parents=True, exist_ok=True)
        path = sample.target["file_name"]
        diff = difflib.unified_diff(
            sample.target["original"].splitlines(keepends=True),
            edited.splitlines(keepends=True),
            f"a/{path}",
            f"b/{path}",
        )
        analysis = {
            "analyzer": self.tool.identity(),
            "target": {k: v for k, v in sample.target.items() if k != "original"},
            "file_alone": {"original": alone[0].as_dict(), "edited": alone[1].as_dict()},
            "repository": {
                label: {
                    "error": result.error,
                    "total": result.total if result.ok else None,
                    "edited_file": [d.as_dict() for d in result.of(path)],
                    "run": result.output,
                }
                for label, result in (("original", whole[0]), ("edited", whole[1]))
            },
        }
        _write(folder / f"edited-{PurePosixPath(path).name}", edited)
        _write(folder / "diff.patch", "".join(diff))
        _write(folder / "analysis.json", json.dumps(analysis, ensure_ascii=False, indent=1))
        return name

    def close(self) -> None:
        """Stop the sandbox workers (called when the unit is scored)."""
        if self._pool is not None:
            self._pool.close()
            self._pool = None


def _write(path: Path, text: str) -> None:
    safe_files.atomic_write_text(path, text)
