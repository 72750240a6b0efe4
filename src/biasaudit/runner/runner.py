"""Drives one benchmark through one backend in rounds of batched, cached requests."""

from __future__ import annotations

import sys
import time
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import islice
from typing import Any, Protocol

from tqdm import tqdm

from biasaudit.contract import Benchmark, Sample
from biasaudit.errors import CapabilityError, RunError
from biasaudit.hashing import path_sha256
from biasaudit.models.base import Backend
from biasaudit.requests import Capability, Request, Response, request_key, request_length
from biasaudit.results.digests import exchanges_digest, hash_sample_hashes
from biasaudit.results.schema import (
    BenchmarkResult,
    DataFileInfo,
    Exchange,
    ModelInfo,
    SampleRecord,
    Validity,
)
from biasaudit.runner.cache import cache_key
from biasaudit.runner.compact import CompactTable, kept_data_keys
from biasaudit.runner.scheduler import Scheduler
from biasaudit.sampling import Selection


class Cache(Protocol):
    def get_many(self, keys: Sequence[str]) -> dict[str, Response]: ...

    def put_many(self, items: Sequence[tuple[str, Response]]) -> None: ...


#: (benchmark, its result, its records, whether chat prompts were rendered as a transcript)
#: -> the validity recorded with the result.
Judge = Callable[[Benchmark, BenchmarkResult, Sequence[SampleRecord], bool], Validity]


@dataclass
class RunConfig:
    seed: int = 0
    batch_size: int | None = None
    limit: int | None = None
    #: (index, count): keep samples whose position modulo `count` equals `index`.
    shard: tuple[int, int] | None = None
    progress: bool = True
    #: benchmark name -> its sample plan and the ids it keeps (`biasaudit.sampling`); a
    #: benchmark not named here runs all its samples.
    selections: dict[str, Selection] = field(default_factory=dict)
    #: Shown before the benchmark's name on its progress bar (e.g. "[2/8] ").
    progress_prefix: dict[str, str] = field(default_factory=dict)
    #: A progress bar over several benchmarks (an audit's suite), advanced with each one's.
    overall: Any = None
    #: Judges each finished benchmark's validity (`biasaudit.profile.validity.judge`); the
    #: engine records and never judges. None: results carry no validity.
    judge: Judge | None = None


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
        mode = getattr(benchmark.options, "answer_mode", "free")
        if mode in ("constrained", "extract"):
            problem = backend.choice_support()
            if problem is not None:
                raise CapabilityError(
                    f"benchmark '{benchmark.name}' with answer_mode={mode}: {problem} "
                    "(run with answer_mode=free, or on embedded, gguf, hf or a vLLM server)"
                )
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


class _Bars:
    """Advances several progress bars at once (a benchmark's and an audit's)."""

    def __init__(self, bars: Sequence[Any]) -> None:
        self.bars = bars

    def update(self, n: int) -> None:
        for bar in self.bars:
            bar.update(n)


def _trie_key(request: Request) -> tuple[str, str]:
    """Log-likelihood requests in text order, so that those sharing a context (an item's
    options) or an opening (a pair's sentences) reach the backend in the same call and next
    to each other: the hf backend evaluates a shared prefix once per call, llama.cpp reuses
    the previous request's KV cells."""
    return (getattr(request, "context", ""), getattr(request, "continuation", ""))


class _Resolver:
    """Answers a round of requests from the cache, sending the misses in sorted batches."""

    def __init__(
        self, backend: Backend, cache: Cache, batch_size: int | None, bar: _Bars | None
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
            if kind is Capability.LOGLIKELIHOOD:  # trie order: an item's options adjacent
                items.sort(key=lambda item: _trie_key(item[1]))
            else:
                items.sort(key=lambda item: request_length(item[1]), reverse=True)
            size = self.batch_size or self.backend.call_size(kind)
            for start in range(0, len(items), size):
                batch = items[start : start + size]
                responses = self.backend.dispatch(kind, [r for _, r in batch])
                batch_answers = list(zip([k for k, _ in batch], responses, strict=True))
                self.cache.put_many(batch_answers)
                answers.update(batch_answers)
                self.counters.sent += len(batch)
                self.counters.failed += sum(1 for r in responses if not r.ok)
                if self.bar is not None:
                    self.bar.update(sum(keys.count(k) for k, _ in batch))
        return [answers[k] for k in keys]


def select_samples(
    samples: Iterable[Sample], config: RunConfig, benchmark: str | None = None
) -> Iterator[Sample]:
    """Apply the benchmark's sample plan, then --limit, then --shard, deterministically
    (lazily: `samples` may be a generator)."""
    selection = config.selections.get(benchmark) if benchmark is not None else None
    if selection is not None:
        keep = selection.ids
        samples = (s for s in samples if s.id in keep)
    chosen: Iterator[Sample] = (
        islice(samples, config.limit) if config.limit is not None else iter(samples)
    )
    if config.shard is None:
        return chosen
    index, count = config.shard
    return (s for position, s in enumerate(chosen) if position % count == index)


def expected_total(
    benchmark: Benchmark, samples: Iterable[Sample], config: RunConfig
) -> int | None:
    """Requests the selected samples will need (for the progress bar), if all are known."""
    total = 0
    for sample in select_samples(samples, config, benchmark.name):
        expected = benchmark.expected_requests(sample)
        if expected is None:
            return None
        total += expected
    return total


def run_benchmark(
    benchmark: Benchmark,
    backend: Backend,
    cache: Cache,
    config: RunConfig,
    on_record: Callable[[SampleRecord], None] | None = None,
) -> tuple[BenchmarkResult, Sequence[SampleRecord]]:
    """Run every selected sample to completion, scoring each as it finishes; aggregate.

    Each finished sample's full record goes to `on_record` in sample order (the stream that
    becomes samples.jsonl). The returned records are those full records (a list) when
    `on_record` is None; otherwise compact ones (`CompactRecords`: no exchanges but the
    first failed one, built from a small pickled row each time they are read), which is all
    `aggregate` and the run status need, so a run's memory does not grow with its prompts
    and responses, nor with one live object per record.
    """
    started = time.perf_counter()
    source = benchmark.samples()
    # the user's own files as read now, not as they may be after a long run
    user_files = [DataFileInfo(path=p, sha256=path_sha256(p)) for p in benchmark.user_files()]
    total = None
    if config.progress:
        # A lazy benchmark's samples are generated twice (time, not memory); a list once.
        counted = source if isinstance(source, Sequence) else benchmark.samples()
        total = expected_total(benchmark, counted, config)
    bar = (
        tqdm(
            total=total,
            desc=config.progress_prefix.get(benchmark.name, "") + benchmark.name,
            unit="req",
            file=sys.stderr,
            dynamic_ncols=True,
        )
        if config.progress
        else None
    )
    bars = [b for b in (bar, config.overall if config.progress else None) if b is not None]
    resolver = _Resolver(backend, cache, config.batch_size, _Bars(bars))
    records: list[SampleRecord] = []
    table = CompactTable(kept_data_keys(benchmark))
    exchange_digests: list[str] = []

    def finished(sample: Sample, exchanges: list[Exchange]) -> None:
        record = score_record(benchmark, sample, exchanges)
        exchange_digests.append(exchanges_digest(record))
        if on_record is None:
            records.append(record)
        else:
            on_record(record)
            table.add(record)

    scheduler = Scheduler(
        benchmark,
        select_samples(source, config, benchmark.name),
        backend.conversation_window(),
        finished,
    )
    try:
        for step, planned in enumerate(scheduler, start=1):
            if bar is not None:
                bar.set_postfix_str(f"step {step}, {len(scheduler.active)} active")
            scheduler.answer(planned, resolver.resolve([r for _, r in planned]))
    finally:
        if bar is not None:
            bar.close()
    kept: Sequence[SampleRecord] = records if on_record is None else table.records()
    aggregate = benchmark.aggregate(kept, config.seed)
    # one pass: each read of compact records rebuilds them
    hashes: list[str] = []
    n_excluded = 0
    for record in kept:
        hashes.append(record.sample_hash)
        n_excluded += record.excluded
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
        n_samples=len(kept),
        n_excluded=n_excluded,
        samples_hash=hash_sample_hashes(hashes),
        exchanges_hash=hash_sample_hashes(exchange_digests),
        metrics=aggregate.metrics,
        tables=aggregate.tables,
        requests_sent=resolver.counters.sent,
        requests_cached=resolver.counters.cached,
        requests_failed=resolver.counters.failed,
        wall_time_s=round(time.perf_counter() - started, 3),
        sample_plan=plan.plan if (plan := config.selections.get(benchmark.name)) else None,
    )
    if config.judge is not None:
        result.validity = config.judge(benchmark, result, kept, backend.chat_as_transcript)
    return result, kept


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
