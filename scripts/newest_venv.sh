# Sourced by lock_constraints.sh and check_latest.sh: a scratch venv ($scratch/venv, pip in
# $pip) holding the README's install block (what CI and users run) resolved to the newest
# versions pyproject.toml's ranges allow, without the constraints file; torch stays the CPU
# build (any other release pulls a multi-GB CUDA build). Expects $python; removes $scratch at exit.
mapfile -t installs < <(awk '/<!-- ci:install -->/{on=1; next} /<!-- \/ci:install -->/{on=0}
  on && /^pip install/' README.md | sed 's| -c constraints/ci.txt||')
[ "${#installs[@]}" -gt 0 ] || { echo "$0: no pip install line in README.md's ci:install block" >&2; exit 2; }

scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
"$python" -m venv "$scratch/venv"
pip="$scratch/venv/bin/pip"
"$pip" install -q --upgrade pip
echo "torch==2.13.0" > "$scratch/torch.txt"
"$pip" install -q -c "$scratch/torch.txt" torch
for line in "${installs[@]}"; do
  eval "\"\$pip\" install -q -c \"\$scratch/torch.txt\" ${line#pip install }"
done
