"""HTTP transport of the `openai` backend: bounded concurrency, retries, Retry-After.

Requests run on one private event loop in a background thread, so the synchronous backend
methods work from scripts and from notebooks that already run an event loop. Concurrency is
bounded by `concurrency` slots per base URL (`openai_endpoints.EndpointPool`): requests spread
over the URLs, a failing URL is sidelined, and a retry goes to another URL when there is one.

Every attempt has an overall deadline (`timeout`: connect, send, and the whole answer), so a
server that accepts and never answers, or trickles its answer a byte at a time, fails the
attempt after `timeout` seconds; connecting alone is bounded by `connect_timeout`.

A failed attempt is retried when the failure is transient (connection errors, timeouts,
408/409/429 and 5xx), after an exponential backoff with jitter, or after the server's
Retry-After when that is longer (immediately when another healthy URL can take it). A request
that still fails comes back as an error string; it never raises, so one bad request never
loses a batch. Everything a server answers passes through the redactor before anyone sees
it, so a server that echoes the API key cannot get it into samples, caches or reports.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import email.utils
import json
import random
import threading
import time
from collections.abc import Callable, Coroutine, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

import httpx

from biasaudit.models.openai.endpoints import EndpointPool, EndpointStats, Outcome

T = TypeVar("T")

#: Client errors worth retrying (timeout, conflict, rate limit); every 5xx is retried too.
RETRYABLE_STATUS = frozenset({408, 409, 429})
#: How much of a server's error body is kept in an error message.
MAX_ERROR_CHARS = 300


def parse_retry_after(headers: Mapping[str, str], now: dt.datetime | None = None) -> float | None:
    """Seconds to wait from ``retry-after-ms`` or ``Retry-After`` (seconds or HTTP date).

    Returns None when neither header holds a usable value; a date in the past means 0.
    """
    milliseconds = headers.get("retry-after-ms")
    if milliseconds is not None:
        try:
            value = float(milliseconds)
        except ValueError:
            value = -1.0
        if value >= 0:
            return value / 1000.0
    raw = headers.get("retry-after")
    if raw is None:
        return None
    raw = raw.strip()
    try:
        seconds = float(raw)
    except ValueError:
        pass
    else:
        return seconds if seconds >= 0 else None
    try:
        when = email.utils.parsedate_to_datetime(raw)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=dt.UTC)
    reference = now or dt.datetime.now(dt.UTC)
    return max(0.0, (when - reference).total_seconds())


@dataclass(frozen=True)
class RetryPolicy:
    """How often and how long to wait between attempts of one request."""

    max_retries: int = 5
    base_delay: float = 0.5
    max_delay: float = 30.0
    #: A Retry-After longer than this is cut to it, so a misbehaving server cannot park a
    #: run for hours.
    max_retry_after: float = 120.0

    def delay(self, attempt: int, retry_after: float | None, jitter: float) -> float:
        """Seconds to wait after failed attempt number `attempt` (0-based).

        Exponential backoff ``base * 2**attempt`` capped at `max_delay`, scaled by a jitter
        factor in [0.5, 1) (`jitter` is a uniform draw in [0, 1)), and never shorter than the
        server's Retry-After (itself capped at `max_retry_after`).
        """
        backoff = min(self.max_delay, self.base_delay * 2**attempt) * (0.5 + 0.5 * jitter)
        if retry_after is None:
            return backoff
        return max(backoff, min(retry_after, self.max_retry_after))


def is_retryable_status(status: int) -> bool:
    return status in RETRYABLE_STATUS or status >= 500


@dataclass(frozen=True)
class CallResult:
    """The JSON body of a successful call, or why the call failed for good."""

    url: str
    data: dict[str, Any] | None = None
    error: str | None = None
    attempts: int = 1


@dataclass(frozen=True)
class _Attempt:
    data: dict[str, Any] | None = None
    error: str = ""
    retryable: bool = False
    retry_after: float | None = None
    #: How the attempt reflects on the endpoint's health.
    outcome: Outcome = "ok"


#: Any run of at least this many characters of a secret, wherever it starts and ends, is
#: blanked too (a message cut through the key, or quoting it without its scheme "sk-", leaves
#: a part of it).
MIN_SECRET_PREFIX = 8


def secret_spans(text: str, secret: str, min_len: int = MIN_SECRET_PREFIX) -> list[tuple[int, int]]:
    """(start, end) of every maximal run of `text` of >= `min_len` characters that is a
    substring of `secret`, left to right, not overlapping."""
    if len(secret) < min_len or len(text) < min_len:
        return []
    grams = {secret[i : i + min_len] for i in range(len(secret) - min_len + 1)}
    spans: list[tuple[int, int]] = []
    at = 0
    while at <= len(text) - min_len:
        if text[at : at + min_len] not in grams:
            at += 1
            continue
        end = at + min_len
        while end < len(text) and text[at : end + 1] in secret:
            end += 1
        spans.append((at, end))
        at = end
    return spans


def make_redactor(*secrets: str | None) -> Callable[[str], str]:
    """A function that blanks every run of `MIN_SECRET_PREFIX` or more characters of any of
    `secrets` out of a text (server bodies may echo the API key, whole, cut or without its
    scheme): issue 33. A secret shorter than that is blanked only whole."""
    kept = [s for s in secrets if s]
    if not kept:
        return lambda text: text

    def redact(text: str) -> str:
        for secret in kept:
            if len(secret) < MIN_SECRET_PREFIX:
                text = text.replace(secret, "***")
                continue
            spans = secret_spans(text, secret)
            if not spans:
                continue
            parts: list[str] = []
            start = 0
            for begin, end in spans:
                parts += [text[start:begin], "***"]
                start = end
            parts.append(text[start:])
            text = "".join(parts)
        return text

    return redact


def redact_json(value: Any, redact: Callable[[str], str]) -> Any:
    """`value` (parsed JSON) with `redact` applied to every string, keys included."""
    if isinstance(value, str):
        return redact(value)
    if isinstance(value, dict):
        return {redact(str(k)): redact_json(v, redact) for k, v in value.items()}
    if isinstance(value, list):
        return [redact_json(v, redact) for v in value]
    return value


def _parse_json(response: httpx.Response) -> Any:
    """The body as JSON; ValueError when it is not (bad UTF-8, syntax, absurd nesting)."""
    try:
        return response.json()
    except (json.JSONDecodeError, UnicodeDecodeError, RecursionError) as exc:
        raise ValueError(str(exc)) from None


def _server_message(response: httpx.Response, redact: Callable[[str], str]) -> str:
    """The error message of an OpenAI-style error body, else the start of the body; redacted
    before it is cut (a key cut in two would no longer be recognised)."""
    try:
        body = _parse_json(response)
    except ValueError:
        return redact(response.text)[:MAX_ERROR_CHARS].strip()
    if isinstance(body, dict):
        error = body.get("error", body.get("detail", body))
        if isinstance(error, dict) and "message" in error:
            error = error["message"]
        return redact(str(error))[:MAX_ERROR_CHARS]
    return redact(str(body))[:MAX_ERROR_CHARS]


class _LoopThread:
    """An event loop running forever in a daemon thread."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self._thread = threading.Thread(
            target=self.loop.run_forever, name="biasaudit-openai", daemon=True
        )
        self._thread.start()

    def run(self, coroutine: Coroutine[Any, Any, T]) -> T:
        """Run `coroutine` on the loop and wait; an interrupt (Ctrl-C) cancels it there."""
        future = asyncio.run_coroutine_threadsafe(coroutine, self.loop)
        try:
            return future.result()
        except BaseException:
            future.cancel()
            raise

    def stop(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)
        self._thread.join(timeout=10)
        self.loop.close()


class Transport:
    """POSTs JSON to a set of base URLs with bounded concurrency, deadlines and retries.

    The API key lives only in the HTTP client's default headers and in the redactor; it is
    never stored in an attribute that could be printed.
    """

    def __init__(
        self,
        base_urls: Sequence[str],
        *,
        headers: Mapping[str, str],
        timeout: float,
        concurrency: int,
        policy: RetryPolicy,
        redact: Callable[[str], str],
        connect_timeout: float = 10.0,
    ) -> None:
        self.base_urls = list(base_urls)
        self.timeout = timeout
        self.concurrency = concurrency
        self.policy = policy
        self._redact = redact
        self._random = random.Random()
        self._loop: _LoopThread | None = _LoopThread()
        self._client = httpx.AsyncClient(
            headers=dict(headers),
            timeout=httpx.Timeout(timeout, connect=min(timeout, connect_timeout)),
            limits=httpx.Limits(max_connections=concurrency * len(self.base_urls) + 2),
        )
        self.pool = EndpointPool(self.base_urls, concurrency)
        #: With several base URLs, a start-up probe answered 429 fails at once instead of
        #: waiting out the Retry-After: the run starts on the others.
        self.probe_gives_up_when_limited = False

    def enable(self, url: str) -> None:
        """Let `url` take traffic again (from any thread)."""
        if self._loop is not None:
            self._loop.loop.call_soon_threadsafe(self.pool.enable, url)

    def __repr__(self) -> str:
        return f"Transport(base_urls={self.base_urls!r}, concurrency={self.concurrency})"

    def _run(self, coroutine: Coroutine[Any, Any, T]) -> T:
        if self._loop is None:
            coroutine.close()
            raise RuntimeError("the openai backend was closed")
        return self._loop.run(coroutine)

    # -- public, synchronous -------------------------------------------------------------

    def get(self, url: str, path: str, timeout: float | None = None) -> tuple[int, Any]:
        """One GET attempt (start-up only) within `timeout` (default: the attempt deadline):
        (status, redacted JSON or None). Raises httpx errors, httpx.ReadTimeout on the deadline.
        """
        return self._run(self._get(url, path, min(timeout or self.timeout, self.timeout)))

    def post(
        self, url: str, path: str, body: dict[str, Any], deadline: float | None = None
    ) -> CallResult:
        """POST to one given base URL, with retries (start-up probes).

        `deadline` (a `time.monotonic()` value) bounds all attempts together: when it passes,
        the call fails with an error saying so.
        """
        call = self._call(path, body, url)
        if deadline is None:
            return self._run(call)
        return self._run(self._within(call, url + path, deadline))

    def post_many(self, calls: Sequence[tuple[str, dict[str, Any]]]) -> list[CallResult]:
        """POST every (path, body) concurrently over all base URLs; results in order."""
        return self._run(self._call_all(calls))

    def endpoint_stats(self) -> dict[str, EndpointStats]:
        """Attempts, failures and latencies per base URL so far."""
        return self.pool.stats()

    def close(self) -> None:
        if self._loop is None:
            return
        self._loop.run(self._client.aclose())
        self._loop.stop()
        self._loop = None

    # -- async internals -----------------------------------------------------------------

    async def _within(
        self, call: Coroutine[Any, Any, CallResult], where: str, deadline: float
    ) -> CallResult:
        try:
            return await asyncio.wait_for(call, max(0.0, deadline - time.monotonic()))
        except TimeoutError:
            return CallResult(url=where, error=f"{where}: no answer before the start-up deadline")

    async def _get(self, url: str, path: str, timeout: float) -> tuple[int, Any]:
        try:
            response = await asyncio.wait_for(self._client.get(url + path), timeout)
        except TimeoutError:
            raise httpx.ReadTimeout(f"no answer within {timeout:g}s") from None
        try:
            return response.status_code, redact_json(_parse_json(response), self._redact)
        except ValueError:
            return response.status_code, None

    async def _call_all(self, calls: Sequence[tuple[str, dict[str, Any]]]) -> list[CallResult]:
        return list(await asyncio.gather(*(self._call(path, body) for path, body in calls)))

    async def _call(self, path: str, body: dict[str, Any], url: str | None = None) -> CallResult:
        attempt = _Attempt()
        used = url or self.base_urls[0]
        failed_at: str | None = None
        for number in range(self.policy.max_retries + 1):
            if url is None:
                used = await self.pool.acquire(avoid=failed_at)
                started = time.monotonic()
                try:
                    attempt = await self._attempt(used, path, body)
                except BaseException:
                    self.pool.release(used, "client_error", 0.0)
                    raise
                elapsed = time.monotonic() - started
                self.pool.release(used, attempt.outcome, elapsed, attempt.retry_after)
            else:
                attempt = await self._attempt(used, path, body)
                if attempt.outcome == "rate_limited" and self.probe_gives_up_when_limited:
                    break  # a start-up probe: the endpoint is re-probed later
            if attempt.data is not None:
                return CallResult(url=used, data=attempt.data, attempts=number + 1)
            if not attempt.retryable or number == self.policy.max_retries:
                break
            failed_at = used
            if (
                url is None
                and attempt.outcome in ("server_error", "rate_limited")
                and self.pool.has_healthy_alternative(used)
            ):
                continue  # retry at once on another endpoint
            await asyncio.sleep(
                self.policy.delay(number, attempt.retry_after, self._random.random())
            )
        tries = f" (after {number + 1} attempts)" if number else ""
        return CallResult(url=used, error=self._redact(attempt.error + tries), attempts=number + 1)

    async def _attempt(self, url: str, path: str, body: dict[str, Any]) -> _Attempt:
        where = f"{url}{path}"
        try:
            # The overall deadline: httpx's own timeouts bound each read, not the whole answer.
            response = await asyncio.wait_for(self._client.post(where, json=body), self.timeout)
        except (TimeoutError, httpx.TimeoutException):
            return _Attempt(
                error=f"{where}: no answer within {self.timeout:g}s",
                retryable=True,
                outcome="server_error",
            )
        except httpx.TransportError as exc:
            return _Attempt(
                error=f"{where}: {type(exc).__name__}: {exc}",
                retryable=True,
                outcome="server_error",
            )
        if response.status_code == 200:
            try:
                data = _parse_json(response)
            except ValueError:
                return _Attempt(error=f"{where}: the answer is not JSON", outcome="server_error")
            if not isinstance(data, dict):
                return _Attempt(
                    error=f"{where}: the answer is not a JSON object", outcome="server_error"
                )
            return _Attempt(data=redact_json(data, self._redact))
        status = response.status_code
        outcome: Outcome = "client_error"
        if status == 429:
            outcome = "rate_limited"
        elif status >= 500:
            outcome = "server_error"
        return _Attempt(
            error=f"{where}: HTTP {status}: {_server_message(response, self._redact)}",
            retryable=is_retryable_status(status),
            retry_after=parse_retry_after(response.headers),
            outcome=outcome,
        )
