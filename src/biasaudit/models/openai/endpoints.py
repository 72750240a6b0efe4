"""Which base URL the next attempt goes to: bounded slots per endpoint, health, stats.

Every endpoint (base URL) has `concurrency` slots. An attempt takes a slot on the endpoint
with the most free slots, preferring healthy ones and, for a retry, one other than the
endpoint that just failed. An endpoint whose last `FAILS_TO_SIDELINE` attempts failed for a
server-side reason (connection error, timeout, 5xx) is sidelined for a cool-down that doubles
with every further failure (capped at `MAX_COOLDOWN_S`); while any endpoint is healthy, a
sidelined one gets no traffic. When every endpoint is sidelined they all get traffic again, so
a run with one URL behaves as before. A success clears an endpoint's record. A 429 answer
with a Retry-After sidelines its endpoint for that long at once (its slots free at once, so
it would otherwise take new requests that all wait out the same Retry-After).

An endpoint that failed the start-up checks is *disabled*: it gets no traffic at all until
it passes them again (`openai_startup.Reprober` re-probes it and enables it).

A released slot wakes one waiter, not all of them (thousands may wait in a large batch).
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import time
from dataclasses import dataclass, field
from typing import Literal

#: Consecutive server-side failures after which an endpoint is sidelined.
FAILS_TO_SIDELINE = 2
#: First cool-down of a sidelined endpoint, in seconds; doubles per further failure.
BASE_COOLDOWN_S = 1.0
MAX_COOLDOWN_S = 30.0
#: A retry waiting for an endpoint other than the one that failed re-checks this often.
_RETRY_RECHECK_S = 1.0

Outcome = Literal["ok", "server_error", "client_error", "rate_limited"]


@dataclass
class EndpointStats:
    """What one endpoint did during a run (attempts, not requests: a retry counts again)."""

    ok: int = 0
    failed: int = 0
    sidelined: int = 0
    #: Seconds per successful attempt.
    latencies: list[float] = field(default_factory=list)


@dataclass
class _Endpoint:
    url: str
    free: int
    consecutive_failures: int = 0
    down_until: float = 0.0
    disabled: bool = False
    stats: EndpointStats = field(default_factory=EndpointStats)

    def healthy(self, now: float) -> bool:
        return self.down_until <= now and not self.disabled


class EndpointPool:
    """Slots and health of the base URLs of one transport (used on its event loop only)."""

    def __init__(self, urls: list[str], concurrency: int) -> None:
        self.endpoints = {url: _Endpoint(url, concurrency) for url in urls}
        self._waiters: collections.deque[asyncio.Future[None]] = collections.deque()
        self._retry_waiters: list[tuple[str, asyncio.Future[None]]] = []

    def _pick(self, avoid: str | None) -> _Endpoint | None:
        now = time.monotonic()
        everything = [e for e in self.endpoints.values() if not e.disabled]
        usable = [e for e in everything if e.healthy(now)] or everything
        free = [e for e in usable if e.free > 0]
        if not free:
            return None
        elsewhere = [e for e in free if e.url != avoid]
        # A retry waits for another endpoint rather than going back to the one that failed,
        # unless that one is the only usable endpoint.
        if avoid is not None and not elsewhere and any(e.url != avoid for e in usable):
            return None
        return max(elsewhere or free, key=lambda e: e.free)

    async def acquire(self, avoid: str | None = None) -> str:
        """A free slot's URL; waits while there is none (a release wakes one waiter)."""
        while True:
            endpoint = self._pick(avoid)
            if endpoint is not None:
                endpoint.free -= 1
                return endpoint.url
            waiter = asyncio.get_running_loop().create_future()
            if avoid is None:
                self._waiters.append(waiter)
                # Bounded while an endpoint is sidelined, to notice its cool-down running out.
                timeout = self._until_next_recovery()
            else:
                self._retry_waiters.append((avoid, waiter))
                timeout = _RETRY_RECHECK_S  # health may change what this retry may use
            # On a timeout wait_for cancels the waiter, and _wake skips it.
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(waiter, timeout)

    def release(
        self, url: str, outcome: Outcome, latency: float, retry_after: float | None = None
    ) -> None:
        """Give the slot back and record how the attempt went."""
        endpoint = self.endpoints[url]
        endpoint.free += 1
        if outcome == "ok":
            endpoint.consecutive_failures = 0
            endpoint.down_until = 0.0
            endpoint.stats.ok += 1
            endpoint.stats.latencies.append(latency)
        else:
            endpoint.stats.failed += 1
        if outcome == "rate_limited" and retry_after is not None and retry_after > 0:
            endpoint.down_until = max(endpoint.down_until, time.monotonic() + retry_after)
            endpoint.stats.sidelined += 1
        elif outcome in ("server_error", "rate_limited"):
            endpoint.consecutive_failures += 1
            extra = endpoint.consecutive_failures - FAILS_TO_SIDELINE
            if extra >= 0:
                cooldown = min(MAX_COOLDOWN_S, BASE_COOLDOWN_S * 2**extra)
                endpoint.down_until = time.monotonic() + cooldown
                endpoint.stats.sidelined += 1
        self._wake(url)

    def disable(self, url: str) -> None:
        """No traffic to `url` until `enable` (it failed the start-up checks)."""
        self.endpoints[url].disabled = True

    def enable(self, url: str) -> None:
        """`url` passed its checks again: it takes traffic (waiters are woken for it)."""
        endpoint = self.endpoints[url]
        endpoint.disabled = False
        endpoint.consecutive_failures = 0
        endpoint.down_until = 0.0
        for _ in range(endpoint.free):
            self._wake(url)

    def _until_next_recovery(self) -> float | None:
        now = time.monotonic()
        pending = [e.down_until - now for e in self.endpoints.values() if e.down_until > now]
        return max(0.01, min(pending)) if pending else None

    def has_healthy_alternative(self, url: str) -> bool:
        """Whether an endpoint other than `url` is healthy now (a retry can go there)."""
        now = time.monotonic()
        return any(e.healthy(now) for e in self.endpoints.values() if e.url != url)

    def _wake(self, released: str) -> None:
        """Wake one waiter that can use a slot of `released`: a retry first, if it may."""
        self._retry_waiters = [(a, w) for a, w in self._retry_waiters if not w.done()]
        for index, (avoid, waiter) in enumerate(self._retry_waiters):
            if avoid != released:
                del self._retry_waiters[index]
                waiter.set_result(None)
                return
        while self._waiters:
            waiter = self._waiters.popleft()
            if not waiter.done():
                waiter.set_result(None)
                return

    def stats(self) -> dict[str, EndpointStats]:
        return {url: e.stats for url, e in self.endpoints.items()}
