"""Compatibility preludes: code run before an item's file so that data written for an older
library still runs (named in a task's scorer options as ``compat: [name, ...]``).

``pandas_dataframe_append``: RealHumanEval's study ran pandas 1.x; ``DataFrame.append`` was
removed in pandas 2.0 and one study solution (``table_transform_unnamed2``) calls it. The
prelude restores it (as ``pandas.concat``) only where it is missing.
"""

from __future__ import annotations

from typing import Any

PRELUDES: dict[str, str] = {
    "pandas_dataframe_append": """\
def _seebench_restore_dataframe_append():
    try:
        import pandas
    except ImportError:
        return
    if hasattr(pandas.DataFrame, "append"):
        return

    def append(self, other, ignore_index=False, verify_integrity=False, sort=False):
        if isinstance(other, dict | pandas.Series):
            other = pandas.DataFrame([other])
        elif isinstance(other, list) and other and not isinstance(other[0], pandas.DataFrame):
            other = pandas.DataFrame(other)
        frames = [self, *other] if isinstance(other, list) else [self, other]
        return pandas.concat(
            frames, ignore_index=ignore_index, verify_integrity=verify_integrity, sort=sort
        )

    pandas.DataFrame.append = append


_seebench_restore_dataframe_append()
del _seebench_restore_dataframe_append
""",
}

#: the option schema of ``compat`` (shared by the generate and test scorers)
COMPAT_OPTION: dict[str, Any] = {
    "type": "array",
    "items": {"enum": sorted(PRELUDES)},
    "uniqueItems": True,
    "description": "compatibility preludes run before each file (see docs/tasks/copilot)",
}


def prelude(names: list[str] | tuple[str, ...]) -> str:
    """The source of the named preludes, in order (empty when none)."""
    return "".join(PRELUDES[name] + "\n" for name in names)
