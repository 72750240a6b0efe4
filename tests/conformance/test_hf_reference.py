"""The hf backend against independent, naive reference computations on tiny local models.

- batched PLL (all masked copies of several sentences in one forward, vocabulary projection
  only at masked positions) equals the one-mask-at-a-time, full-projection PLL;
- causal log-likelihood equals a direct sum over the full logits;
- classifier probabilities equal the softmax of a direct forward pass;
- base models without a chat template get the plain transcript.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from biasaudit.models import load_backend
from biasaudit.models.hf import HFBackend
from biasaudit.models.transcript import TRANSCRIPT_STOPS, render_transcript
from biasaudit.requests import (
    ClassifyRequest,
    GenerateRequest,
    GenerationParams,
    LoglikelihoodRequest,
    Message,
    PseudoLoglikelihoodRequest,
)

torch = pytest.importorskip("torch")

SENTENCES = [
    "The nurse helped the unbelievably tired doctor.",
    "Grandmothers can't use smartphones.",
    "He is a plumber",
    "Women are GOOD at mathematics, aren't they?",
]


def naive_pll(
    model: Any, tokenizer: Any, text: str, *, word: bool, lowercase: bool, specials: bool
) -> list[float]:
    """One masked copy per unit, one forward each, log-softmax over every position."""
    text = text.lower() if lowercase else text
    encoding = tokenizer(
        text,
        add_special_tokens=specials,
        return_special_tokens_mask=True,
        return_offsets_mapping=True,
    )
    ids = encoding["input_ids"]
    units: dict[int, list[int]] = {}
    for position, (is_special, (start, _)) in enumerate(
        zip(encoding["special_tokens_mask"], encoding["offset_mapping"], strict=True)
    ):
        if is_special:
            continue
        # word index = number of whitespace words that start at or before this character
        key = len(text[: start + 1].split()) - 1 if word else position
        units.setdefault(key, []).append(position)
    scores = []
    for positions in units.values():
        masked = list(ids)
        for position in positions:
            masked[position] = tokenizer.mask_token_id
        with torch.no_grad():
            logits = model(torch.tensor([masked])).logits[0]
        log_probs = torch.log_softmax(logits.double(), dim=-1)
        scores.append(float(sum(log_probs[p, ids[p]] for p in positions)))
    return scores


@pytest.fixture(scope="module")
def masked(tiny_masked_lm: Path) -> HFBackend:
    backend = load_backend(f"hf:{tiny_masked_lm}", {"mask_batch_size": 7})
    assert isinstance(backend, HFBackend)
    return backend


def test_masked_lm_uses_the_real_vocabulary(masked: HFBackend) -> None:
    assert len(masked.tokenizer) > 30_000
    assert masked.model.config.vocab_size == len(masked.tokenizer)


@pytest.mark.parametrize(
    ("granularity", "lowercase", "specials"),
    [("token", False, True), ("word", False, True), ("token", True, False), ("word", True, False)],
)
def test_batched_pll_equals_naive_pll(
    masked: HFBackend, granularity: str, lowercase: bool, specials: bool
) -> None:
    requests = [
        PseudoLoglikelihoodRequest(
            text=text,
            granularity=granularity,  # type: ignore[arg-type]
            lowercase=lowercase,
            add_special_tokens=specials,
        )
        for text in SENTENCES
    ]
    # mask_batch_size=7 splits the masked copies of several sentences across forward passes
    responses = masked.pseudo_loglikelihood(requests)
    for text, response in zip(SENTENCES, responses, strict=True):
        expected = naive_pll(
            masked.model,
            masked.tokenizer,
            text,
            word=granularity == "word",
            lowercase=lowercase,
            specials=specials,
        )
        assert response.token_logprobs == pytest.approx(expected, abs=1e-4)
        assert response.logprob == pytest.approx(sum(expected), abs=1e-4)
        assert response.n_tokens == len(expected)


def test_word_granularity_masks_whole_words(masked: HFBackend) -> None:
    text = "unbelievably tired"
    words, tokens = masked.pseudo_loglikelihood(
        [
            PseudoLoglikelihoodRequest(text=text, granularity="word"),
            PseudoLoglikelihoodRequest(text=text),
        ]
    )
    assert words.n_tokens == 2
    assert tokens.n_tokens == len(masked.tokenizer.tokenize(text)) > 2


def test_lowercase_and_special_tokens_flags(masked: HFBackend) -> None:
    shouting, lowered, plain, bare = masked.pseudo_loglikelihood(
        [
            PseudoLoglikelihoodRequest(text="The NURSE Smiled", lowercase=True),
            PseudoLoglikelihoodRequest(text="the nurse smiled"),
            PseudoLoglikelihoodRequest(text="The NURSE Smiled"),
            PseudoLoglikelihoodRequest(text="the nurse smiled", add_special_tokens=False),
        ]
    )
    assert shouting.token_logprobs == pytest.approx(lowered.token_logprobs, abs=1e-6)
    assert bare.n_tokens == lowered.n_tokens == 3
    assert bare.logprob != pytest.approx(lowered.logprob, abs=1e-4)
    assert plain.n_tokens is not None  # the uncased tokenizer lowercases by itself anyway


def test_empty_text_is_an_error_response(masked: HFBackend) -> None:
    empty, fine = masked.pseudo_loglikelihood(
        [PseudoLoglikelihoodRequest(text="   "), PseudoLoglikelihoodRequest(text="ok")]
    )
    assert empty.error == "nothing to score"
    assert fine.ok


def test_causal_loglikelihood_equals_full_logits(tiny_causal_lm: Path) -> None:
    backend = load_backend(f"hf:{tiny_causal_lm}")
    assert isinstance(backend, HFBackend)
    tokenizer, model = backend.tokenizer, backend.model
    requests = [
        LoglikelihoodRequest(context="the doctor said", continuation=" she was tired"),
        LoglikelihoodRequest(context="", continuation="hello world"),
    ]
    responses = backend.loglikelihood(requests)
    for request, response in zip(requests, responses, strict=True):
        context = tokenizer(request.context)["input_ids"][:-1]  # [CLS] text, without [SEP]
        continuation = tokenizer(request.continuation, add_special_tokens=False)["input_ids"]
        tokens = context + continuation
        with torch.no_grad():
            logits = model(torch.tensor([tokens])).logits[0].double()
        log_probs = torch.log_softmax(logits, dim=-1)
        expected = [
            float(log_probs[len(context) - 1 + i, token]) for i, token in enumerate(continuation)
        ]
        assert response.token_logprobs == pytest.approx(expected, abs=1e-4)
    backend.close()


def test_classifier_matches_a_direct_forward(tiny_classifier: Path) -> None:
    backend = load_backend(f"hf:{tiny_classifier}")
    assert isinstance(backend, HFBackend)
    request = ClassifyRequest(text="A man is sleeping.", text_pair="Nobody is asleep.")
    (response,) = backend.classify([request])
    inputs = backend.tokenizer(request.text, request.text_pair, return_tensors="pt")
    with torch.no_grad():
        probs = torch.softmax(backend.model(**inputs).logits[0], dim=-1).tolist()
    assert response.label_probs == pytest.approx(
        {"entailment": probs[0], "neutral": probs[1], "contradiction": probs[2]}, abs=1e-5
    )
    backend.close()


def test_base_model_chat_is_a_transcript(tiny_base_lm: Path, tiny_causal_lm: Path) -> None:
    base = load_backend(f"hf:{tiny_base_lm}")
    assert base.chat_as_transcript is True
    assert base.identity()["chat_format"] == "transcript"
    messages = (Message(role="system", content="Be brief."), Message(role="user", content="Hi"))
    params = GenerationParams(max_tokens=10)
    chat, prompt = base.generate(
        [
            GenerateRequest(messages=messages, params=params),
            GenerateRequest(
                prompt=render_transcript(messages),
                params=params.model_copy(update={"stop": TRANSCRIPT_STOPS}),
            ),
        ]
    )
    assert chat.text == prompt.text
    assert load_backend(f"hf:{tiny_causal_lm}").chat_as_transcript is False
