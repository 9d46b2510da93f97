"""A plugin implementing a hook that does not exist (a typo)."""

from seebench import hookimpl


@hookimpl
def register_metric(register):  # should be register_metrics
    pass
