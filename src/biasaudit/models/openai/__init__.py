"""Any OpenAI-compatible server (vLLM, llama.cpp server, Ollama): ``openai:MODEL@BASE_URL``.

Chat requests go to ``/chat/completions`` (or, with ``mode=completions``, are rendered as a
plain transcript for base models and sent to ``/completions``); prompt requests go to
``/completions``. Log-likelihoods need prompt log-probs from ``/completions`` with
``echo=true``, which many servers do not return or return wrongly, so the capability is
offered only when a probe at start-up shows that they are right (see `openai_logprobs`).

Several base URLs (``MODEL@URL1,URL2``) serve one run together; each must serve the same model.
The API key is read from an environment variable (``api_key_env``, default OPENAI_API_KEY)
and is never stored where it could be printed, cached or written to results.

Start-up probes are in `openai_probe`, request bodies and answer reading in `openai_bodies`,
the HTTP transport in `openai_http`.
"""

from __future__ import annotations

import json
import os
import re
import time
from collections.abc import Sequence
from typing import Any, ClassVar, Literal

import httpx
from pydantic import BaseModel, ConfigDict, Field

from biasaudit.errors import BackendError, CapabilityError
from biasaudit.models.base import Backend
from biasaudit.models.choices import (
    PROBE_CHOICES,
    PROBE_PROMPT,
    checked_choice,
    guided_choice_problem,
    longest_bytes,
    token_budget,
)
from biasaudit.models.openai.bodies import (
    CHAT_PATH,
    COMPLETIONS_PATH,
    echo_request_body,
    generation_response,
    loglikelihood_response,
    sampling_body,
)
from biasaudit.models.openai.http import RetryPolicy, Transport, make_redactor, secret_spans
from biasaudit.models.openai.probe import PROBE_TEXT, ServerInfo, probe_server
from biasaudit.models.openai.startup import Reprober, probe_all
from biasaudit.models.transcript import TRANSCRIPT_STOPS, render_transcript
from biasaudit.options import parse_options
from biasaudit.requests import (
    Capability,
    GenerateRequest,
    GenerationParams,
    LoglikelihoodRequest,
    Message,
    Response,
)

# names tests and scripts import from here (they moved to openai_bodies / openai_probe)
__all__ = [
    "CHAT_PATH",
    "COMPLETIONS_PATH",
    "PROBE_TEXT",
    "OpenAIArgs",
    "OpenAIBackend",
    "ServerInfo",
    "generation_response",
    "loglikelihood_response",
    "make_transport",
    "parse_args",
    "parse_target",
    "probe_server",
]

_SPEC = re.compile(r"^(?P<model>.+?)@(?P<urls>https?://.+)$")


class OpenAIArgs(BaseModel):
    """Model arguments of the openai backend (``--model-arg key=value``)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    #: Requests in flight per base URL.
    concurrency: int = Field(8, ge=1, le=512)
    #: Overall deadline of one attempt in seconds (connect, send, and the whole answer): a
    #: server that hangs or trickles its answer fails the attempt after this long.
    timeout: float = Field(120.0, gt=0, le=86400)
    #: Seconds to wait for a TCP/TLS connection (capped by timeout).
    connect_timeout: float = Field(10.0, gt=0, le=3600)
    #: Seconds the start-up checks of one base URL may take in all (listing, generation and
    #: log-prob probes, retries included) before the run is refused.
    startup_timeout: float = Field(60.0, gt=0, le=86400)
    #: Retries of a failed request (so at most max_retries + 1 attempts).
    max_retries: int = Field(5, ge=0, le=20)
    #: Environment variable holding the API key (unset: no Authorization header).
    api_key_env: str = "OPENAI_API_KEY"
    #: How chat requests are served: the server's chat template, or a plain transcript
    #: sent to /completions (base models without a chat template).
    mode: Literal["chat", "completions"] = "chat"
    #: Requests per runner batch; default 4 x concurrency x number of base URLs.
    batch_size: int | None = Field(None, ge=1)
    #: Extra JSON fields merged into every request body (e.g. {"top_k": 1}).
    extra_body: dict[str, Any] = Field(default_factory=dict)


def parse_target(target: str) -> tuple[str, list[str]]:
    """``MODEL@URL1,URL2`` -> (model, [url1, url2]) with trailing slashes removed."""
    match = _SPEC.match(target.strip())
    if match is None:
        raise BackendError(
            f"openai backend needs MODEL@BASE_URL (e.g. openai:llama3@http://127.0.0.1:8000/v1), "
            f"got '{target}'"
        )
    urls = [u.strip().rstrip("/") for u in match["urls"].split(",")]
    for url in urls:
        try:
            parsed = httpx.URL(url)
        except httpx.InvalidURL:
            raise BackendError(f"openai backend: '{url}' is not a valid URL") from None
        if parsed.scheme not in ("http", "https") or not parsed.host:
            raise BackendError(f"openai backend: '{url}' is not an http(s) URL")
        if parsed.port is not None and not 0 < parsed.port < 65536:
            raise BackendError(f"openai backend: '{url}': port {parsed.port} is out of range")
        if any(_CREDENTIAL.search(k) for k, _ in parsed.params.multi_items()):
            raise BackendError(
                "openai backend: put credentials in an environment variable (api_key_env), "
                "not in the base URL's query"
            )
        if _KEY_LIKE.search(url.split("://", 1)[-1]):
            raise BackendError(
                "openai backend: the base URL holds what looks like an API key; put "
                "credentials in an environment variable (api_key_env), not in the URL"
            )
        if parsed.userinfo:
            raise BackendError(
                "openai backend: put credentials in an environment variable (api_key_env), "
                "not in the base URL"
            )
    if len(set(urls)) != len(urls):
        raise BackendError(f"openai backend: a base URL is listed twice in '{match['urls']}'")
    return match["model"], urls


#: Query parameter names that carry credentials.
_CREDENTIAL = re.compile(r"key|token|secret|sig|auth|pass|pwd|cred|bearer", re.I)
#: Key formats seen in the wild, anywhere in a URL: OpenAI-style sk-..., Groq gsk_...,
#: Anthropic sk-ant-..., GitHub ghp_..., xai-..., 32+ hex digits, and any 32+ character run of
#: letters and digits mixing both (no host name or model name looks like that).
_KEY_LIKE = re.compile(
    r"(?<![A-Za-z0-9])(?:sk|gsk|ghp|xai|pk|rk)[-_][A-Za-z0-9_-]{16,}"
    r"|(?<![0-9a-fA-F])[0-9a-fA-F]{32,}(?![0-9a-fA-F])"
    r"|(?=[A-Za-z0-9]*\d)(?=[A-Za-z0-9]*[A-Za-z])[A-Za-z0-9]{32,}"
)


def check_url_secret(urls: Sequence[str], secret: str | None) -> None:
    """Refuse a base URL holding any 8+ character run of the API key (path, host, query):
    what is in the URL is written to run.json, results.json and printed."""
    for url in urls:
        if secret and secret_spans(url, secret):
            raise BackendError(
                "openai backend: the base URL holds (part of) the API key; the key goes in "
                "its environment variable only (api_key_env), never in the URL"
            )


def parse_args(args: dict[str, Any]) -> OpenAIArgs:
    if "api_key" in args:
        raise BackendError(
            "openai backend: pass the API key through an environment variable "
            "(--model-arg api_key_env=NAME), never as an argument: arguments are recorded"
        )
    return parse_options(OpenAIArgs, args, "the openai backend")


def make_transport(urls: Sequence[str], settings: OpenAIArgs) -> Transport:
    """The HTTP transport, with the API key (if its variable is set) as a bearer token."""
    key = os.environ.get(settings.api_key_env) or None
    return Transport(
        urls,
        headers={"Authorization": f"Bearer {key}"} if key else {},
        timeout=settings.timeout,
        concurrency=settings.concurrency,
        policy=RetryPolicy(max_retries=settings.max_retries),
        redact=make_redactor(key),
        connect_timeout=settings.connect_timeout,
    )


class OpenAIBackend(Backend):
    """Generation (and, when the probe passes, log-likelihood) over OpenAI-compatible HTTP."""

    name: ClassVar[str] = "openai"
    possible_capabilities = frozenset({Capability.GENERATE, Capability.LOGLIKELIHOOD})

    def __init__(
        self,
        model: str,
        settings: OpenAIArgs,
        servers: Sequence[ServerInfo],
        transport: Transport,
        down: dict[str, str] | None = None,
    ) -> None:
        served = {s.served_model for s in servers}
        if len(served) > 1:
            pairs = ", ".join(f"{s.url} serves '{s.served_model}'" for s in servers)
            raise BackendError(f"the base URLs serve different models: {pairs}")
        self.model = model
        self.settings = settings
        self.servers = list(servers)
        self.transport = transport
        self.chat_as_transcript = settings.mode == "completions"
        capabilities = {Capability.GENERATE}
        if all(s.loglikelihood_problem is None for s in servers):
            capabilities.add(Capability.LOGLIKELIHOOD)
        self.capabilities = frozenset(capabilities)
        #: guided_choice probe: None not yet probed, "" supported, else why not
        self._choice_problem: str | None = None
        #: Base URLs that failed the start-up checks (why); re-probed in the background.
        self.down_at_start = dict(down or {})
        self._reprober = Reprober(self._probe, self._may_serve, transport.enable)
        for url in self.down_at_start:
            transport.pool.disable(url)
            self._reprober.watch(url)

    def _probe(self, url: str) -> ServerInfo:
        s = self.settings
        return probe_server(
            self.transport, url, self.model, s.mode, s.extra_body, s.startup_timeout
        )

    def _may_serve(self, info: object) -> bool:
        """A URL that came back serves the run's model with at least its capabilities."""
        assert isinstance(info, ServerInfo)
        same = info.served_model == self.servers[0].served_model
        loglik = Capability.LOGLIKELIHOOD not in self.capabilities
        return same and (loglik or info.loglikelihood_problem is None)

    @classmethod
    def check_spec(cls, target: str, args: dict[str, Any]) -> None:
        _, urls = parse_target(target)
        settings = parse_args(args)
        check_url_secret(urls, os.environ.get(settings.api_key_env))

    @classmethod
    def from_spec(cls, target: str, args: dict[str, Any]) -> Backend:
        model, urls = parse_target(target)
        settings = parse_args(args)
        check_url_secret(urls, os.environ.get(settings.api_key_env))
        transport = make_transport(urls, settings)
        transport.probe_gives_up_when_limited = len(urls) > 1
        try:
            servers, down = probe_all(
                urls,
                lambda url: probe_server(
                    transport, url, model, settings.mode, settings.extra_body,
                    settings.startup_timeout,
                ),
            )  # fmt: skip
            return cls(model, settings, servers, transport, down)
        except BaseException:
            transport.close()
            raise

    def __repr__(self) -> str:
        urls = ",".join(s.url for s in self.servers)
        return (
            f"OpenAIBackend(model={self.model!r}, base_urls={urls!r}, mode={self.settings.mode!r})"
        )

    # -- identity -----------------------------------------------------------------------

    def identity(self) -> dict[str, Any]:
        problems = sorted(
            {s.loglikelihood_problem for s in self.servers if s.loglikelihood_problem}
        )
        extra = {"down_at_start": self.down_at_start} if self.down_at_start else {}
        return {
            "backend": self.name,
            "model": self.model,
            # every URL given (the fingerprint and cache keys do not depend on which were up)
            "base_urls": self.transport.base_urls,
            "served_model": self.servers[0].served_model,
            "listed_models": self.servers[0].listed_models,
            "mode": self.settings.mode,
            "extra_body": self.settings.extra_body,
            "loglikelihood": "supported" if not problems else "; ".join(problems),
            **extra,
        }

    def fingerprint(self) -> str:
        ident = self.identity()
        keep = ("base_urls", "served_model", "model", "mode", "extra_body")
        return "openai|" + json.dumps({k: ident[k] for k in keep}, sort_keys=True)

    def default_batch_size(self) -> int:
        return self.settings.batch_size or 4 * self.settings.concurrency * len(self.servers)

    def close(self) -> None:
        self._reprober.close()
        self.transport.close()

    # -- generation ---------------------------------------------------------------------

    def _generate_call(self, request: GenerateRequest) -> tuple[str, dict[str, Any]]:
        body = {**self.settings.extra_body, "model": self.model, **sampling_body(request.params)}
        if request.choices:  # vLLM's guided decoding; the budget fits the longest choice
            body["guided_choice"] = list(request.choices)
            longest = longest_bytes(request.choices)  # a token is at least one byte
            body["max_tokens"] = token_budget(request.params.max_tokens, longest)
        if request.prompt is not None:
            return COMPLETIONS_PATH, {**body, "prompt": request.prompt}
        messages = request.messages or ()
        if self.chat_as_transcript:
            body["stop"] = [*request.params.stop, *TRANSCRIPT_STOPS]
            return COMPLETIONS_PATH, {**body, "prompt": render_transcript(messages)}
        return CHAT_PATH, {**body, "messages": [m.model_dump() for m in messages]}

    def generate(self, requests: Sequence[GenerateRequest]) -> list[Response]:
        calls = [self._generate_call(r) for r in requests]
        results = self.transport.post_many(calls)
        responses = []
        for request, (path, _), result in zip(requests, calls, results, strict=True):
            response = generation_response(result, path == CHAT_PATH)
            if request.choices and response.ok:
                response = checked_choice(response.text, request.choices, response.finish_reason)
            responses.append(response)
        return responses

    def choice_support(self) -> str | None:
        """Probed once, on every base URL: a request with `guided_choice` of two answers no
        model would give unasked must come back as one of them."""
        if self._choice_problem is None:
            probe = GenerateRequest(
                messages=(Message(role="user", content=PROBE_PROMPT),),
                params=GenerationParams(max_tokens=8),
                choices=PROBE_CHOICES,
            )
            path, body = self._generate_call(probe)
            deadline = time.monotonic() + self.settings.startup_timeout
            problems = [
                guided_choice_problem(
                    s.url,
                    generation_response(
                        self.transport.post(s.url, path, body, deadline), path == CHAT_PATH
                    ),
                    PROBE_CHOICES,
                )
                for s in self.servers
            ]
            self._choice_problem = next((p for p in problems if p), "")
        return self._choice_problem or None

    # -- log-likelihood -----------------------------------------------------------------

    def loglikelihood(self, requests: Sequence[LoglikelihoodRequest]) -> list[Response]:
        if Capability.LOGLIKELIHOOD not in self.capabilities:
            raise CapabilityError(
                f"backend 'openai' does not support loglikelihood with this server: "
                f"{self.identity()['loglikelihood']}"
            )
        base = {**self.settings.extra_body, "model": self.model}
        todo = [i for i, r in enumerate(requests) if r.continuation]
        calls = [
            (
                COMPLETIONS_PATH,
                {**base, **echo_request_body(requests[i].context + requests[i].continuation)},
            )
            for i in todo
        ]
        responses = [
            Response(kind=Capability.LOGLIKELIHOOD, error="empty continuation") for _ in requests
        ]
        for i, result in zip(todo, self.transport.post_many(calls), strict=True):
            responses[i] = loglikelihood_response(requests[i], result)
        return responses
