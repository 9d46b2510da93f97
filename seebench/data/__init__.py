"""Task data: the checksummed file cache, readers, preparation steps, samples and splits."""

from __future__ import annotations

from typing import TYPE_CHECKING

from seebench.lazy_exports import lazy_exports

if TYPE_CHECKING:
    from seebench.data.dataset import Sample, TaskData, load_task_data

#: each public name and the module that defines it, imported on first use (PEP 562): a plugin
#: module of this package, imported at start-up, does not import them all
_LAZY = {
    "Sample": "seebench.data.dataset",
    "TaskData": "seebench.data.dataset",
    "load_task_data": "seebench.data.dataset",
}

__all__ = ["Sample", "TaskData", "load_task_data"]


__getattr__ = lazy_exports(__name__, _LAZY)
