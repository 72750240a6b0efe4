"""Start-up of an openai backend with several base URLs.

Every URL is probed at once (listing, a generation, the log-prob probe). The run starts when
at least one passes; a URL that fails (down, answering 429, misconfigured) is disabled in
the endpoint pool and probed again in the background with a backoff (1 s, doubling to
60 s); it takes traffic once it passes and serves the same model with the same
capabilities. With one URL its probe's error is the run's error, as before.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

from biasaudit.errors import BackendError, BiasauditError

FIRST_REPROBE_S = 1.0
MAX_REPROBE_S = 60.0

T = TypeVar("T")


def probe_all(urls: Sequence[str], probe: Callable[[str], T]) -> tuple[list[T], dict[str, str]]:
    """Probe every URL concurrently: (what passed, in URL order; {url: why it failed}).
    Raises the only URL's error, or one line naming every URL's when none passed."""
    if len(urls) == 1:
        return [probe(urls[0])], {}
    with ThreadPoolExecutor(len(urls), thread_name_prefix="biasaudit-probe") as pool:
        futures = [(url, pool.submit(probe, url)) for url in urls]
    passed: list[T] = []
    down: dict[str, str] = {}
    for url, future in futures:
        try:
            passed.append(future.result())
        except BiasauditError as exc:
            down[url] = str(exc)
    if not passed:
        why = "; ".join(f"{url}: {reason}" for url, reason in down.items())
        raise BackendError(f"no base URL passed the start-up checks ({why})")
    return passed, down


class Reprober:
    """Probes disabled URLs again with a backoff; `accept` decides whether one that passed
    may serve the run, `on_up` brings it back. Daemon threads, stopped by `close`."""

    def __init__(
        self,
        probe: Callable[[str], object],
        accept: Callable[[object], bool],
        on_up: Callable[[str], None],
    ) -> None:
        self._probe = probe
        self._accept = accept
        self._on_up = on_up
        self._stop = threading.Event()

    def watch(self, url: str) -> None:
        thread = threading.Thread(
            target=self._watch, args=(url,), name="biasaudit-reprobe", daemon=True
        )
        thread.start()

    def _watch(self, url: str) -> None:
        delay = FIRST_REPROBE_S
        while not self._stop.wait(delay):
            try:
                info = self._probe(url)
            except (BiasauditError, RuntimeError):  # still down, or the backend was closed
                info = None
            if self._stop.is_set():
                return
            if info is not None and self._accept(info):
                self._on_up(url)
                return
            delay = min(MAX_REPROBE_S, delay * 2)

    def close(self) -> None:
        self._stop.set()
