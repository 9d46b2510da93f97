"""A plugin whose observer raises: it must be logged, never stop a run."""

from seebench import hookimpl


@hookimpl
def on_unit_finished(event):
    raise RuntimeError("observer broke")
