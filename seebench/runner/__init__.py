"""The evaluation runner: the phases of one (model, method, task) unit (plan, cached?,
compute, record) that the sweep driver (:mod:`seebench.executors.driver`) calls."""

from seebench.runner.config import EvalConfig
from seebench.runner.runner import Runner, UnitOutcome

__all__ = ["EvalConfig", "Runner", "UnitOutcome"]
