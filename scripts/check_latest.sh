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
# the README's install block (what CI and users run), without its constraints file
mapfile -t installs < <(awk '/<!-- ci:install -->/{on=1; next} /<!-- \/ci:install -->/{on=0}
  on && /^pip install/' README.md | sed 's| -c constraints/ci.txt||')
[ "${#installs[@]}" -gt 0 ] || { echo "$0: no pip install line in README.md's ci:install block" >&2; exit 2; }

scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
"$python" -m venv "$scratch/venv"
pip="$scratch/venv/bin/pip"
"$pip" install -q --upgrade pip
# torch stays the CPU build (any other release pulls a multi-GB CUDA build); all else: newest
echo "torch==2.13.0" > "$scratch/torch.txt"
"$pip" install -q -c "$scratch/torch.txt" torch
for line in "${installs[@]}"; do
  eval "\"\$pip\" install -q -c \"\$scratch/torch.txt\" ${line#pip install }"
done
echo "== newest allowed versions that differ from constraints/ci.txt"
"$pip" freeze --exclude-editable | LC_ALL=C sort > "$scratch/latest.txt"
grep -v "^#" constraints/ci.txt | LC_ALL=C sort > "$scratch/pinned.txt" || true
LC_ALL=C comm -13 "$scratch/pinned.txt" "$scratch/latest.txt" || true
echo "== tests with the newest versions"
export PATH="$scratch/venv/bin:$PATH"
if [ "$#" -eq 0 ]; then set -- -q; fi
"$scratch/venv/bin/python" -m pytest "$@"
