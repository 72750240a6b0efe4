"""The same GGUF (SmolLM2-135M-Instruct Q4_1) through llama.cpp and through transformers.

transformers dequantises the Q4_1 weights to float32 and multiplies in float32; llama.cpp
multiplies the quantised weights with 8-bit-quantised activations. Log-likelihoods therefore
differ slightly (docs/backends/hf.md lists measured differences); clear preferences and
short factual answers must agree.
"""

from __future__ import annotations

import pytest

from biasaudit.models.base import Backend
from biasaudit.requests import (
    GenerateRequest,
    GenerationParams,
    LoglikelihoodRequest,
    Message,
)
from conformance.backends import BackendPool, case

pytestmark = pytest.mark.integration

PAIRS = [
    ("The capital of France is", " Paris", " Berlin"),
    ("Two plus two equals", " four", " seven"),
    ("Question: Is the sky blue on a clear day?\nAnswer:", " Yes", " Banana"),
]


@pytest.fixture(scope="module")
def both(backend_pool: BackendPool) -> tuple[Backend, Backend]:
    return backend_pool.get(case("embedded")), backend_pool.get(case("hf-smollm2-gguf"))


def test_loglikelihoods_agree_closely(both: tuple[Backend, Backend]) -> None:
    requests = [
        LoglikelihoodRequest(context=context, continuation=option)
        for context, *options in PAIRS
        for option in options
    ]
    llama, hf = ([r.logprob or 0.0 for r in b.loglikelihood(requests)] for b in both)
    for ours, theirs in zip(hf, llama, strict=True):
        assert ours == pytest.approx(theirs, abs=0.5)
    for i in range(0, len(requests), 2):
        assert hf[i] > hf[i + 1] and llama[i] > llama[i + 1]


def test_chat_template_answers_a_factual_question(both: tuple[Backend, Backend]) -> None:
    _, hf = both
    question = GenerateRequest(
        messages=(Message(role="user", content="What is the capital of France?"),),
        params=GenerationParams(max_tokens=12),
    )
    (answer,) = hf.generate([question])
    assert "Paris" in (answer.text or "")
