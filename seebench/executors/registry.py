"""The executors that plugins register through ``register_executors``."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from seebench.errors import PluginError, SeebenchError, did_you_mean
from seebench.registry_entries import load_object


@dataclass(frozen=True)
class ExecutorEntry:
    """A registered executor: ``factory(options) -> Executor`` (or an import path to it)."""

    name: str
    factory: Any
    description: str
    plugin: str

    def create(self, options: Any) -> Any:
        return load_object(self.factory)(options)


def executors(pm: Any = None) -> dict[str, ExecutorEntry]:
    """Every registered executor by name (built-ins: ``local``, ``ray``)."""
    from seebench.plugin_manager import _call_per_plugin, get_plugin_manager

    found: dict[str, ExecutorEntry] = {}

    def make_register(plugin: str) -> Callable[..., None]:
        def register(name: str, factory: Any, *, description: str = "") -> None:
            if not isinstance(name, str) or not name.strip():
                raise PluginError(f"plugin {plugin!r} registered an executor with no name")
            if name in found:
                raise PluginError(
                    f"plugin {plugin!r} registered executor {name!r}, already registered by "
                    f"plugin {found[name].plugin!r}"
                )
            found[name] = ExecutorEntry(name, factory, description, plugin)

        return register

    _call_per_plugin(pm or get_plugin_manager(), "register_executors", make_register)
    return found


def executor_entry(name: str, pm: Any = None) -> ExecutorEntry:
    """The executor ``name``; a one-line error naming the known ones otherwise."""
    known = executors(pm)
    if name not in known:
        raise SeebenchError(
            f"--executor {name!r}: unknown executor{did_you_mean(name, known)}; known: "
            f"{', '.join(sorted(known))}"
        )
    return known[name]
