"""The openai backend's event-loop thread: an interrupt cancels what is in flight."""

from __future__ import annotations

import asyncio
import signal
import threading
from typing import Any

import pytest

from biasaudit.models.openai.http import _LoopThread


def test_an_interrupt_cancels_the_requests_in_flight() -> None:
    loop = _LoopThread()
    cancelled = threading.Event()

    async def slow_request() -> None:
        try:
            await asyncio.sleep(30)
        except asyncio.CancelledError:
            cancelled.set()
            raise

    def interrupt(signum: int, frame: Any) -> None:
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGALRM, interrupt)
    signal.setitimer(signal.ITIMER_REAL, 0.2)
    try:
        with pytest.raises(KeyboardInterrupt):
            loop.run(slow_request())
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    try:
        assert cancelled.wait(timeout=5)
    finally:
        loop.stop()
