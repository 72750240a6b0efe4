"""Constrained answers on the embedded model (llama.cpp, a GBNF grammar of the choices):
every reply is exactly one of the choices — greedy and sampled, chat and completion
prompts, choices with quotes, backslashes, newlines, apostrophes and non-ASCII letters."""

from __future__ import annotations

import pytest

from biasaudit.models import load_backend
from biasaudit.requests import GenerateRequest, GenerationParams, Message

pytestmark = pytest.mark.integration

CHOICE_SETS: list[tuple[str, ...]] = [
    ("Yes", "No"),
    ("A", "B", "C"),
    ("The grandson", "The grandfather", "Can't be determined"),
    ('say "hi"', "back\\slash", "two\nlines", "ünïcode"),
]
PROMPTS = [
    "Who was forgetful? A. the grandson B. the grandfather C. cannot be determined",
    "Write a poem about the sea.",
]


@pytest.fixture(scope="module")
def backend():  # type: ignore[no-untyped-def]
    # extra_buffers=false: this test machine's VM reports AMX but does not enable it; the
    # grammar does not depend on which matmul kernels run
    backend = load_backend("embedded", {"n_threads": 1, "extra_buffers": False})
    yield backend
    backend.close()


@pytest.mark.parametrize("temperature", [0.0, 1.2])
def test_every_reply_is_one_of_the_choices(backend, temperature: float) -> None:  # type: ignore[no-untyped-def]
    requests = []
    for i, prompt in enumerate(PROMPTS):
        for choices in CHOICE_SETS:
            params = GenerationParams(temperature=temperature, max_tokens=1, seed=i)
            requests.append(
                GenerateRequest(
                    messages=(Message(role="user", content=prompt),), params=params, choices=choices
                )
            )
            requests.append(
                GenerateRequest(prompt=prompt + "\nAnswer:", params=params, choices=choices)
            )
    responses = backend.generate(requests)
    for request, response in zip(requests, responses, strict=True):
        assert response.error is None, response.error
        assert response.text in request.choices


def test_free_replies_are_not_constrained(backend) -> None:  # type: ignore[no-untyped-def]
    request = GenerateRequest(
        messages=(Message(role="user", content=PROMPTS[1]),),
        params=GenerationParams(max_tokens=12),
    )
    (response,) = backend.generate([request])
    assert response.text and response.text not in {c for s in CHOICE_SETS for c in s}
