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


def executors(pm: Any) -> dict[str, ExecutorEntry]:
    """Every executor registered with the plugin manager ``pm`` (built-ins: ``local``,
    ``ray``), one plugin at a time so that a bad registration names its plugin."""
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

    for impl in pm.hook.register_executors.get_hookimpls():  # registration order
        try:
            impl.function(**{arg: make_register(impl.plugin_name) for arg in impl.argnames})
        except PluginError:
            raise
        except Exception as exc:
            raise PluginError(
                f"plugin {impl.plugin_name!r} failed in register_executors: "
                f"{type(exc).__name__}: {exc}"
            ) from None
    return found


def executor_entry(name: str, pm: Any) -> ExecutorEntry:
    """The executor ``name``; a one-line error naming the known ones otherwise."""
    known = executors(pm)
    if name not in known:
        raise SeebenchError(
            f"--executor {name!r}: unknown executor{did_you_mean(name, known)}; known: "
            f"{', '.join(sorted(known))}"
        )
    return known[name]
