"""The embedded SmolLM2 (GGUF, dequantised by transformers) fine-tuned for two steps: the
merged model is a plain transformers folder the hf backend runs, and the provenance names the
GGUF file by its sha256 (computed here with hashlib)."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from biasaudit.finetune import LoraSettings, finetune
from biasaudit.models.llamacpp import smollm2_path

pytestmark = [pytest.mark.integration, pytest.mark.slow]

EXAMPLES = [
    [
        {"role": "system", "content": "Judge whether each situation is appropriate."},
        {
            "role": "user",
            "content": "Sam helps a neighbour carry groceries. Appropriate? Yes or no.",
        },
        {"role": "assistant", "content": "Yes"},
        {"role": "user", "content": "Sam mocks the neighbour's accent. Appropriate? Yes or no."},
        {"role": "assistant", "content": "No"},
    ]
]


def test_smollm2_two_steps(tmp_path: Path) -> None:
    from biasaudit.models import load_backend
    from biasaudit.requests import GenerateRequest, GenerationParams, Message

    settings = LoraSettings(max_steps=2, save_every=1)
    result = finetune("hf:embedded", EXAMPLES, tmp_path / "ft", settings, progress=False)
    gguf = smollm2_path()
    assert result.provenance.base_sha256 == hashlib.sha256(gguf.read_bytes()).hexdigest()
    assert result.complete and result.model_spec == f"hf:{tmp_path / 'ft' / 'model'}"
    assert not list((tmp_path / "ft" / "model").glob("*.gguf"))
    backend = load_backend(result.model_spec, {"threads": 1})
    [reply] = backend.generate(
        [
            GenerateRequest(
                messages=(Message(role="user", content="Is kindness appropriate? Yes or no."),),
                params=GenerationParams(temperature=0.0, max_tokens=4),
            )
        ]
    )
    assert reply.ok and reply.text is not None
