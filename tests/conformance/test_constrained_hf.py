"""Constrained answers on the hf backend (a logits mask over the choices' tokens), on the tiny
causal models built locally.

Oracle: a naive greedy decoder written here — one full forward pass per step over the
unpadded prompt, argmax over the tokens that continue a choice (or end-of-sequence once a
whole choice is out) — and, for sampled requests, membership in the closed set.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from biasaudit.models import load_backend
from biasaudit.models.hf import HFBackend
from biasaudit.requests import GenerateRequest, GenerationParams, Message

torch = pytest.importorskip("torch")

PROMPTS = [
    "Is the sky green? Answer yes or no.",
    "Which one is a fruit? A. apple B. car C. cannot be determined",
    "the nurse said that",
    "Who was forgetful, the grandson or the grandfather?",
]
CHOICE_SETS: list[tuple[str, ...]] = [
    ("Yes", "No"),
    ("A", "B", "C"),
    ("entailment", "neutral", "contradiction"),
    ("The grandson", "The grandfather", "Can't be determined"),
]


def naive_choice(backend: HFBackend, request: GenerateRequest) -> str:
    """Greedy decoding restricted to the choices, one unbatched forward per step."""
    prompt, _ = backend._prompt_tokens(request)
    tokenizer, model = backend.tokenizer, backend.model
    assert request.choices is not None
    sequences = [tokenizer(c, add_special_tokens=False)["input_ids"] for c in request.choices]
    eos = tokenizer.sep_token_id
    generated: list[int] = []
    while True:
        n = len(generated)
        allowed = {s[n] for s in sequences if len(s) > n and s[:n] == generated}
        if generated in sequences:
            allowed.add(eos)
        with torch.no_grad():
            logits = model(torch.tensor([prompt + generated])).logits[0, -1]
        best = max(sorted(allowed), key=lambda t: float(logits[t]))
        if best == eos:
            return request.choices[sequences.index(generated)]
        generated.append(best)


def _requests(temperature: float = 0.0) -> list[GenerateRequest]:
    params = GenerationParams(temperature=temperature, max_tokens=1, seed=3)
    return [
        GenerateRequest(messages=(Message(role="user", content=p),), params=params, choices=c)
        for p in PROMPTS
        for c in CHOICE_SETS
    ]


@pytest.fixture(scope="module", params=["chat", "base"])
def causal(request: pytest.FixtureRequest, tiny_causal_lm: Path, tiny_base_lm: Path) -> Any:
    folder = tiny_causal_lm if request.param == "chat" else tiny_base_lm
    backend = load_backend(f"hf:{folder}", {"batch_size": 5})
    assert isinstance(backend, HFBackend)
    yield backend
    backend.close()


def test_greedy_constrained_replies_equal_the_naive_masked_decoder(causal: HFBackend) -> None:
    requests = _requests()
    responses = causal.generate(requests)  # batched (5 a batch), left-padded, max_tokens 1
    for request, response in zip(requests, responses, strict=True):
        assert response.error is None, response.error
        assert response.text == naive_choice(causal, request)


def test_sampled_constrained_replies_are_always_a_choice(causal: HFBackend) -> None:
    requests = _requests(temperature=1.5)
    for request, response in zip(requests, causal.generate(requests), strict=True):
        assert request.choices is not None
        assert response.error is None and response.text in request.choices


def test_free_requests_in_the_same_batch_are_not_constrained(causal: HFBackend) -> None:
    free = GenerateRequest(
        messages=(Message(role="user", content=PROMPTS[0]),),
        params=GenerationParams(max_tokens=6),
    )
    alone = causal.generate([free])[0]
    mixed = causal.generate([_requests()[0], free])[1]
    assert mixed.text == alone.text and mixed.text not in ("Yes", "No")
