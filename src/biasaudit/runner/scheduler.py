"""Which samples are in flight, which requests each step sends, and in what order finished
samples leave the runner.

Samples are pulled from an iterator (never a full list), so a benchmark of 78,400 prompts is
planned a window at a time: at most `window` samples are active, and a sample that finishes
is replaced at once by the next one in order. A backend that keeps per-conversation state
sets the window (`Backend.conversation_window`, e.g. 1 for llama.cpp), so a conversation's
turns are sent in consecutive steps; a backend that does not gets `LAZY_WINDOW`, which for a
run of at most that many samples is exactly "every sample active from the start" (one step
is one round across all samples, batched across them by the resolver).

Finished samples leave in sample order (`on_finished` is called for sample 0, 1, 2, ...):
a sample that finishes before an earlier one waits in a reorder buffer. Admission pauses
while that buffer holds `REORDER_LIMIT` samples, so the buffer, like the window, is bounded
whatever the run's size. With a window of 1 the buffer is never used.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field

from biasaudit.contract import Benchmark, Sample
from biasaudit.requests import Request, Response
from biasaudit.results.schema import Exchange

#: Samples in flight when the backend does not set a conversation window. Single-turn
#: benchmarks are then planned, batched and written this many samples at a time.
LAZY_WINDOW = 2048
#: Finished samples held back at most, waiting for an earlier sample to finish.
REORDER_LIMIT = 2048

#: Called with each finished sample and its exchanges, in sample order.
OnFinished = Callable[[Sample, list[Exchange]], None]


@dataclass
class _Active:
    sample: Sample
    exchanges: list[Exchange] = field(default_factory=list)
    requests: list[Request] = field(default_factory=list)


class Scheduler:
    """Yields the requests of each step: the next request(s) of every active sample.

    The benchmark sees the same `next_requests` calls whatever the window; only their
    interleaving across samples differs. After each step, `answer` records the responses.
    """

    def __init__(
        self,
        benchmark: Benchmark,
        samples: Iterable[Sample],
        window: int | None,
        on_finished: OnFinished,
    ) -> None:
        self.benchmark = benchmark
        self.source = iter(samples)
        self.window = window if window is not None else LAZY_WINDOW
        self.on_finished = on_finished
        #: active samples by position (in admission order)
        self.active: dict[int, _Active] = {}
        #: finished samples waiting for an earlier one, by position
        self.waiting: dict[int, _Active] = {}
        self.admitted = 0
        self.released = 0
        self.exhausted = False

    def _plan(self, index: int, state: _Active) -> None:
        requests = self.benchmark.next_requests(state.sample, state.exchanges)
        if requests:
            state.requests = requests
            self.active[index] = state
            return
        self.active.pop(index, None)
        state.requests = []
        self.waiting[index] = state
        while self.released in self.waiting:
            done = self.waiting.pop(self.released)
            self.released += 1
            self.on_finished(done.sample, done.exchanges)

    def _admit(self) -> None:
        while (
            not self.exhausted
            and len(self.active) < self.window
            and len(self.waiting) < REORDER_LIMIT
        ):
            sample = next(self.source, None)
            if sample is None:
                self.exhausted = True
                return
            index = self.admitted
            self.admitted += 1
            self._plan(index, _Active(sample))

    def __iter__(self) -> Iterator[list[tuple[int, Request]]]:
        while True:
            self._admit()
            if not self.active:
                return
            yield [(index, r) for index, state in self.active.items() for r in state.requests]
            for index, state in list(self.active.items()):
                self._plan(index, state)

    def answer(self, planned: list[tuple[int, Request]], responses: list[Response]) -> None:
        """Record the responses of one step (in the order it was yielded)."""
        for (index, request), response in zip(planned, responses, strict=True):
            self.active[index].exchanges.append(Exchange(request=request, response=response))
