"""Drives one benchmark through one backend in rounds of batched, cached requests."""

from __future__ import annotations

import hashlib
import sys
import time
from collections import defaultdict, deque
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from tqdm import tqdm

from biasaudit.benchmarks.base import Benchmark, Sample
from biasaudit.datasets.files import sha256_of
from biasaudit.errors import CapabilityError, RunError
from biasaudit.models.base import Backend
from biasaudit.requests import Capability, Request, Response, request_key, request_length
from biasaudit.results.schema import (
    BenchmarkResult,
    DataFileInfo,
    Exchange,
    ModelInfo,
    SampleRecord,
)
from biasaudit.runner.cache import cache_key


class Cache(Protocol):
    def get_many(self, keys: Sequence[str]) -> dict[str, Response]: ...

    def put_many(self, items: Sequence[tuple[str, Response]]) -> None: ...


@dataclass
class RunConfig:
    seed: int = 0
    batch_size: int | None = None
    limit: int | None = None
    #: (index, count): keep samples whose position modulo `count` equals `index`.
    shard: tuple[int, int] | None = None
    progress: bool = True


@dataclass
class _Counters:
    sent: int = 0
    cached: int = 0
    failed: int = 0


def check_capabilities(benchmark: Benchmark, backend: Backend, spec: str) -> None:
    """Refuse a benchmark/backend pair before any work starts, naming what would work."""
    benchmark.bind_backend(backend.capabilities)
    missing = benchmark.required_capabilities() - backend.capabilities
    if not missing:
        return
    from biasaudit.models.spec import BACKENDS

    needed_all = benchmark.required_capabilities()
    needed = ", ".join(sorted(c.value for c in missing))
    suggestions = [
        name for name in BACKENDS.names() if needed_all <= BACKENDS.load(name).possible_capabilities
    ]
    hint = f"; backends that can: {', '.join(suggestions)}" if suggestions else ""
    raise CapabilityError(
        f"benchmark '{benchmark.name}' needs {needed}, which model '{spec}' "
        f"(backend '{backend.name}') does not support{hint}"
    )


def model_info(spec: str, backend: Backend) -> ModelInfo:
    """What results record about the model a run used."""
    return ModelInfo(
        spec=spec,
        backend=backend.name,
        identity=backend.identity(),
        fingerprint=backend.fingerprint(),
        chat_as_transcript=backend.chat_as_transcript,
    )


def select_samples(samples: list[Sample], config: RunConfig) -> list[Sample]:
    """Apply --limit, then --shard, deterministically."""
    chosen = samples[: config.limit] if config.limit is not None else samples
    if config.shard is not None:
        index, count = config.shard
        chosen = chosen[index::count]
    return chosen


def hash_sample_hashes(sample_hashes: Sequence[str]) -> str:
    """sha256 over the sorted per-sample hashes: equal values mean the same samples."""
    joined = "\n".join(sorted(sample_hashes))
    return hashlib.sha256(joined.encode()).hexdigest()


class _Resolver:
    """Answers a round of requests from the cache, sending the misses in sorted batches."""

    def __init__(
        self, backend: Backend, cache: Cache, batch_size: int, bar: tqdm[Any] | None
    ) -> None:
        self.backend = backend
        self.cache = cache
        self.batch_size = batch_size
        self.bar = bar
        self.fingerprint = backend.fingerprint()
        self.counters = _Counters()

    def resolve(self, requests: Sequence[Request]) -> list[Response]:
        keys = [cache_key(self.fingerprint, request_key(r)) for r in requests]
        unique: dict[str, Request] = dict(zip(keys, requests, strict=True))
        answers = self.cache.get_many(list(unique))
        self.counters.cached += sum(1 for k in keys if k in answers)
        if self.bar is not None:
            self.bar.update(sum(1 for k in keys if k in answers))
        misses = [(k, r) for k, r in unique.items() if k not in answers]
        by_kind: dict[Capability, list[tuple[str, Request]]] = defaultdict(list)
        for key, request in misses:
            by_kind[Capability(request.kind)].append((key, request))
        for kind, items in by_kind.items():
            items.sort(key=lambda item: request_length(item[1]), reverse=True)
            for start in range(0, len(items), self.batch_size):
                batch = items[start : start + self.batch_size]
                responses = self.backend.dispatch(kind, [r for _, r in batch])
                batch_answers = list(zip([k for k, _ in batch], responses, strict=True))
                self.cache.put_many(batch_answers)
                answers.update(batch_answers)
                self.counters.sent += len(batch)
                self.counters.failed += sum(1 for r in responses if not r.ok)
                if self.bar is not None:
                    self.bar.update(sum(keys.count(k) for k, _ in batch))
        return [answers[k] for k in keys]


class _Scheduler:
    """Yields the requests of each step: the next request(s) of every active sample.

    With `window` None every sample is active from the start (one step is one round across
    all samples). With `window` k at most k samples are active; a sample that finishes is
    replaced at once by the next one in order, so a conversation's turns are sent in
    consecutive steps (see `Backend.conversation_window`). The benchmark sees the same
    `next_requests` calls either way; only their interleaving across samples differs.
    """

    def __init__(
        self,
        benchmark: Benchmark,
        samples: Sequence[Sample],
        exchanges: dict[str, list[Exchange]],
        window: int | None,
    ) -> None:
        self.benchmark = benchmark
        self.queue = deque(samples)
        self.exchanges = exchanges
        self.window = window
        #: active samples (in admission order) -> their next requests
        self.active: dict[str, tuple[Sample, list[Request]]] = {}

    def _plan(self, sample: Sample) -> None:
        requests = self.benchmark.next_requests(sample, self.exchanges[sample.id])
        if requests:
            self.active[sample.id] = (sample, requests)
        else:
            self.active.pop(sample.id, None)

    def __iter__(self) -> Iterator[list[tuple[Sample, Request]]]:
        while True:
            while self.queue and (self.window is None or len(self.active) < self.window):
                self._plan(self.queue.popleft())
            if not self.active:
                return
            yield [(sample, r) for sample, requests in self.active.values() for r in requests]
            for sample, _ in list(self.active.values()):
                self._plan(sample)


def run_benchmark(
    benchmark: Benchmark,
    backend: Backend,
    cache: Cache,
    config: RunConfig,
) -> tuple[BenchmarkResult, list[SampleRecord]]:
    """Run every selected sample to completion, then score and aggregate."""
    started = time.perf_counter()
    samples = select_samples(benchmark.load_samples(), config)
    # the user's own files as read now, not as they may be after a long run
    user_files = [DataFileInfo(path=p, sha256=sha256_of(p)) for p in benchmark.user_files()]
    exchanges: dict[str, list[Exchange]] = {s.id: [] for s in samples}
    expected = [benchmark.expected_requests(s) for s in samples]
    total = sum(e for e in expected if e is not None) if None not in expected else None
    bar = (
        tqdm(total=total, desc=benchmark.name, unit="req", file=sys.stderr, dynamic_ncols=True)
        if config.progress
        else None
    )
    resolver = _Resolver(backend, cache, config.batch_size or backend.default_batch_size(), bar)
    scheduler = _Scheduler(benchmark, samples, exchanges, backend.conversation_window())
    try:
        for step, planned in enumerate(scheduler, start=1):
            if bar is not None:
                bar.set_postfix_str(f"step {step}, {len(scheduler.active)} active")
            responses = resolver.resolve([r for _, r in planned])
            for (sample, request), response in zip(planned, responses, strict=True):
                exchanges[sample.id].append(Exchange(request=request, response=response))
    finally:
        if bar is not None:
            bar.close()
    records = [score_record(benchmark, s, exchanges[s.id]) for s in samples]
    aggregate = benchmark.aggregate(records, config.seed)
    result = BenchmarkResult(
        benchmark=benchmark.name,
        version=benchmark.version,
        options=benchmark.options.model_dump(mode="json"),
        data_files=[
            DataFileInfo(path=key, sha256=benchmark.store.sha256(key))
            for key in benchmark.data_keys()
        ]
        + user_files,
        prompt_template_ids=benchmark.prompt_template_ids(),
        n_samples=len(records),
        n_excluded=sum(1 for r in records if r.excluded),
        samples_hash=hash_sample_hashes([s.hash for s in samples]),
        metrics=aggregate.metrics,
        tables=aggregate.tables,
        requests_sent=resolver.counters.sent,
        requests_cached=resolver.counters.cached,
        requests_failed=resolver.counters.failed,
        wall_time_s=round(time.perf_counter() - started, 3),
    )
    return result, records


def score_record(benchmark: Benchmark, sample: Sample, exchanges: list[Exchange]) -> SampleRecord:
    score = benchmark.score_sample(sample, exchanges)
    if benchmark.Scores is not None and not score.excluded:
        benchmark.Scores.model_validate(score.scores)  # a benchmark bug, never a user's
    return SampleRecord(
        benchmark=benchmark.name,
        sample_id=sample.id,
        sample_hash=sample.hash,
        groups=sample.groups,
        data=sample.data,
        exchanges=exchanges,
        outcomes=score.outcomes,
        scores=score.scores,
        excluded=score.excluded,
        exclusion_reason=score.exclusion_reason,
    )


def parse_shard(text: str) -> tuple[int, int]:
    """'i/N' -> (i, N), with 0 <= i < N."""
    try:
        index_text, count_text = text.split("/")
        index, count = int(index_text), int(count_text)
    except ValueError:
        raise RunError(f"--shard '{text}' is not of the form i/N (e.g. 0/4)") from None
    if not 0 <= index < count:
        raise RunError(f"--shard '{text}': need 0 <= i < N")
    return index, count
