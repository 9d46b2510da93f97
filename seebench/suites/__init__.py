"""Benchmark suites whose preparation needs more than the generic steps (e.g. SELU)."""
