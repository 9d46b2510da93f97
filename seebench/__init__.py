"""seebench: a benchmark plugin framework for software-engineering evaluation.

The public API is re-exported here; everything else is internal and may change.
"""

from __future__ import annotations

__version__ = "0.1.0"

from seebench.plugin_manager import hookimpl  # noqa: E402

__all__ = ["__version__", "hookimpl"]
