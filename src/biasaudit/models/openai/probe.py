"""The start-up probe of one base URL of the openai backend.

It lists the models, checks that a generation answers in the expected shape, and checks
prompt log-probs: the greedy token after `PROBE_TEXT` is generated, then text + token are
echoed and the two log-probs compared (`openai_logprobs.judge_probe`).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

import httpx

from biasaudit.errors import BackendError
from biasaudit.models.openai.bodies import (
    CHAT_PATH,
    COMPLETIONS_PATH,
    echo_request_body,
    first_choice,
    generation_response,
)
from biasaudit.models.openai.http import CallResult, Transport
from biasaudit.models.openai.logprobs import EchoedTokens, judge_probe

#: The probe: the greedy token after this text is generated, then echoed and compared.
PROBE_TEXT = "The capital of France is"


@dataclass(frozen=True)
class ServerInfo:
    """What the start-up probe learnt about one base URL."""

    url: str
    #: Model ids listed by GET /models (None when the server has no such endpoint).
    listed_models: list[str] | None
    #: The model id the server reported when answering the probe.
    served_model: str
    #: None when prompt log-probs passed the probe, else why not.
    loglikelihood_problem: str | None


def _post_for_logprobs(
    transport: Transport, url: str, body: dict[str, Any], label: str, deadline: float
) -> EchoedTokens:
    """POST to /completions and read the answer's logprobs; ValueError says what failed."""
    result = transport.post(url, COMPLETIONS_PATH, body, deadline)
    if result.error is not None:
        raise ValueError(f"{label} failed: {result.error}")
    try:
        return EchoedTokens.from_choice(first_choice(result))
    except ValueError as exc:
        raise ValueError(f"{label}: {exc}") from None


def _probe_loglikelihood(
    transport: Transport, url: str, base: dict[str, Any], deadline: float
) -> str | None:
    """Generate one greedy token after PROBE_TEXT, echo text + token, compare log-probs."""
    greedy = {"prompt": PROBE_TEXT, "max_tokens": 1, "temperature": 0.0, "logprobs": 1}
    try:
        first = _post_for_logprobs(transport, url, {**base, **greedy}, "/completions", deadline)
        if not first.tokens or first.logprobs[0] is None:
            return "/completions returns no log-prob for the generated token"
        token, logprob = first.tokens[0], float(first.logprobs[0])
        prompt = PROBE_TEXT + token
        echo_body = {**base, **echo_request_body(prompt)}
        echo = _post_for_logprobs(transport, url, echo_body, "/completions with echo", deadline)
    except ValueError as exc:
        return str(exc)
    return judge_probe(token, logprob, echo, prompt, len(PROBE_TEXT))


def probe_server(
    transport: Transport,
    url: str,
    model: str,
    mode: str,
    extra_body: dict[str, Any],
    startup_timeout: float = 60.0,
) -> ServerInfo:
    """List the models, check that generation answers in the expected shape, and probe
    prompt log-probs, all within `startup_timeout` seconds."""
    deadline = time.monotonic() + startup_timeout
    try:
        status, listing = transport.get(url, "/models", startup_timeout)
    except httpx.TimeoutException:
        raise BackendError(
            f"the server at {url} did not answer GET /models within "
            f"{min(startup_timeout, transport.timeout):g}s"
        ) from None
    except httpx.HTTPError as exc:
        raise BackendError(
            f"cannot reach the OpenAI-compatible server at {url} ({type(exc).__name__})"
        ) from None
    if status in (401, 403):
        raise BackendError(
            f"the server at {url} refused the API key (HTTP {status}); set the variable "
            f"named by api_key_env"
        )
    if status not in (200, 404):
        raise BackendError(f"the server at {url} answered GET /models with HTTP {status}")
    listed = None
    if isinstance(listing, dict) and isinstance(listing.get("data"), list):
        listed = [str(m.get("id")) for m in listing["data"] if isinstance(m, dict)]
    base = {**extra_body, "model": model}
    body: dict[str, Any] = {"messages": [{"role": "user", "content": "Hi"}]}
    path = CHAT_PATH
    if mode == "completions":
        path, body = COMPLETIONS_PATH, {"prompt": PROBE_TEXT}
    answered = transport.post(
        url, path, {**base, **body, "max_tokens": 1, "temperature": 0.0}, deadline
    )
    # The same reading as every later answer, so a server that answers JSON of the wrong
    # shape is refused here instead of failing every request of the run.
    checked = generation_response(answered, path == CHAT_PATH)
    if checked.error is not None:
        hint = " (for a base model without a chat template use mode=completions)"
        raise BackendError(
            f"the server at {url} does not generate: {checked.error}"
            + (hint if mode == "chat" and answered.error is not None else "")
        )
    problem = _probe_loglikelihood(transport, url, base, deadline)
    return ServerInfo(url, listed, _served_model(model, listed, answered), problem)


def _served_model(model: str, listed: list[str] | None, answered: CallResult) -> str:
    """The id of the model behind `model`: as listed by /models when that is unambiguous
    (llama.cpp-style servers list their one model under its file path and accept any name),
    else the id the server reported in its answer."""
    if listed and model in listed:
        return model
    if listed and len(listed) == 1:
        return listed[0]
    return str((answered.data or {}).get("model") or model)
