"""The openai backend against a real OpenAI-compatible server (llama-cpp-python on loopback)."""

from __future__ import annotations

import json
from collections.abc import Iterator

import httpx
import pytest
from openai_proxy import FaultyProxy
from openai_server import RunningServer, openai_server  # noqa: F401  (session fixture)

from biasaudit.errors import BackendError, CapabilityError
from biasaudit.models import load_backend
from biasaudit.models.base import Backend
from biasaudit.models.openai import PROBE_TEXT
from biasaudit.requests import (
    Capability,
    GenerateRequest,
    GenerationParams,
    LoglikelihoodRequest,
    Message,
)

pytestmark = pytest.mark.integration

SECRET = "sk-integration-test-secret-4711"
GREEDY = GenerationParams(temperature=0.0, max_tokens=12, seed=0)
REQUESTS = [
    GenerateRequest(messages=(Message(role="user", content="Name a colour."),), params=GREEDY),
    GenerateRequest(
        messages=(
            Message(role="system", content="Answer with one word."),
            Message(role="user", content="Is the sky blue?"),
        ),
        params=GREEDY,
    ),
    GenerateRequest(prompt="The capital of France is", params=GREEDY),
    GenerateRequest(prompt="Count: 1, 2, 3,", params=GREEDY.model_copy(update={"stop": (",",)})),
]


def separate(backend: Backend) -> None:
    """Send an unrelated prompt, so the next request does not repeat the previous one
    (llama.cpp answers a repeated prompt with other logits: see openai_server's docstring)."""
    backend.generate([GenerateRequest(prompt="Zebras", params=GenerationParams(max_tokens=1))])


@pytest.fixture(scope="module")
def backend(openai_server: RunningServer) -> Iterator[Backend]:  # noqa: F811
    loaded = load_backend(f"openai:smollm2@{openai_server.base_url}", {"concurrency": 2})
    yield loaded
    loaded.close()


def test_probe_refuses_misaligned_prompt_logprobs(backend: Backend) -> None:
    assert backend.capabilities == {Capability.GENERATE}
    assert "misaligned" in backend.identity()["loglikelihood"]
    with pytest.raises(CapabilityError):
        backend.dispatch(
            Capability.LOGLIKELIHOOD, [LoglikelihoodRequest(context="A", continuation=" B")]
        )


def test_the_probe_verdict_is_right(openai_server: RunningServer) -> None:  # noqa: F811
    """Independent evidence: in-process llama.cpp on the same GGUF scores the probe's greedy
    token like the server's generation does, and not like the server's echo."""
    url = f"{openai_server.base_url}/completions"
    body = {"prompt": PROBE_TEXT, "max_tokens": 1, "temperature": 0.0, "logprobs": 1}
    generated = httpx.post(url, json=body, timeout=120).json()["choices"][0]["logprobs"]
    token, generated_lp = generated["tokens"][0], generated["token_logprobs"][0]
    body.update(prompt=PROBE_TEXT + token, echo=True)
    echoed = httpx.post(url, json=body, timeout=120).json()["choices"][0]["logprobs"]
    echoed_lp = echoed["token_logprobs"][echoed["text_offset"].index(len(PROBE_TEXT))]
    embedded = load_backend("embedded")
    try:
        (truth,) = embedded.loglikelihood(
            [LoglikelihoodRequest(context=PROBE_TEXT, continuation=token)]
        )
    finally:
        embedded.close()
    assert truth.logprob is not None
    assert abs(generated_lp - truth.logprob) < 0.05
    assert abs(echoed_lp - truth.logprob) > 1.0


def test_identity_reports_the_served_model(backend: Backend, openai_server: RunningServer) -> None:  # noqa: F811
    ident = backend.identity()
    assert ident["base_urls"] == [openai_server.base_url]
    # llama-cpp-python lists its one model under the file path and accepts any name.
    assert ident["listed_models"] == [str(openai_server.model_path)]
    assert ident["served_model"] == str(openai_server.model_path)
    assert openai_server.model_path.name in backend.fingerprint()


def test_greedy_generation_is_deterministic_and_honours_stop(backend: Backend) -> None:
    separate(backend)
    first = backend.generate(REQUESTS)
    separate(backend)
    second = backend.generate(REQUESTS[::-1])[::-1]
    assert all(r.ok for r in first + second), [r.error for r in first + second]
    assert [r.text for r in first] == [r.text for r in second]
    assert all(r.text for r in first)
    assert first[3].text is not None and "," not in first[3].text
    assert first[3].finish_reason == "stop"


def test_requests_are_mapped_to_the_openai_api(
    backend: Backend,
    openai_server: RunningServer,  # noqa: F811
) -> None:
    """The backend's answers equal what the server gives for the documented request bodies."""
    base = {"model": "smollm2", "temperature": 0.0, "max_tokens": 12, "top_p": 1.0, "seed": 0}
    chat = {**base, "messages": [{"role": "user", "content": "Name a colour."}]}
    completion = {**base, "prompt": "Count: 1, 2, 3,", "stop": [","]}
    separate(backend)
    with httpx.Client(base_url=openai_server.base_url, timeout=120) as client:
        chat_text = client.post("/chat/completions", json=chat).json()["choices"][0]["message"]
        completion_text = client.post("/completions", json=completion).json()["choices"][0]
    answers = [backend.generate([request])[0] for request in (REQUESTS[0], REQUESTS[3])]
    assert [a.text for a in answers] == [chat_text["content"], completion_text["text"]]


def test_completions_mode_renders_chat_as_a_transcript(openai_server: RunningServer) -> None:  # noqa: F811
    transcript = load_backend(
        f"openai:smollm2@{openai_server.base_url}", {"mode": "completions", "concurrency": 1}
    )
    try:
        assert transcript.chat_as_transcript is True
        assert '"mode": "completions"' in transcript.fingerprint()
        (answer,) = transcript.generate(REQUESTS[:1])
    finally:
        transcript.close()
    assert answer.ok and answer.text is not None
    assert "User:" not in answer.text


def test_two_base_urls_share_the_work(openai_server: RunningServer) -> None:  # noqa: F811
    with FaultyProxy(openai_server.base_url) as proxy:
        spread = load_backend(
            f"openai:smollm2@{openai_server.base_url},{proxy.base_url}", {"concurrency": 1}
        )
        try:
            probes = len(proxy.log)
            answers = spread.generate(REQUESTS)
            identity = spread.identity()
        finally:
            spread.close()
    assert identity["base_urls"] == [openai_server.base_url, proxy.base_url]
    assert all(a.ok for a in answers)
    # One slot per URL, taken in turn: the proxy got some of the four requests, not all.
    assert 1 <= len(proxy.log) - probes <= 3


def test_api_key_is_sent_but_never_shown(
    openai_server: RunningServer,  # noqa: F811
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("BIASAUDIT_TEST_KEY", SECRET)
    with FaultyProxy(openai_server.base_url) as proxy:
        keyed = load_backend(
            f"openai:smollm2@{proxy.base_url}", {"api_key_env": "BIASAUDIT_TEST_KEY"}
        )
        try:
            shown = [repr(keyed), keyed.fingerprint(), json.dumps(keyed.identity())]
        finally:
            keyed.close()
    assert proxy.authorizations and set(proxy.authorizations) == {f"Bearer {SECRET}"}
    assert all(SECRET not in text for text in shown)


def test_a_key_quoted_back_by_the_server_is_redacted(
    openai_server: RunningServer,  # noqa: F811
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("BIASAUDIT_TEST_KEY", SECRET)
    with (
        FaultyProxy(openai_server.base_url, always="echo_auth") as proxy,
        pytest.raises(BackendError) as info,
    ):
        load_backend(f"openai:smollm2@{proxy.base_url}", {"api_key_env": "BIASAUDIT_TEST_KEY"})
    message = str(info.value)
    assert "HTTP 401" in message and "Bearer ***" in message
    assert SECRET not in message and "\n" not in message
