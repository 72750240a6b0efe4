"""Running COBIAS's auxiliary steps (points, contexts, diagnostics) through the runner.

Those steps are `Benchmark` subclasses that are not registered as benchmarks: they reuse the
runner's batching, request cache (so an interrupted generation resumes from the cache) and
capability check, but write their own outputs (a CSV of templates, a JSONL of versions, a
diagnostics report) instead of a benchmark result.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from biasaudit.benchmarks.base import Benchmark, BenchmarkOptions
from biasaudit.benchmarks.cobias.data import Statement
from biasaudit.data import DataStore
from biasaudit.models import load_backend
from biasaudit.requests import Capability
from biasaudit.results.schema import BenchmarkResult, ModelInfo, SampleRecord
from biasaudit.runner.cache import open_cache
from biasaudit.runner.runner import RunConfig, check_capabilities, model_info, run_benchmark


class StatementTask(Benchmark):
    """A step over given statements (not a pinned dataset) needing one kind of request."""

    #: The request kind the task emits; None for a task that needs no model.
    capability: ClassVar[Capability | None] = None

    def __init__(
        self,
        options: BenchmarkOptions,
        store: DataStore,
        seed: int,
        statements: Sequence[Statement],
    ) -> None:
        super().__init__(options, store, seed)
        self.statements = list(statements)

    def required_capabilities(self) -> frozenset[Capability]:
        return frozenset({self.capability}) if self.capability else frozenset()

    def data_keys(self) -> list[str]:
        return []


@dataclass
class TaskRun:
    result: BenchmarkResult
    records: list[SampleRecord]
    model: ModelInfo


def run_task(
    task: Benchmark,
    model: str,
    *,
    model_args: dict[str, Any] | None = None,
    cache_path: str | Path | None = None,
    use_cache: bool = True,
    batch_size: int | None = None,
    progress: bool = True,
) -> TaskRun:
    """Run `task` on `model` with the shared request cache; returns results and records."""
    backend = load_backend(model, model_args)
    cache = open_cache(cache_path, use_cache)
    try:
        check_capabilities(task, backend, model)
        info = model_info(model, backend)
        result, records = run_benchmark(
            task,
            backend,
            cache,
            RunConfig(seed=task.seed, batch_size=batch_size, progress=progress),
        )
    finally:
        cache.close()
        backend.close()
    return TaskRun(result=result, records=records, model=info)
