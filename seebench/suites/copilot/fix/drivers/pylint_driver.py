"""Run pylint on each file named on the command line, each alone, in one interpreter.

Prints one JSON object: {file: [{symbol, message, line, column}]}; a file pylint could not
analyse maps to {"error": "..."}. One linter (its checkers loaded by a warm-up run) checks every file; then the
import path is cut down to the standard library, so what a file imports resolves the same
everywhere (nothing from the environment pylint was installed in).

Between files astroid's caches are cleared, so no file sees another, except the syntax trees
of standard-library modules: they depend on nothing a file brings and rebuilding them was most
of the time per file (the 88 distinct pylint files of the fix data: the same diagnostics,
byte for byte, in about half the time).
"""

import json
import os
import sys
import sysconfig

import astroid
from pylint.lint import Run
from pylint.reporters import CollectingReporter

OPTIONS = ["--errors-only", "--persistent=n", "--score=n", "--jobs=1", "--rcfile=/dev/null"]


def forget_all_but_the_standard_library(stdlib: tuple[str, ...]) -> None:
    """astroid's ``clear_cache()``, then the standard library's module trees put back."""
    manager = astroid.MANAGER
    kept = {
        name: module
        for name, module in manager.astroid_cache.items()
        if name != "builtins"
        and module.file
        and module.file.startswith(stdlib)
        and "-packages" not in module.file
    }
    manager.clear_cache()
    for name, module in kept.items():
        manager.astroid_cache.setdefault(name, module)


def main(files):
    with open("warmup.py", "w", encoding="utf-8") as handle:
        handle.write("import os\nprint(os.sep)\n")
    reporter = CollectingReporter()
    linter = Run([*OPTIONS, "warmup.py"], reporter=reporter, exit=False).linter
    stdlib = {sysconfig.get_paths()[key] for key in ("stdlib", "platstdlib")}
    sys.path[:] = [p for p in sys.path if p in stdlib or p.endswith("lib-dynload")]
    prefixes = tuple(sorted(os.path.join(path, "") for path in stdlib))
    results = {}
    for path in files:
        reporter.messages = []
        forget_all_but_the_standard_library(prefixes)
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
