"""Metric functions: ``metric(golds, predictions, **options) -> float``.

Each is registered as a plugin by :mod:`seebench.scoring.metrics.plugin`.
"""
