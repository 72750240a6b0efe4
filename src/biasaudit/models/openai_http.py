"""HTTP transport of the `openai` backend: bounded concurrency, retries, Retry-After.

Requests run on one private event loop in a background thread, so the synchronous backend
methods work from scripts and from notebooks that already run an event loop. Concurrency is
bounded by a pool of slots, `concurrency` per base URL, interleaved; each attempt takes the
next free slot, so requests spread over the URLs and a retry usually goes to another one.

A failed attempt is retried when the failure is transient (connection errors, timeouts,
408/409/429 and 5xx), after an exponential backoff with jitter, or after the server's
Retry-After when that is longer. A request that still fails comes back as an error string;
it never raises, so one bad request never loses a batch.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import email.utils
import json
import random
import threading
from collections.abc import Callable, Coroutine, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

import httpx

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


def make_redactor(secret: str | None) -> Callable[[str], str]:
    """A function that blanks `secret` out of a text (server bodies may echo the API key)."""
    if not secret:
        return lambda text: text
    return lambda text: text.replace(secret, "***")


def _server_message(response: httpx.Response) -> str:
    """The error message of an OpenAI-style error body, else the start of the body."""
    try:
        body = response.json()
    except (json.JSONDecodeError, UnicodeDecodeError):
        return response.text[:MAX_ERROR_CHARS].strip()
    if isinstance(body, dict):
        error = body.get("error", body.get("detail", body))
        if isinstance(error, dict) and "message" in error:
            error = error["message"]
        return str(error)[:MAX_ERROR_CHARS]
    return str(body)[:MAX_ERROR_CHARS]


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
    """POSTs JSON to a set of base URLs with bounded concurrency and retries.

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
            timeout=httpx.Timeout(timeout, connect=min(timeout, 10.0)),
            limits=httpx.Limits(max_connections=concurrency * len(self.base_urls) + 2),
        )
        self._slots: asyncio.Queue[str] = self._run(self._make_slots())

    def __repr__(self) -> str:
        return f"Transport(base_urls={self.base_urls!r}, concurrency={self.concurrency})"

    def _run(self, coroutine: Coroutine[Any, Any, T]) -> T:
        if self._loop is None:
            coroutine.close()
            raise RuntimeError("the openai backend was closed")
        return self._loop.run(coroutine)

    async def _make_slots(self) -> asyncio.Queue[str]:
        slots: asyncio.Queue[str] = asyncio.Queue()
        for _ in range(self.concurrency):
            for url in self.base_urls:
                slots.put_nowait(url)
        return slots

    # -- public, synchronous -------------------------------------------------------------

    def get(self, url: str, path: str) -> tuple[int, Any]:
        """One GET attempt (start-up only): (status, JSON or None); raises httpx errors."""
        return self._run(self._get(url, path))

    def post(self, url: str, path: str, body: dict[str, Any]) -> CallResult:
        """POST to one given base URL, with retries (start-up probes)."""
        return self._run(self._call(path, body, url))

    def post_many(self, calls: Sequence[tuple[str, dict[str, Any]]]) -> list[CallResult]:
        """POST every (path, body) concurrently over all base URLs; results in order."""
        return self._run(self._call_all(calls))

    def close(self) -> None:
        if self._loop is None:
            return
        self._loop.run(self._client.aclose())
        self._loop.stop()
        self._loop = None

    # -- async internals -----------------------------------------------------------------

    async def _get(self, url: str, path: str) -> tuple[int, Any]:
        response = await self._client.get(url + path)
        try:
            return response.status_code, response.json()
        except (json.JSONDecodeError, UnicodeDecodeError):
            return response.status_code, None

    async def _call_all(self, calls: Sequence[tuple[str, dict[str, Any]]]) -> list[CallResult]:
        return list(await asyncio.gather(*(self._call(path, body) for path, body in calls)))

    async def _call(self, path: str, body: dict[str, Any], url: str | None = None) -> CallResult:
        attempt = _Attempt()
        used = url or self.base_urls[0]
        for number in range(self.policy.max_retries + 1):
            if url is None:
                used = await self._slots.get()
                try:
                    attempt = await self._attempt(used, path, body)
                finally:
                    self._slots.put_nowait(used)
            else:
                attempt = await self._attempt(used, path, body)
            if attempt.data is not None:
                return CallResult(url=used, data=attempt.data, attempts=number + 1)
            if not attempt.retryable or number == self.policy.max_retries:
                break
            await asyncio.sleep(
                self.policy.delay(number, attempt.retry_after, self._random.random())
            )
        tries = f" (after {number + 1} attempts)" if number else ""
        return CallResult(url=used, error=self._redact(attempt.error + tries), attempts=number + 1)

    async def _attempt(self, url: str, path: str, body: dict[str, Any]) -> _Attempt:
        where = f"{url}{path}"
        try:
            response = await self._client.post(where, json=body)
        except httpx.TimeoutException:
            return _Attempt(error=f"{where}: no answer within {self.timeout:g}s", retryable=True)
        except httpx.TransportError as exc:
            return _Attempt(error=f"{where}: {type(exc).__name__}: {exc}", retryable=True)
        if response.status_code == 200:
            try:
                data = response.json()
            except (json.JSONDecodeError, UnicodeDecodeError):
                return _Attempt(error=f"{where}: the answer is not JSON")
            if not isinstance(data, dict):
                return _Attempt(error=f"{where}: the answer is not a JSON object")
            return _Attempt(data=data)
        return _Attempt(
            error=f"{where}: HTTP {response.status_code}: {_server_message(response)}",
            retryable=is_retryable_status(response.status_code),
            retry_after=parse_retry_after(response.headers),
        )
