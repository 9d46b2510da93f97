"""Run pylint once over a whole repository copy: ``repo_pylint_driver.py ROOT [--path DIR]...``
with the repository-relative files to check listed one per line in ``files.txt``.

Prints one JSON object {relative path: [{symbol, message, line, column}]} (every listed file
has an entry). A warm-up run loads the checkers; then the import path is cut down to the
standard library, the repository root and the ``--path`` folders (an environment's
site-packages), so imports resolve the same on every machine.
"""

import json
import os
import sys
import sysconfig

import astroid
from pylint.lint import Run
from pylint.reporters import CollectingReporter

OPTIONS = ["--errors-only", "--persistent=n", "--score=n", "--jobs=1", "--rcfile=/dev/null"]


def main(argv):
    root = os.path.abspath(argv[0])
    extra = [argv[i + 1] for i, arg in enumerate(argv) if arg == "--path"]
    with open("files.txt", encoding="utf-8") as handle:
        files = [line for line in handle.read().splitlines() if line]
    with open("warmup.py", "w", encoding="utf-8") as handle:
        handle.write("import os\nprint(os.sep)\n")
    reporter = CollectingReporter()
    linter = Run([*OPTIONS, "warmup.py"], reporter=reporter, exit=False).linter
    stdlib = {sysconfig.get_paths()[key] for key in ("stdlib", "platstdlib")}
    kept = [p for p in sys.path if p in stdlib or p.endswith("lib-dynload")]
    sys.path[:] = [root, *extra, *kept]
    reporter.messages = []
    astroid.MANAGER.clear_cache()
    os.chdir(root)
    linter.check(files)
    results = {name: [] for name in files}
    for message in reporter.messages:
        name = os.path.relpath(message.abspath, root).replace(os.sep, "/")
        results.setdefault(name, []).append(
            {
                "symbol": message.symbol,
                "message": message.msg,
                "line": message.line,
                "column": message.column,
            }
        )
    sys.stdout.write(json.dumps(results))


if __name__ == "__main__":
    os.environ.pop("PYTHONPATH", None)
    main(sys.argv[1:])
