"""A plugin whose implementation uses an argument name the hook does not have."""

from seebench import hookimpl


@hookimpl
def register_metrics(reg):
    pass
