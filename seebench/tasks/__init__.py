"""Task specifications: loading, validating and discovering task YAML files."""

from seebench.tasks.spec import Label, TaskSpec

__all__ = ["Label", "TaskSpec"]
