"""End to end: the workspace task over a tiny staged repository with the bm25, null and oracle
models (the prompted path is covered by the type's parser and the scorer's tests)."""

from __future__ import annotations

import hashlib
import json

from seebench.data.manage import import_directory
from seebench.plugin_manager import get_registry
from seebench.tasks.validate import load_task
from tests.cli.test_cli import run_cli
from tests.suites.copilot.workspace.repos import QUERIES, repository_tar, write_facts, write_queries

TASK = """name: workspace_mini
suite: copilot_repo
version: 1
type: copilot_workspace
data:
  sources:
    - name: repositories
      files: repos.sha256
      format: copilot_workspace_queries
      options: {{queries: {queries}, facts: {facts}}}
  prepare:
    - {{step: workspace_candidates, k: 2, retriever: bm25}}
  input: input
split: {{method: none}}
scorers: [copilot_workspace]
metrics: [workspace_mrr, workspace_mrr_jaccard, workspace_keyword_rate, workspace_candidate_recall]
prompt:
  task: Rank the snippets, then answer the question.
  entity: question
"""


def test_bm25_null_and_oracle_run_end_to_end(tmp_path, monkeypatch):
    upstream, tasks, out = tmp_path / "upstream", tmp_path / "tasks", tmp_path / "out"
    tar = repository_tar(upstream / "repos")
    tasks.mkdir()
    digest = hashlib.sha256(tar.read_bytes()).hexdigest()
    (tasks / "repos.sha256").write_text(f"{digest}  repos/{tar.name}\n")
    missing = {**QUERIES[0], "id": "tiny-elsewhere", "commit": "f" * 40}
    queries = write_queries(tmp_path / "queries.jsonl", [*QUERIES, missing])
    facts = write_facts(tmp_path / "facts.tsv")
    (tasks / "workspace_mini.yaml").write_text(TASK.format(queries=queries, facts=facts))
    env = {"SEEBENCH_HOME": str(tmp_path / "home")}
    monkeypatch.setenv("SEEBENCH_HOME", env["SEEBENCH_HOME"])
    task = load_task(tasks / "workspace_mini.yaml", get_registry())
    assert len(import_directory(upstream, [task]).imported) == 1
    common = ["--tasks", "workspace_mini", "--include-path", str(tasks), "--output", str(out)]
    common += ["--no-progress", "--bootstrap", "0"]
    results = {}
    for model, method in (("bm25", "retrieval"), ("null", "null"), ("oracle", "oracle")):
        code, stdout, stderr = run_cli(["eval", "--model", model, *common], env=env)
        assert code == 0, stdout + stderr
        results[model] = json.loads((out / model / method / "workspace_mini.json").read_text())
    bm25 = results["bm25"]["metrics"]
    assert bm25["workspace_mrr"] == 1.0 and bm25["workspace_candidate_recall"] == 1.0
    assert results["null"]["metrics"]["workspace_mrr"] == 0.0
    assert results["null"]["metrics"]["workspace_keyword_rate"] == 0.0
    assert results["oracle"]["metrics"]["workspace_mrr"] == 1.0
    assert results["oracle"]["metrics"]["workspace_mrr_jaccard"] == 1.0
    assert results["oracle"]["metrics"]["workspace_keyword_rate"] == 1.0
    lines = (out / "bm25" / "retrieval" / "workspace_mini.samples.jsonl").read_text().splitlines()
    explanations = [json.loads(x)["scores"]["copilot_workspace"].get("explanation") for x in lines]
    assert any("not staged" in (e or "") for e in explanations)  # excluded, not failed
