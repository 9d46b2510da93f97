"""Tiny example plugins used by the tests (as datasette's tests/plugins/ folder)."""
