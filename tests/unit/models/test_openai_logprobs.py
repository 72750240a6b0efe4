"""Reading prompt log-probs from echo answers, and the probe's verdict, on hand-made answers."""

from __future__ import annotations

from typing import Any

import pytest

from biasaudit.models.openai import generation_response, loglikelihood_response
from biasaudit.models.openai.http import CallResult
from biasaudit.models.openai.logprobs import (
    EchoedTokens,
    continuation_indices,
    judge_probe,
    score_continuation,
)
from biasaudit.requests import LoglikelihoodRequest

PROMPT = "The capital of France is Paris"
CONTEXT = "The capital of France is"


def answer(
    logprobs: list[float | None] | None = None,
    top: list[dict[str, float] | None] | None = None,
    offsets: list[int] | None = None,
    tokens: list[str] | None = None,
) -> dict[str, Any]:
    """An echo answer for PROMPT (as vLLM gives it: prompt tokens, then the generated '.')."""
    return {
        "text": PROMPT + ".",
        "logprobs": {
            "tokens": tokens or ["The", " capital", " of", " France", " is", " Paris", "."],
            "text_offset": offsets or [0, 3, 11, 14, 21, 24, 30],
            "token_logprobs": logprobs or [None, -9.0, -0.5, -2.0, -0.4, -0.25, -0.3],
            "top_logprobs": top
            or [
                None,
                {" of": -0.4},
                {" of": -0.5},
                {" France": -2.0},
                {" is": -0.4},
                {" Paris": -0.25},
                {".": -0.3},
            ],
        },
    }


ALIGNED = EchoedTokens.from_choice(answer())


def test_one_token_continuation() -> None:
    score = score_continuation(ALIGNED, len(PROMPT), len(CONTEXT))
    # The generated "." (offset 30 = end of the prompt) is not part of the prompt.
    assert score.token_logprobs == [-0.25]
    assert score.logprob == -0.25
    assert score.is_greedy is True


def test_several_tokens_sum() -> None:
    score = score_continuation(ALIGNED, len(PROMPT), len("The capital of"))
    assert score.token_logprobs == [-2.0, -0.4, -0.25]
    assert score.logprob == pytest.approx(-2.65)
    assert score.is_greedy is True


def test_not_greedy_when_a_token_is_not_the_best_of_its_position() -> None:
    score = score_continuation(ALIGNED, len(PROMPT), len("The"))
    assert score.logprob == pytest.approx(-9.0 - 0.5 - 2.0 - 0.4 - 0.25)
    assert score.is_greedy is False


def test_token_straddling_the_boundary_counts_with_the_continuation() -> None:
    # context "The capital of France is Pa" + continuation "ris": " Paris" starts in the context.
    assert continuation_indices(ALIGNED, len(PROMPT), len("The capital of France is Pa")) == [5]


def test_greedy_unknown_without_top_logprobs() -> None:
    raw = answer()
    del raw["logprobs"]["top_logprobs"]
    score = score_continuation(EchoedTokens.from_choice(raw), len(PROMPT), len(CONTEXT))
    assert score.logprob == -0.25
    assert score.is_greedy is None


def test_empty_context_cannot_be_scored() -> None:
    with pytest.raises(ValueError, match="empty context"):
        score_continuation(ALIGNED, len(PROMPT), 0)


def test_answer_without_echo_is_refused() -> None:
    raw = answer(tokens=["."], offsets=[30], logprobs=[-0.3], top=[{".": -0.3}])
    with pytest.raises(ValueError, match="did not echo"):
        score_continuation(EchoedTokens.from_choice(raw), len(PROMPT), len(CONTEXT))


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda lp: lp.pop("token_logprobs"), "lack tokens or token_logprobs"),
        (lambda lp: lp.pop("text_offset"), "lack text_offset"),
        (lambda lp: lp["tokens"].pop(), "differ in length"),
        (lambda lp: lp.update(text_offset=[0, 3, 11, 14, 21, 20, 30]), "offsets decrease"),
    ],
)
def test_malformed_logprobs_are_named(mutate: Any, message: str) -> None:
    raw = answer()
    mutate(raw["logprobs"])
    with pytest.raises(ValueError, match=message):
        EchoedTokens.from_choice(raw)


def test_missing_logprobs_block() -> None:
    with pytest.raises(ValueError, match="no logprobs"):
        EchoedTokens.from_choice({"text": "x"})


# -- the probe -----------------------------------------------------------------------------


def test_probe_accepts_aligned_prompt_logprobs() -> None:
    assert judge_probe(" Paris", -0.26, ALIGNED, PROMPT, len(CONTEXT)) is None


def test_probe_rejects_llama_cpp_python_shifted_echo() -> None:
    # llama-cpp-python scores each echoed token under the distribution after itself: " Paris"
    # gets log P(" Paris" | "... is Paris") and the best entry of its position is ".".
    shifted = answer(
        logprobs=[None, -9.6, -10.46, -11.23, -11.79, -8.69],
        top=[
            None,
            {" of": -0.41, " capital": -9.6},
            {" the": -1.99, " of": -10.46},
            {" is": -0.43, " France": -11.23},
            {" Paris": -0.26, " is": -11.79},
            {".": -0.39, " Paris": -8.69},
        ],
        offsets=[0, 3, 11, 14, 21, 24],
        tokens=["The", " capital", " of", " France", " is", " Paris"],
    )
    reason = judge_probe(" Paris", -0.26, EchoedTokens.from_choice(shifted), PROMPT, len(CONTEXT))
    assert reason is not None
    assert "misaligned" in reason
    assert "-0.260" in reason and "-8.690" in reason


def test_probe_rejects_a_greedy_token_that_is_not_best_when_echoed() -> None:
    wrong_top = answer(top=[None, None, None, None, None, {" Paris": -0.25, " London": -0.1}, None])
    reason = judge_probe(" Paris", -0.25, EchoedTokens.from_choice(wrong_top), PROMPT, 24)
    assert reason is not None
    assert "not the most likely" in reason


def test_probe_is_inconclusive_when_the_echo_splits_the_token() -> None:
    split = answer(
        tokens=["The", " capital", " of", " France", " is", " Pa", "ris"],
        offsets=[0, 3, 11, 14, 21, 24, 27],
    )
    reason = judge_probe(" Paris", -0.25, EchoedTokens.from_choice(split), PROMPT, 24)
    assert reason is not None
    assert reason.startswith("inconclusive")


def test_probe_rejects_a_server_that_does_not_echo() -> None:
    raw = answer(tokens=["."], offsets=[30], logprobs=[-0.3], top=[{".": -0.3}])
    assert judge_probe(" Paris", -0.25, EchoedTokens.from_choice(raw), PROMPT, 24) == (
        "the server did not echo the prompt"
    )


# -- the backend's responses -------------------------------------------------------------


def test_loglikelihood_response_from_an_echo_answer() -> None:
    request = LoglikelihoodRequest(context="The capital of France is ", continuation="Paris")
    response = loglikelihood_response(
        request, CallResult(url="http://h/v1", data={"choices": [answer()]})
    )
    # The context's trailing space moves to the continuation: " Paris" is one token.
    assert (response.logprob, response.n_tokens, response.is_greedy) == (-0.25, 1, True)
    assert response.token_logprobs == [-0.25]


def test_loglikelihood_response_names_the_server_on_a_bad_answer() -> None:
    request = LoglikelihoodRequest(context="", continuation=PROMPT)
    response = loglikelihood_response(
        request, CallResult(url="http://h/v1", data={"choices": [answer()]})
    )
    assert response.error is not None and response.error.startswith("http://h/v1: ")


@pytest.mark.parametrize(
    ("data", "chat", "text"),
    [
        ({"choices": [{"message": {"content": "Hi"}, "finish_reason": "stop"}]}, True, "Hi"),
        ({"choices": [{"message": {"content": None}, "finish_reason": "stop"}]}, True, ""),
        ({"choices": [{"text": " Paris", "finish_reason": "length"}]}, False, " Paris"),
    ],
)
def test_generation_response(data: dict[str, Any], chat: bool, text: str) -> None:
    response = generation_response(CallResult(url="http://h/v1", data=data), chat)
    assert response.ok and response.text == text


@pytest.mark.parametrize(
    "data", [{}, {"choices": []}, {"choices": [{"text": 3}]}, {"choices": [{"message": {}}]}]
)
def test_malformed_generation_answers_become_errors(data: dict[str, Any]) -> None:
    response = generation_response(CallResult(url="http://h/v1", data=data), chat=False)
    assert response.error is not None and "malformed answer" in response.error
