#!/usr/bin/env bash
# Type-check the plugin contract with mypy (configured in pyproject.toml [tool.mypy]):
# the public API (seebench/api.py), the hooks, the plugin manager and the registry, with
# untyped definitions disallowed. Exits non-zero on any error.
#   scripts/typecheck.sh          the contract's files: must be clean
#   scripts/typecheck.sh --all    the whole package (reports; not yet clean)
# MYPY (default: mypy) and PYTHON (default: python, whose site-packages mypy reads) may be set.
set -euo pipefail
cd "$(dirname "$0")/.."
MYPY="${MYPY:-mypy}"
PYTHON="${PYTHON:-python}"
if [ "${1:-}" = "--all" ]; then
  exec "$MYPY" --python-executable "$(command -v "$PYTHON")" seebench
fi
exec "$MYPY" --python-executable "$(command -v "$PYTHON")" --follow-imports=silent \
  seebench/api.py seebench/hookspecs.py seebench/plugin_manager.py \
  seebench/plugin_entry_points.py seebench/plugin_problems.py seebench/plugin_check.py \
  seebench/registry.py seebench/registry_entries.py
