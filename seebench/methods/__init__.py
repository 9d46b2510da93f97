"""Evaluation methods: the contract between the runner and a way of evaluating a model."""

from seebench.methods.base import Method, MethodOutput, Prediction, RunContext

__all__ = ["Method", "MethodOutput", "Prediction", "RunContext"]
