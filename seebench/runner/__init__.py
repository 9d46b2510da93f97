"""The evaluation runner: plans (model, method, task) units and runs the ones not yet done."""

from seebench.runner.runner import EvalConfig, RunInterrupted, UnitOutcome, run_eval

__all__ = ["EvalConfig", "RunInterrupted", "UnitOutcome", "run_eval"]
