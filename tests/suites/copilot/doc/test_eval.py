"""End to end: a doc task over a small file set of hand-made cases, null and oracle models."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from seebench.data.manage import import_directory
from seebench.plugin_manager import get_registry
from seebench.tasks.validate import load_task
from tests.cli.test_cli import run_cli
from tests.suites.copilot.doc.cases import CASES, case_json

TASK = """name: doc_mini
suite: copilot
version: 1
type: copilot_doc
language: {language}
data:
  sources:
    - name: cases
      files: cases.sha256
      format: copilot_doc
      options: {{language: {language}}}
  input: input
  target: target
split: {{method: none}}
scorers: [copilot_doc]
metrics: [doc_pass_rate, doc_syntax_rate, doc_format_rate, doc_placement_rate, doc_unchanged_rate]
prompt:
  task: Document the function.
  entity: function
"""


def _upstream(root: Path) -> dict[str, str]:
    """Case 1: Java with a Javadoc (an oracle); case 2: Java without; case 3: Python."""
    documented = CASES["java"]["answers"]["good"]
    java = "public class Maths {\n" + "\n".join("    " + line for line in documented.splitlines())
    files = {
        "data/doc/case-1/case-1.json": json.dumps({**case_json("java", 1), "line_range": [9, 14]}),
        "data/doc/case-1/case-1_file.java": java + "\n}\n",
        "data/doc/case-2/case-2.json": json.dumps(case_json("java", 2)),
        "data/doc/case-2/case-2_file.java": CASES["java"]["file"],
        "data/doc/case-3/case-3.json": json.dumps(case_json("python", 3)),
        "data/doc/case-3/case-3_file.python": CASES["python"]["file"],
    }
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    return files


def test_null_and_oracle_run_end_to_end(tmp_path, monkeypatch):
    upstream, tasks, out = tmp_path / "upstream", tmp_path / "tasks", tmp_path / "out"
    files = _upstream(upstream)
    tasks.mkdir()
    listing = [f"{hashlib.sha256(t.encode()).hexdigest()}  {n}" for n, t in sorted(files.items())]
    (tasks / "cases.sha256").write_text("\n".join(listing) + "\n")
    (tasks / "doc_mini.yaml").write_text(TASK.format(language="java"))
    env = {"SEEBENCH_HOME": str(tmp_path / "home")}
    monkeypatch.setenv("SEEBENCH_HOME", env["SEEBENCH_HOME"])
    task = load_task(tasks / "doc_mini.yaml", get_registry())
    assert len(import_directory(upstream, [task]).imported) == 6
    common = ["--tasks", "doc_mini", "--include-path", str(tasks), "--output", str(out)]
    common += ["--no-progress", "--bootstrap", "0"]
    results = {}
    for model in ("null", "oracle"):
        code, stdout, stderr = run_cli(["eval", "--model", model, *common], env=env)
        assert code == 0, stdout + stderr
        results[model] = json.loads((out / model / model / "doc_mini.json").read_text())
    # the second run read the cases back from the prepared-case cache (one file, by content)
    assert len(list((tmp_path / "home/data/prepared/copilot_doc").glob("*.json"))) == 1
    assert results["null"]["metrics"]["doc_syntax_rate"] == 1.0
    assert results["null"]["metrics"]["doc_format_rate"] == 0.0
    assert results["null"]["metrics"]["doc_unchanged_rate"] == 1.0
    # case 2 has no oracle: it is answered by nothing and fails; case 1's own Javadoc passes
    assert results["oracle"]["metrics"]["doc_pass_rate"] == 0.5
    assert results["oracle"]["metrics"]["doc_placement_rate"] == 0.5
    samples = (out / "oracle" / "oracle" / "doc_mini.samples.jsonl").read_text().splitlines()
    logs = [json.loads(line)["scores"]["copilot_doc"]["metadata"].get("log") for line in samples]
    kept = [log for log in logs if log]
    assert len(kept) == 1
    artifact = json.loads((out / "oracle" / "oracle" / "doc_mini.artifacts" / kept[0]).read_text())
    assert artifact["diff"].startswith("--- a/case-1_file.java") and "+    /**" in artifact["diff"]
