"""Each analyzer over a tiny hand-made repository: the files see each other (an error that
exists only because of another file is reported), and every file has an entry."""

from __future__ import annotations

import pytest

from seebench.sandbox import open_sandbox
from seebench.suites.copilot.repo_fix.repo_analysis import RepoAnalysisRunner, RepoJob
from seebench.suites.copilot.repo_fix.repo_analyzers import EnvPaths, repo_analyzer

TREES = {
    "pyright": (
        {
            "a.py": "def f(x: int) -> int:\n    return x\n",
            "pkg/b.py": "from a import f\n\nf('s')\n",
            "pkg/__init__.py": "",
        },
        "pkg/b.py",
        "reportArgumentType",
    ),
    "tsc": (
        {
            "src/a.ts": "export function f(x: string): number {\n  return x.length;\n}\n",
            "src/b.ts": "import { f } from './a';\nexport const n: number = f(1);\n",
        },
        "src/b.ts",
        "TS2345",
    ),
    "eslint": (
        {"lib/a.js": "export const a = 1;\n", "lib/b.js": "missing();\n"},
        "lib/b.js",
        "no-undef",
    ),
    "pylint": (
        {
            "pkg/__init__.py": "",
            "pkg/a.py": "def f():\n    return 1\n",
            "pkg/b.py": "from pkg import a\n\nprint(a.g())\n",
        },
        "pkg/b.py",
        "no-member",
    ),
}


@pytest.mark.parametrize("name", sorted(TREES))
def test_the_analyzer_sees_the_whole_repository(name, analyzer_ok):
    analyzer_ok(name)
    files, flagged, rule = TREES[name]
    tool = repo_analyzer(name)
    with open_sandbox(extra_mounts=tool.mounts(EnvPaths())) as sandbox:
        runner = RepoAnalysisRunner(tool, sandbox)
        [analysis] = runner.analyse([RepoJob(files)])
        assert analysis.ok, analysis.error
        assert set(files) <= set(analysis.files)
        assert [d.rule for d in analysis.of(flagged)] == [rule], analysis.files
        assert analysis.total == 1
        # the same files again come from the cache, without a sandbox run
        [again] = runner.analyse([RepoJob(dict(reversed(files.items())))])
        assert again.files == analysis.files and again.output["cached"]
        assert runner.ran == 1
