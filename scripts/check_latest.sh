#!/usr/bin/env bash
# See an upcoming break before users do: install seebench with the NEWEST versions its open
# dependency ranges allow (no constraints file, except the CPU torch build) in a scratch venv,
# then run the test suite there. Pass pytest arguments to run a subset.
#
#   scripts/check_latest.sh                    # the whole suite (about 20 minutes on 2 cores)
#   scripts/check_latest.sh tests/tasks -x     # a subset
#
# Record the last result in CONTRIBUTING.md's release checklist.
set -euo pipefail
cd "$(dirname "$0")/.."
python="${PYTHON:-python3.11}"
# shellcheck source=scripts/newest_venv.sh
. scripts/newest_venv.sh
echo "== newest allowed versions that differ from constraints/ci.txt"
"$pip" freeze --exclude-editable | LC_ALL=C sort > "$scratch/latest.txt"
grep -v "^#" constraints/ci.txt | LC_ALL=C sort > "$scratch/pinned.txt" || true
LC_ALL=C comm -13 "$scratch/pinned.txt" "$scratch/latest.txt" || true
echo "== tests with the newest versions"
export PATH="$scratch/venv/bin:$PATH"
if [ "$#" -eq 0 ]; then set -- -q; fi
"$scratch/venv/bin/python" -m pytest "$@"
