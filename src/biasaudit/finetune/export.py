"""Saving a causal LM as a plain transformers folder, GGUF-loaded ones included.

transformers refuses `save_pretrained` on a model loaded from a GGUF file ("not
serializable"), although its weights are plain dequantised float tensors. `save_plain` writes
them as safetensors with a config without the quantisation marker (tied embeddings stored
once, as transformers does), plus the generation config and the tokenizer, so
``hf:FOLDER`` loads the result without the GGUF. `convert_gguf` does this for a GGUF file
(``scripts/gguf_to_hf.py`` on the command line).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any


def save_plain(model: Any, tokenizer: Any, out: Path) -> Path:
    import torch
    from safetensors.torch import save_file

    out.mkdir(parents=True, exist_ok=True)
    if getattr(model, "hf_quantizer", None) is None:
        model.save_pretrained(out)
    else:
        state = {k: v.detach().cpu().contiguous() for k, v in model.state_dict().items()}
        if getattr(model.config, "tie_word_embeddings", False):
            state.pop("lm_head.weight", None)
        save_file(state, str(out / "model.safetensors"), metadata={"format": "pt"})
        config = model.config
        if hasattr(config, "quantization_config"):
            del config.quantization_config
        config.torch_dtype = torch.float32
        config.save_pretrained(out)
        model.generation_config.save_pretrained(out)
    tokenizer.save_pretrained(out)
    return out


def convert_gguf(gguf: Path, out: Path) -> Path:
    """The GGUF file dequantised into a float32 transformers folder (no download)."""
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    folder, name = str(gguf.parent), gguf.name
    tokenizer = AutoTokenizer.from_pretrained(folder, gguf_file=name, local_files_only=True)
    model = AutoModelForCausalLM.from_pretrained(
        folder, gguf_file=name, dtype=torch.float32, local_files_only=True
    )
    return save_plain(model, tokenizer, out)
