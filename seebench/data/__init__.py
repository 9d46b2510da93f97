"""Task data: the checksummed file cache, readers, preparation steps, samples and splits."""

from seebench.data.dataset import Sample, TaskData, load_task_data

__all__ = ["Sample", "TaskData", "load_task_data"]
