"""Fine-tuning in the core: LoRA (PEFT on transformers) on chat examples, seeded, resumable.

    from biasaudit.finetune import LoraSettings, finetune, read_examples
    result = finetune("hf:embedded", read_examples("stop_ft.jsonl"), "runs/ft",
                      LoraSettings(max_steps=40))
    result.model_spec  # "hf:runs/ft/model": the merged model, usable by every command

See `trainer` for the output folder, `base` for which models can be trained and `encode`
for the loss mask. torch, transformers and peft are imported only when training starts.
"""

from biasaudit.finetune.base import trainable_base
from biasaudit.finetune.data import read_examples
from biasaudit.finetune.settings import LoraSettings, Provenance
from biasaudit.finetune.trainer import FinetuneResult, finetune

__all__ = [
    "FinetuneResult",
    "LoraSettings",
    "Provenance",
    "finetune",
    "read_examples",
    "trainable_base",
]
