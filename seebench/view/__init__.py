"""``seebench view``: a local, read-only web app over results folders, and its static export.

The parts: :mod:`~seebench.view.catalog` finds and checks units, :mod:`~seebench.view.index`
indexes a samples file so any page opens at once, :mod:`~seebench.view.site` renders pages,
:mod:`~seebench.view.server` serves them and :mod:`~seebench.view.export` writes them to disk.
"""

from seebench.view.catalog import Catalog, Unit
from seebench.view.index import SampleFilter, SampleIndex, load_index

__all__ = ["Catalog", "SampleFilter", "SampleIndex", "Unit", "load_index"]
