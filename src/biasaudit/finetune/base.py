"""Which model specs can be fine-tuned, and the identity (hash) of a trainable base model.

Only the `hf` backend holds trainable weights in this process. Every other backend is refused
with one line that says what to use instead.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from biasaudit.errors import BackendError
from biasaudit.models.spec import parse_spec

#: Why a backend cannot be trained, and what to use instead.
_REFUSALS = {
    "embedded": "llama.cpp runs the embedded GGUF for inference only; fine-tune "
    "hf:embedded (the same SmolLM2 weights through transformers) instead",
    "gguf": "llama.cpp runs GGUF files for inference only; fine-tune hf:PATH.gguf "
    "(transformers dequantises it) or hf:FOLDER instead",
    "openai": "a remote server's weights are not in this process; fine-tune the weights "
    "with hf:FOLDER and serve the merged model",
    "replay": "replayed responses have no model; fine-tune a causal LM with hf:FOLDER",
    "st": "sentence-transformers encoders are not generative; fine-tune a causal LM with hf:FOLDER",
    "embedded-st": "the embedded sentence encoder is not generative; fine-tune a causal LM "
    "with hf:FOLDER",
}


@dataclass(frozen=True)
class BaseModelRef:
    """A local base model: where transformers loads it from, and its content hash."""

    spec: str
    folder: str
    gguf_file: str | None
    label: str

    def sha256(self) -> str:
        from biasaudit.hashing import folder_sha256
        from biasaudit.models.llamacpp.loading import weights_sha256

        if self.gguf_file:
            return weights_sha256(str(Path(self.folder) / self.gguf_file))
        return folder_sha256(Path(self.folder))


def trainable_base(spec: str) -> BaseModelRef:
    """The base model of `spec`, or a one-line refusal saying what to use instead."""
    from biasaudit.models.hf import HFArgs, resolve_source

    kind, target = parse_spec(spec)
    if kind != "hf":
        reason = _REFUSALS.get(kind, "only hf: models can be fine-tuned")
        raise BackendError(f"cannot fine-tune '{spec}': {reason}")
    source = resolve_source(target, HFArgs.model_validate({}))
    if not source.local:
        raise BackendError(
            f"cannot fine-tune '{spec}': hub ids are not downloaded; pass hf:FOLDER of a local copy"
        )
    return BaseModelRef(spec, source.name_or_path, source.gguf_file, source.label)
