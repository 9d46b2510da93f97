"""Exceptions with messages meant for users: one line, naming the file, key or value."""

from __future__ import annotations

from collections.abc import Iterable


class SeebenchError(Exception):
    """Base class for errors reported to the user as one clear line, without a traceback."""


class PluginError(SeebenchError):
    """A plugin could not be loaded or registered something invalid."""


class TaskSpecError(SeebenchError):
    """A task YAML file is invalid. ``problems`` holds one message per problem."""

    def __init__(self, path: str, problems: list[str]):
        self.path = path
        # keys and values may contain line breaks; each problem must stay on one line
        self.problems = [p.replace("\r", "\\r").replace("\n", "\\n") for p in problems]
        super().__init__("\n".join(self.problems))


class DataMissingError(SeebenchError):
    """A task's data files are not in the cache and cannot be fetched."""


class MissingToolError(DataMissingError):
    """An external tool a task needs (an analyzer from npm, a runtime) is not installed.

    Like missing data, the unit is *skipped*, not failed; the message names the one command
    that installs the tool.
    """


class DataDamagedError(SeebenchError):
    """A cached or shipped data file does not have its declared sha256 (a unit using it fails)."""


class NotApplicableError(SeebenchError):
    """A method cannot run a task (for example NER with a decoder-only model)."""


class ModelError(SeebenchError):
    """A model spec cannot be resolved or loaded."""


def did_you_mean(name: str, known: Iterable[object]) -> str:
    """``" (did you mean 'x'?)"`` for the closest of ``known`` names, or an empty string."""
    import difflib

    close = difflib.get_close_matches(str(name), [str(k) for k in known], n=1, cutoff=0.6)
    return f" (did you mean {close[0]!r}?)" if close else ""
