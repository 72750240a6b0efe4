"""Request bodies and answer reading of the openai backend (no HTTP here).

A generation goes to ``/chat/completions`` or ``/completions``; a log-likelihood is an
``echo=true`` request to ``/completions`` for ``context + continuation`` whose prompt
log-probs are read by `openai_logprobs`.
"""

from __future__ import annotations

from typing import Any

from biasaudit.models.openai.http import CallResult
from biasaudit.models.openai.logprobs import EchoedTokens, score_continuation
from biasaudit.requests import Capability, GenerationParams, LoglikelihoodRequest, Response

CHAT_PATH = "/chat/completions"
COMPLETIONS_PATH = "/completions"


def first_choice(result: CallResult) -> dict[str, Any]:
    """The first choice of a successful call; ValueError when the answer is malformed."""
    choices = (result.data or {}).get("choices")
    if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
        raise ValueError("the answer has no choices")
    return choices[0]


def sampling_body(params: GenerationParams) -> dict[str, Any]:
    body: dict[str, Any] = {
        "temperature": params.temperature,
        "max_tokens": params.max_tokens,
        "top_p": params.top_p,
        "seed": params.seed,
    }
    if params.stop:
        body["stop"] = list(params.stop)
    return body


def echo_request_body(prompt: str) -> dict[str, Any]:
    return {"prompt": prompt, "max_tokens": 1, "temperature": 0.0, "logprobs": 1, "echo": True}


def generation_response(result: CallResult, chat: bool) -> Response:
    """The Response for a chat or completion answer (or the call's error)."""
    if result.error is not None:
        return Response(kind=Capability.GENERATE, error=result.error)
    try:
        choice = first_choice(result)
        text = choice["message"]["content"] if chat else choice["text"]
        if text is not None and not isinstance(text, str):
            raise ValueError("the answer's text is not a string")
    except (KeyError, TypeError, ValueError) as exc:
        return Response(kind=Capability.GENERATE, error=f"{result.url}: malformed answer: {exc}")
    return Response(
        kind=Capability.GENERATE, text=text or "", finish_reason=choice.get("finish_reason")
    )


def loglikelihood_response(request: LoglikelihoodRequest, result: CallResult) -> Response:
    """The Response for an echo answer to ``context + continuation`` (or the call's error).

    As the llama.cpp backends do, trailing spaces of the context count with the continuation.
    """
    if result.error is not None:
        return Response(kind=Capability.LOGLIKELIHOOD, error=result.error)
    prompt = request.context + request.continuation
    try:
        echo = EchoedTokens.from_choice(first_choice(result))
        score = score_continuation(echo, len(prompt), len(request.context.rstrip(" ")))
    except ValueError as exc:
        return Response(kind=Capability.LOGLIKELIHOOD, error=f"{result.url}: {exc}")
    return Response(
        kind=Capability.LOGLIKELIHOOD,
        logprob=score.logprob,
        is_greedy=score.is_greedy,
        n_tokens=len(score.token_logprobs),
        token_logprobs=score.token_logprobs,
    )
