"""An example seebench plugin, installed as its own distribution (``seebench-example``).

It registers a task directory (a small commit-message classification task with its data
shipped beside the YAML), a metric (``balanced_accuracy``) and a method (``keyword``, a
rule-based classifier that needs no training).
"""

from __future__ import annotations

from pathlib import Path

from seebench.api import RegisterMethod, RegisterMetric, RegisterTaskDir, hookimpl

TASK_DIR = Path(__file__).parent / "tasks"


@hookimpl
def register_task_dirs(register: RegisterTaskDir) -> None:
    register(TASK_DIR, suite="example")


@hookimpl
def register_metrics(register: RegisterMetric) -> None:
    register(
        "balanced_accuracy",
        "seebench_example.metrics:balanced_accuracy",
        description="Mean recall over classes (robust to class imbalance).",
        task_types=("binary", "multiclass"),
    )


@hookimpl
def register_methods(register: RegisterMethod) -> None:
    register(
        "keyword",
        "seebench_example.keyword:KeywordMethod",
        description="Predict the label whose keywords occur most often in the input.",
        task_types=("binary", "multiclass"),
        # declared, so a mistyped -o option is refused instead of silently recorded
        options={
            "keywords": {
                "type": "object",
                "additionalProperties": {"type": "array", "items": {"type": "string"}},
                "description": "label -> the words that vote for it",
            }
        },
    )
