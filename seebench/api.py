"""The public API for plugin authors: everything a plugin needs, in one module.

Plugins import from here and nowhere else in seebench::

    from seebench.api import AnswerFormat, RegisterTaskType, TaskType, hookimpl

Every name below is covered by the stability promise of ``docs/plugins.md`` ("Stability"):
it follows semantic versioning (:data:`API_VERSION`), a name or argument is removed or
changed incompatibly only in a major release, and a deprecation warns
(:class:`SeebenchDeprecationWarning`) for at least one minor release first. Modules outside
this one (and outside the hooks of :mod:`seebench.hookspecs`) are internal and may change in
any release.

The names are imported lazily (a module ``__getattr__``), so ``import seebench.api`` stays
cheap and a plugin module that imports only ``hookimpl`` imports nothing else.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

#: the version of the plugin API (hooks and the names below): a plugin may check
#: ``API_VERSION >= (1, 0)``; the major number changes only with a breaking change
API_VERSION: tuple[int, int] = (1, 0)

if TYPE_CHECKING:
    from seebench.data.cache import cached_file
    from seebench.data.dataset import DataError, Sample, TaskData
    from seebench.errors import PluginError, SeebenchError
    from seebench.events import UnitFinished
    from seebench.hookspecs import (
        RegisterDataFile,
        RegisterExecutor,
        RegisterFunction,
        RegisterMethod,
        RegisterMetric,
        RegisterModel,
        RegisterScorer,
        RegisterSuite,
        RegisterTaskDir,
        RegisterTaskType,
        hookimpl,
    )
    from seebench.methods.base import Method, MethodOutput, Prediction, RunContext
    from seebench.models import ModelRef
    from seebench.plugin_check import CheckReport, check_plugin
    from seebench.plugin_manager import build_registry, create_plugin_manager
    from seebench.registry import Registry
    from seebench.scoring import Score, ScoreContext, Scorer
    from seebench.scoring.ratio import item_ratio
    from seebench.stats.report import ComparisonReport
    from seebench.tasks.parsing import parse_label
    from seebench.tasks.spec import Label, TaskSpec
    from seebench.tasks.types import (
        CODE,
        FREE_TEXT,
        LABEL,
        LABEL_SET,
        MASKED_WORDS,
        NUMBER,
        TAG_SEQUENCE,
        AnswerFormat,
        ParsedAnswer,
        TaskType,
    )

#: public name -> the module that defines it (the one place to change when code moves)
_HOME: dict[str, str] = {
    # hooks: the marker and one Protocol per registration hook's ``register``
    "hookimpl": "seebench.hookspecs",
    "RegisterDataFile": "seebench.hookspecs",
    "RegisterExecutor": "seebench.hookspecs",
    "RegisterFunction": "seebench.hookspecs",
    "RegisterMethod": "seebench.hookspecs",
    "RegisterMetric": "seebench.hookspecs",
    "RegisterModel": "seebench.hookspecs",
    "RegisterScorer": "seebench.hookspecs",
    "RegisterSuite": "seebench.hookspecs",
    "RegisterTaskDir": "seebench.hookspecs",
    "RegisterTaskType": "seebench.hookspecs",
    # task types: behaviour, prompting, target kinds
    "TaskType": "seebench.tasks.types",
    "AnswerFormat": "seebench.tasks.types",
    "ParsedAnswer": "seebench.tasks.types",
    "LABEL": "seebench.tasks.types",
    "LABEL_SET": "seebench.tasks.types",
    "NUMBER": "seebench.tasks.types",
    "TAG_SEQUENCE": "seebench.tasks.types",
    "MASKED_WORDS": "seebench.tasks.types",
    "CODE": "seebench.tasks.types",
    "FREE_TEXT": "seebench.tasks.types",
    "parse_label": "seebench.tasks.parsing",
    "TaskSpec": "seebench.tasks.spec",
    "Label": "seebench.tasks.spec",
    # data
    "Sample": "seebench.data.dataset",
    "TaskData": "seebench.data.dataset",
    "DataError": "seebench.data.dataset",
    "cached_file": "seebench.data.cache",
    # methods and models
    "Method": "seebench.methods.base",
    "MethodOutput": "seebench.methods.base",
    "Prediction": "seebench.methods.base",
    "RunContext": "seebench.methods.base",
    "ModelRef": "seebench.models",
    # scoring
    "Score": "seebench.scoring",
    "ScoreContext": "seebench.scoring",
    "Scorer": "seebench.scoring",
    "item_ratio": "seebench.scoring.ratio",
    # reports, events, errors
    "ComparisonReport": "seebench.stats.report",
    "UnitFinished": "seebench.events",
    "SeebenchError": "seebench.errors",
    "PluginError": "seebench.errors",
    # testing a plugin
    "Registry": "seebench.registry",
    "create_plugin_manager": "seebench.plugin_manager",
    "build_registry": "seebench.plugin_manager",
    "check_plugin": "seebench.plugin_check",
    "CheckReport": "seebench.plugin_check",
}


class SeebenchDeprecationWarning(DeprecationWarning):
    """Warned for a deprecated name or argument of this API, at least one minor release
    before it goes (``python -W error::seebench.api.SeebenchDeprecationWarning`` in a
    plugin's tests turns them into failures)."""


#: deprecated name -> (the name to use instead, the release that removes it)
_DEPRECATED: dict[str, tuple[str, str]] = {}


def __getattr__(name: str) -> Any:
    if name in _DEPRECATED:
        import warnings

        new, removal = _DEPRECATED[name]
        warnings.warn(
            f"seebench.api.{name} is deprecated and goes in {removal}: use {new}",
            SeebenchDeprecationWarning,
            stacklevel=2,
        )
        name = new
    if name in _HOME:
        return getattr(importlib.import_module(_HOME[name]), name)
    raise AttributeError(f"module 'seebench.api' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted([*__all__, *_DEPRECATED])


__all__ = [
    "API_VERSION",
    "SeebenchDeprecationWarning",
    "hookimpl",
    "RegisterDataFile",
    "RegisterExecutor",
    "RegisterFunction",
    "RegisterMethod",
    "RegisterMetric",
    "RegisterModel",
    "RegisterScorer",
    "RegisterSuite",
    "RegisterTaskDir",
    "RegisterTaskType",
    "TaskType",
    "AnswerFormat",
    "ParsedAnswer",
    "LABEL",
    "LABEL_SET",
    "NUMBER",
    "TAG_SEQUENCE",
    "MASKED_WORDS",
    "CODE",
    "FREE_TEXT",
    "parse_label",
    "TaskSpec",
    "Label",
    "Sample",
    "TaskData",
    "DataError",
    "cached_file",
    "Method",
    "MethodOutput",
    "Prediction",
    "RunContext",
    "ModelRef",
    "Score",
    "ScoreContext",
    "Scorer",
    "item_ratio",
    "ComparisonReport",
    "UnitFinished",
    "SeebenchError",
    "PluginError",
    "Registry",
    "create_plugin_manager",
    "build_registry",
    "check_plugin",
    "CheckReport",
]
