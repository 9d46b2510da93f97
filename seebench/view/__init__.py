"""``seebench view``: a local, read-only web app over results folders, and its static export.

The parts: :mod:`~seebench.view.catalog` finds and checks units, :mod:`~seebench.view.index`
indexes a samples file so any page opens at once, :mod:`~seebench.view.site` renders pages,
:mod:`~seebench.view.server` serves them and :mod:`~seebench.view.export` writes them to disk.
"""

import importlib
from typing import Any

#: public names and their modules, imported on first use (``seebench --help`` loads the
#: plugin, and must not pay for numpy)
_EXPORTS = {
    "Catalog": "catalog",
    "Unit": "catalog",
    "SampleFilter": "index",
    "SampleIndex": "index",
    "load_index": "index",
}
__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'seebench.view' has no attribute {name!r}")
    return getattr(importlib.import_module(f"seebench.view.{module}"), name)
