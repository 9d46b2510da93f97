#!/usr/bin/env bash
# Type-check seebench with mypy (configured in pyproject.toml [tool.mypy]). Exits non-zero on
# any error: the whole package must be clean, and the plugin contract (the public API
# seebench/api.py, the hooks, the plugin manager and the registry) is checked with untyped
# definitions disallowed.
#   scripts/typecheck.sh             the whole package (what .ci/run runs)
#   scripts/typecheck.sh --contract  the contract's 8 files only (seconds; the tests use it)
# (--all, its old name for the whole package, still works.)
# MYPY (default: mypy) and PYTHON (default: python, whose site-packages mypy reads) may be set.
set -euo pipefail
cd "$(dirname "$0")/.."
MYPY="${MYPY:-mypy}"
PYTHON="${PYTHON:-python}"
case "${1:-}" in
  "" | --all)
    exec "$MYPY" --python-executable "$(command -v "$PYTHON")" seebench
    ;;
  --contract)
    exec "$MYPY" --python-executable "$(command -v "$PYTHON")" --follow-imports=silent \
      seebench/api.py seebench/hookspecs.py seebench/plugin_manager.py \
      seebench/plugin_entry_points.py seebench/plugin_problems.py seebench/plugin_check.py \
      seebench/registry.py seebench/registry_entries.py
    ;;
  *)
    echo "usage: scripts/typecheck.sh [--contract]" >&2
    exit 2
    ;;
esac
