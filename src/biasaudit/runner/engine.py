"""The one run engine: every model run goes through `execute`.

`biasaudit run`, `api.evaluate` and every analysis (`Context.run`) open the backend and the
response cache here, check capabilities before any work, run each benchmark with the
batched, cached, resumable runner, and record the model. A benchmark never opens a backend.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from biasaudit._version import __version__, git_revision, python_version
from biasaudit.contract import Aggregate, Benchmark
from biasaudit.errors import BiasauditError, CapabilityError, RunError
from biasaudit.models import load_backend
from biasaudit.results.schema import RunResult, SampleRecord, ToolkitInfo
from biasaudit.runner.cache import open_cache
from biasaudit.runner.compact import ChainedRecords
from biasaudit.runner.runner import (
    Judge,
    RunConfig,
    check_capabilities,
    model_info,
    run_benchmark,
    score_record,
)

#: Called after each benchmark finishes with the run so far and all its records.
OnProgress = Callable[[RunResult, Sequence[SampleRecord]], None]
#: Called with each finished sample's full record, in order (benchmark by benchmark).
OnRecord = Callable[[SampleRecord], None]


def execute(
    benchmarks: Sequence[Benchmark],
    model: str,
    model_args: dict[str, Any] | None = None,
    *,
    config: RunConfig,
    cache_path: str | Path | None = None,
    use_cache: bool = True,
    on_start: Callable[[], None] | None = None,
    on_progress: OnProgress | None = None,
    on_record: OnRecord | None = None,
    tolerate: bool = False,
) -> tuple[RunResult, Sequence[SampleRecord]]:
    """Run `benchmarks` on one model; capabilities of all are checked before any request.

    With `tolerate` (an audit), a benchmark the model cannot serve is left out and recorded
    in the run's `skipped` with the reason, and one that stops with an error (a user's
    mistake or a benchmark's bug) is recorded in `failed`; the others still run. Without it,
    either stops the run.

    With `on_record`, every full record is handed to it as its sample finishes (samples.jsonl
    is written from it) and the records returned and given to `on_progress` are compact
    (no exchanges but a failed one; a lazy sequence, see runner/compact.py); without, they
    are full records in a list. `on_start` is called once the backend (a replay file
    included) and the cache have opened and every capability check passed, before any
    request: the run writes its run.json there, so a failed start leaves nothing behind.
    """
    backend = load_backend(model, model_args)
    cache = open_cache(cache_path, use_cache)
    try:
        skipped: dict[str, str] = {}
        for bench in benchmarks:
            try:
                check_capabilities(bench, backend, model)
            except CapabilityError as exc:
                if not tolerate:
                    raise
                skipped[bench.name] = str(exc)
        if on_start is not None:
            on_start()
        shard = config.shard
        run = RunResult(
            toolkit=ToolkitInfo(
                version=__version__, git_revision=git_revision(), python=python_version()
            ),
            created_at=dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
            model=model_info(model, backend),
            seed=config.seed,
            batch_size=config.batch_size or backend.default_batch_size(),
            limit=config.limit,
            shard=f"{shard[0]}/{shard[1]}" if shard else None,
            benchmarks=[],
            skipped=skipped,
        )
        parts: list[Sequence[SampleRecord]] = []
        for bench in benchmarks:
            if bench.name in skipped:
                continue
            try:
                result, bench_records = run_benchmark(bench, backend, cache, config, on_record)
            except Exception as exc:  # an audit records any benchmark's failure and goes on
                if not tolerate:
                    raise
                message = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
                kind = "" if isinstance(exc, BiasauditError) else f"{type(exc).__name__}: "
                run.failed[bench.name] = f"{kind}{message}"
            else:
                run.benchmarks.append(result)
                parts.append(bench_records)
            if on_progress is not None:
                on_progress(run, _joined(parts))
        return run, _joined(parts)
    finally:
        cache.close()
        backend.close()


def _joined(parts: list[Sequence[SampleRecord]]) -> Sequence[SampleRecord]:
    """The records of all benchmarks so far, in order: a list of full records, or a lazy
    concatenation when any part is compact (so that it is not built all at once)."""
    if all(isinstance(part, list) for part in parts):
        return [record for part in parts for record in part]
    return ChainedRecords(parts)


def run_one(
    benchmark: Benchmark,
    model: str,
    model_args: dict[str, Any] | None = None,
    *,
    cache_path: str | Path | None = None,
    use_cache: bool = True,
    seed: int = 0,
    batch_size: int | None = None,
    limit: int | None = None,
    progress: bool = True,
    judge: Judge | None = None,
) -> tuple[RunResult, list[SampleRecord]]:
    """One benchmark or job on one model (what `Context.run` gives an analysis)."""
    config = RunConfig(
        seed=seed, batch_size=batch_size, limit=limit, progress=progress, judge=judge
    )
    run, records = execute(
        [benchmark], model, model_args, config=config, cache_path=cache_path, use_cache=use_cache
    )
    return run, list(records)  # full records (no `on_record`): already a list


def score_offline(job: Benchmark, *, seed: int = 0) -> tuple[Aggregate, list[SampleRecord]]:
    """Score and aggregate a job whose samples need no request, without opening a backend."""
    samples = job.load_samples()
    if any(job.next_requests(sample, []) for sample in samples):
        raise RunError(f"'{job.name}' sends requests: it needs a model")
    records = [score_record(job, sample, []) for sample in samples]
    return job.aggregate(records, seed), records
