"""The oracle's Python answer: a new test file that runs the repository's own covering tests
where they are.

The covering tests are not copied or moved: the new file imports their module as pytest
would (its first folder upward without ``__init__.py`` on ``sys.path``, the dotted name
below it), so the module keeps its ``__file__``, its relative imports, its data files and its
helpers. The module's fixtures, marks and xunit set-up functions, and those of the
``conftest.py`` files above it that pytest would not load for the new file, are copied into
the new file's namespace (where pytest looks for them); every covering test gets a wrapper
defined in the new file with the original's signature and marks (a subclass, for tests in
classes, whose other tests are hidden, and whose own set-up hooks are wrapped the same way),
so the test and its set-up run from the new file, as a generated test does, and the focal
method's trace sees it.
"""

from __future__ import annotations

from pathlib import Path

SHIM = '''"""seebench oracle: the repository's own tests that cover the focal method, run from here.

{names} of {module} (imported where pytest imports it, so its own imports, helpers and
data files work), with the fixtures of its module and conftest files.
"""

import functools as _seebench_functools
import importlib as _seebench_importlib
import importlib.util as _seebench_util
import inspect as _seebench_inspect
import os as _seebench_os
import sys as _seebench_sys
import unittest as _seebench_unittest

_SEEBENCH_ROOT = _seebench_os.path.normpath(
    _seebench_os.path.join(_seebench_os.path.dirname(_seebench_os.path.abspath(__file__)), {up!r})
)
_SEEBENCH_BASE = {base!r}
_SEEBENCH_NAME = {name!r}
#: (path from the root, dotted name when it is in a package), nearest first
_SEEBENCH_CONFTESTS = {conftests!r}
#: the covering tests: name -> None (a function) or the members of a class
_SEEBENCH_TESTS = {tests!r}
#: the set-up hooks of a test class that run from this file too (unittest's, pytest's)
_SEEBENCH_SETUPS = ("setUpClass", "setUp", "setup_class", "setup_method")


def _seebench_on_path(folder):
    folder = _seebench_os.path.join(_SEEBENCH_ROOT, folder) if folder else _SEEBENCH_ROOT
    if folder not in _seebench_sys.path:
        _seebench_sys.path.insert(0, folder)


def _seebench_conftest(path, dotted):
    if dotted:
        return _seebench_importlib.import_module(dotted)
    name = "_seebench_conftest_" + path.replace("/", "_").replace(".", "_")
    spec = _seebench_util.spec_from_file_location(name, _seebench_os.path.join(_SEEBENCH_ROOT, path))
    module = _seebench_util.module_from_spec(spec)
    _seebench_sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def _seebench_is_test(name, value):
    try:
        if type(value).__name__ == "FixtureFunctionDefinition" or hasattr(
            value, "_pytestfixturefunction"
        ):
            return False
        if _seebench_inspect.isclass(value):
            return name.startswith("Test") or issubclass(value, _seebench_unittest.TestCase)
        return name.startswith("test") and callable(value)
    except Exception:  # a proxy that cannot be read here (flask's request outside a request)
        return False


def _seebench_share(module):
    for key, value in vars(module).items():
        if key.startswith(("__", "_seebench", "pytest_")) or _seebench_is_test(key, value):
            continue
        globals().setdefault(key, value)


def _seebench_function(original, method=False):
    if _seebench_inspect.iscoroutinefunction(original):

        async def test(*args, **kwargs):
            return await original(*args, **kwargs)

    else:

        def test(*args, **kwargs):
            return original(*args, **kwargs)

    return _seebench_functools.wraps(original)(test)


def _seebench_forward(inner):
    # a function of this file that calls ``inner`` with as many positional arguments (pytest
    # reads a set-up function's argument count to decide whether to pass the test method)
    count = inner.__code__.co_argcount
    if count == 1:

        def setup(first):
            return inner(first)

    elif count == 2:

        def setup(first, second):
            return inner(first, second)

    else:

        def setup(*args, **kwargs):
            return inner(*args, **kwargs)

    return _seebench_functools.wraps(inner)(setup)


def _seebench_setup(original, key):
    # the class's own set-up hook, called from this file: what it runs (a focal constructor
    # in setUpClass...) then has a function of this file on the stack, as in a generated test
    owner = next((c for c in original.__mro__ if key in vars(c)), object)
    if owner is object or owner.__module__.startswith("unittest"):
        return None
    raw = vars(owner)[key]
    inner = raw.__func__ if isinstance(raw, (classmethod, staticmethod)) else raw
    if not _seebench_inspect.isfunction(inner):
        return None
    if isinstance(raw, classmethod):
        return classmethod(_seebench_forward(inner))
    if isinstance(raw, staticmethod):
        return staticmethod(_seebench_forward(inner))
    return _seebench_forward(inner)


def _seebench_is_method(owner, key):
    # a test method, not a class attribute such as "test_class = URIReference" that the
    # class's tests read (a class is callable too, but pytest never collects it as a test)
    try:
        value = getattr(owner, key, None)
        return callable(value) and not _seebench_inspect.isclass(value)
    except Exception:  # an attribute that cannot be read here is no test method
        return False


def _seebench_class(original, members):
    namespace = {{"__qualname__": original.__qualname__, "__module__": __name__}}
    for key in dir(original):
        if key.startswith("test") and key not in members and _seebench_is_method(original, key):
            namespace[key] = None  # only the covering tests of the class run
    for key in _SEEBENCH_SETUPS:
        setup = _seebench_setup(original, key)
        if setup is not None:
            namespace[key] = setup
    for key, inner in members.items():
        value = getattr(original, key)
        if inner is None:
            namespace[key] = _seebench_function(value)
        else:
            namespace[key] = _seebench_class(value, inner)
    return type(original)(original.__name__, (original,), namespace)


_seebench_on_path(_SEEBENCH_BASE)
_seebench_loaded = []
for _seebench_path, _seebench_dotted in _SEEBENCH_CONFTESTS:
    _seebench_folder = _seebench_os.path.dirname(_seebench_path)
    if not _seebench_dotted:
        _seebench_on_path(_seebench_folder)
    try:
        _seebench_loaded.append((_seebench_dotted, _seebench_conftest(_seebench_path, _seebench_dotted)))
    except Exception as _seebench_error:  # the test module may still work without it
        _seebench_sys.stderr.write(f"seebench oracle: {{_seebench_path}}: {{_seebench_error!r}}\\n")
# while the module imports, a bare "import conftest" finds its nearest conftest, as under pytest
_seebench_plain = [module for dotted, module in _seebench_loaded if not dotted]
_seebench_saved = _seebench_sys.modules.get("conftest")
if _seebench_plain:
    _seebench_sys.modules["conftest"] = _seebench_plain[0]
try:
    _seebench_module = _seebench_importlib.import_module(_SEEBENCH_NAME)
finally:
    if _seebench_plain:
        if _seebench_saved is None:
            _seebench_sys.modules.pop("conftest", None)
        else:
            _seebench_sys.modules["conftest"] = _seebench_saved
_seebench_share(_seebench_module)
for _seebench_dotted, _seebench_found in _seebench_loaded:
    _seebench_share(_seebench_found)


def _seebench_install():
    # in a function: a module-level name holding an original class would be collected too
    for key, inner in _SEEBENCH_TESTS.items():
        value = getattr(_seebench_module, key)
        if inner is None:
            globals()[key] = _seebench_function(value)
        else:
            globals()[key] = _seebench_class(value, inner)


_seebench_install()
'''


def import_location(path: str, tree: Path) -> tuple[str, str]:
    """(the folder pytest puts on ``sys.path``, the dotted module name) for the Python file
    ``path`` under pytest's default ``prepend`` import mode: the first folder upward that
    holds no ``__init__.py``, and the path below it."""
    parts = path.split("/")
    folders, stem = parts[:-1], parts[-1].removesuffix(".py")
    start = len(folders)
    while start > 0 and (tree.joinpath(*folders[:start]) / "__init__.py").is_file():
        start -= 1
    return "/".join(folders[:start]), ".".join([*folders[start:], stem])


def test_tree(test_ids: list[str], module: str) -> dict:
    """The covering tests of ``module`` as nested names: ``{"test_a": None, "TestB":
    {"test_c": None}}`` (parameters dropped: a wrapped test keeps all its parameters)."""
    tree: dict = {}
    for test_id in test_ids:
        path, _, rest = test_id.partition("::")
        if path != module or not rest:
            continue
        names = rest.split("[", 1)[0].split("::")
        level = tree
        for name in names[:-1]:
            if not isinstance(level.get(name), dict):
                level[name] = {}
            level = level[name]
        level.setdefault(names[-1], None)
    return tree


def conftests_of(module: str, focal_file: str, tree: Path) -> list[tuple[str, str]]:
    """The conftest files pytest loads for ``module`` but not for a test beside
    ``focal_file`` (nearest first): (path from the root, dotted name when in a package)."""
    focal_dirs = {"/".join(focal_file.split("/")[:n]) for n in range(len(focal_file.split("/")))}
    parts = module.split("/")[:-1]
    found = []
    for n in range(len(parts), -1, -1):
        folder = "/".join(parts[:n])
        if folder in focal_dirs or not (tree / folder / "conftest.py").is_file():
            continue
        path = f"{folder}/conftest.py" if folder else "conftest.py"
        dotted = ""
        if folder and (tree / folder / "__init__.py").is_file():
            dotted = import_location(path, tree)[1]
        found.append((path, dotted))
    return found


def python_oracle(module: str, test_ids: list[str], focal_file: str, tree: Path) -> str | None:
    """The oracle's test file for the covering ``test_ids`` of ``module`` (see the module
    docstring); ``None`` when none of them is a test of ``module``."""
    tests = test_tree(test_ids, module)
    if not tests:
        return None
    base, name = import_location(module, tree)
    depth = len(focal_file.split("/")) - 1
    names = ", ".join(sorted(tests))
    return SHIM.format(
        names=names if len(names) < 200 else f"{len(tests)} tests",
        module=module,
        up="/".join([".."] * depth) or ".",
        base=base,
        name=name,
        conftests=conftests_of(module, focal_file, tree),
        tests=tests,
    )
