"""Run pylint on each file named on the command line, each alone, in one interpreter.

Prints one JSON object: {file: [{symbol, message, line, column}]}; a file pylint could not
analyse maps to {"error": "..."}. One linter (its checkers loaded by a warm-up run) checks every file; then the
import path is cut down to the standard library, so what a file imports resolves the same
everywhere (nothing from the environment pylint was installed in).
"""

import json
import os
import sys
import sysconfig

import astroid
from pylint.lint import Run
from pylint.reporters import CollectingReporter

OPTIONS = ["--errors-only", "--persistent=n", "--score=n", "--jobs=1", "--rcfile=/dev/null"]


def main(files):
    with open("warmup.py", "w", encoding="utf-8") as handle:
        handle.write("import os\nprint(os.sep)\n")
    reporter = CollectingReporter()
    linter = Run([*OPTIONS, "warmup.py"], reporter=reporter, exit=False).linter
    stdlib = {sysconfig.get_paths()[key] for key in ("stdlib", "platstdlib")}
    sys.path[:] = [p for p in sys.path if p in stdlib or p.endswith("lib-dynload")]
    results = {}
    for path in files:
        reporter.messages = []
        astroid.MANAGER.clear_cache()
        try:
            linter.check([path])
            results[path] = [
                {"symbol": m.symbol, "message": m.msg, "line": m.line, "column": m.column}
                for m in reporter.messages
            ]
        except Exception as exc:  # one file's crash never loses the others
            results[path] = {"error": f"{type(exc).__name__}: {exc}"[:500]}
    sys.stdout.write(json.dumps(results))


if __name__ == "__main__":
    os.environ.pop("PYTHONPATH", None)
    main(sys.argv[1:])
