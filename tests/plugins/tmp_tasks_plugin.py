"""Registers the task directory named by $SEEBENCH_TEST_TASK_DIR and a slow method.

Loaded with SEEBENCH_PLUGINS=tests.plugins.tmp_tasks_plugin in subprocess tests.
"""

from __future__ import annotations

import os
import time

from seebench import hookimpl


class SlowEchoMethod:
    """Answers the gold label after sleeping ``$SEEBENCH_TEST_SLEEP`` seconds per sample."""

    name = "slow-echo"

    def not_applicable(self, task, model):
        return None

    def run(self, context):
        from seebench.methods import MethodOutput, Prediction

        delay = float(os.environ.get("SEEBENCH_TEST_SLEEP", "0"))
        predictions = []
        for sample in context.data.test:
            time.sleep(delay)
            predictions.append(Prediction(sample.id, sample.target))
            context.advance(1)
        return MethodOutput(predictions)


@hookimpl
def register_task_dirs(register):
    directory = os.environ.get("SEEBENCH_TEST_TASK_DIR")
    if directory:
        register(directory, suite="tmp")


@hookimpl
def register_methods(register):
    register("slow-echo", SlowEchoMethod, description="Echo the gold label slowly (tests).")
