"""The file-alone analysis cache: keyed by analyzer identity, file name and content; what is
read back is checked; a file given twice in one call is analysed once.

A stand-in analyzer (one warning per line holding ``BAD``) and a stand-in sandbox that counts
the files it was asked to analyse replace the real tools, so only the runner's contract is
tested here (the real analyzers are tested in ``test_analyzers.py``).
"""

from __future__ import annotations

import json
from types import SimpleNamespace
from typing import Any

from seebench.suites.copilot.fix.analysis import AnalysisRunner, cache_folder, entry_key
from seebench.suites.copilot.fix.analyzers import Analyzer, Diagnostic


class CountingAnalyzer(Analyzer):
    """Reports rule ``bad`` on each line containing ``BAD``; its version is settable."""

    name = "counting"
    language = "python"
    batch_size = 3

    def __init__(self, version: str = "1") -> None:
        self.version = version

    def settings(self) -> Any:
        return {"marker": "BAD"}

    def versions(self) -> dict[str, str]:
        return {"counting": self.version}

    def request(self, batch: dict[str, str]) -> Any:
        return dict(batch)

    def parse(self, stdout: str, names: list[str]) -> dict[str, list[Diagnostic]]:
        data = json.loads(stdout)
        return {
            name: [Diagnostic("bad", "bad line", line) for line in data[name]] for name in names
        }


class CountingSandbox:
    """Runs the stand-in analyzer on the host, counting the files it analysed."""

    available = True
    reason = ""

    def __init__(self) -> None:
        self.analysed: list[str] = []
        self.batch_sizes: list[int] = []

    def run_many(self, requests: list[dict[str, str]]) -> list[Any]:
        results = []
        for batch in requests:
            self.analysed += [content for content in batch.values()]
            self.batch_sizes.append(len(batch))
            found = {
                name: [n for n, line in enumerate(content.splitlines(), 1) if "BAD" in line]
                for name, content in batch.items()
            }
            results.append(
                SimpleNamespace(
                    verdict="passed",
                    exit_code=0,
                    stdout=json.dumps(found),
                    stderr="",
                    cpu_s=0.0,
                    reason="",
                )
            )
        return results


def _rules(analyses) -> list[list[int]]:
    return [[d.line for d in a.diagnostics] for a in analyses]


def test_a_second_run_on_the_same_files_reads_every_result_from_the_cache():
    files = [("a.py", "x = 1\nBAD\n"), ("b.py", "BAD\n")]
    first = CountingSandbox()
    before = AnalysisRunner(CountingAnalyzer(), first).analyse(files)
    second = CountingSandbox()
    runner = AnalysisRunner(CountingAnalyzer(), second)
    after = runner.analyse(files)
    assert second.analysed == [] and runner.ran == 0
    assert _rules(after) == _rules(before) == [[2], [1]]


def test_a_file_given_twice_in_one_call_is_analysed_once_and_both_get_its_result():
    # the null answer (the original file unchanged) and cases that share one file
    sandbox = CountingSandbox()
    files = [("a.py", "BAD\n"), ("a.py", "BAD\n"), ("b.py", "ok\n"), ("a.py", "BAD\n")]
    analyses = AnalysisRunner(CountingAnalyzer(), sandbox, use_cache=False).analyse(files)
    assert sorted(sandbox.analysed) == ["BAD\n", "ok\n"]
    assert _rules(analyses) == [[1], [1], [], [1]]


def test_changed_content_or_name_misses_the_cache():
    AnalysisRunner(CountingAnalyzer(), CountingSandbox()).analyse([("a.py", "BAD\n")])
    sandbox = CountingSandbox()
    runner = AnalysisRunner(CountingAnalyzer(), sandbox)
    analyses = runner.analyse([("a.py", "ok\nBAD\n"), ("c.py", "BAD\n")])
    assert runner.ran == 2 and _rules(analyses) == [[2], [1]]


def test_another_analyzer_version_or_setting_misses_the_cache():
    AnalysisRunner(CountingAnalyzer("1"), CountingSandbox()).analyse([("a.py", "BAD\n")])
    assert cache_folder(CountingAnalyzer("1")) != cache_folder(CountingAnalyzer("2"))
    sandbox = CountingSandbox()
    runner = AnalysisRunner(CountingAnalyzer("2"), sandbox)
    runner.analyse([("a.py", "BAD\n")])
    assert runner.ran == 1 and sandbox.analysed == ["BAD\n"]


def test_a_damaged_or_foreign_entry_is_analysed_again_and_rewritten():
    tool = CountingAnalyzer()
    files = [("a.py", "BAD\n"), ("b.py", "x\nBAD\n"), ("c.py", "BAD\nBAD\n")]
    AnalysisRunner(tool, CountingSandbox()).analyse(files)
    keys = [entry_key(name, content) for name, content in files]
    paths = [cache_folder(tool) / key[:2] / f"{key}.json" for key in keys]
    paths[0].write_text("{not json", encoding="utf-8")  # truncated
    body = json.loads(paths[1].read_text(encoding="utf-8"))
    paths[1].write_text(json.dumps({**body, "key": keys[2]}), encoding="utf-8")  # another file's
    sandbox = CountingSandbox()
    runner = AnalysisRunner(tool, sandbox)
    analyses = runner.analyse(files)
    assert runner.ran == 2 and sorted(sandbox.analysed) == ["BAD\n", "x\nBAD\n"]
    assert _rules(analyses) == [[1], [2], [1, 2]]
    assert json.loads(paths[0].read_text(encoding="utf-8"))["key"] == keys[0]


def test_an_entry_with_a_malformed_diagnostic_is_not_trusted():
    tool = CountingAnalyzer()
    AnalysisRunner(tool, CountingSandbox()).analyse([("a.py", "BAD\n")])
    key = entry_key("a.py", "BAD\n")
    path = cache_folder(tool) / key[:2] / f"{key}.json"
    path.write_text(json.dumps({"key": key, "diagnostics": [{"rule": "bad"}]}), encoding="utf-8")
    runner = AnalysisRunner(tool, CountingSandbox())
    assert _rules(runner.analyse([("a.py", "BAD\n")])) == [[1]] and runner.ran == 1


def test_failed_analyses_are_not_cached():
    class Unavailable:
        available = False
        reason = "no bwrap"

    tool = CountingAnalyzer()
    failed = AnalysisRunner(tool, Unavailable()).analyse([("a.py", "BAD\n"), ("a.py", "BAD\n")])
    assert all(not a.ok and "no bwrap" in (a.error or "") for a in failed)
    runner = AnalysisRunner(tool, CountingSandbox())
    assert _rules(runner.analyse([("a.py", "BAD\n")])) == [[1]] and runner.ran == 1


def test_files_go_in_batches_of_at_most_the_analyzer_s_size_as_even_as_can_be(
    tmp_path, monkeypatch
):
    monkeypatch.setenv("SEEBENCH_HOME", str(tmp_path))
    sandbox = CountingSandbox()
    files = [(f"f{n}.py", f"x = {n}\nBAD\n") for n in range(7)]
    analyses = AnalysisRunner(CountingAnalyzer(), sandbox).analyse(files)
    assert sandbox.batch_sizes == [3, 2, 2]  # not 3 + 3 + 1
    assert _rules(analyses) == [[2]] * 7
