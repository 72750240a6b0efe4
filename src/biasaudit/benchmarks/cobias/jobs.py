"""COBIAS's auxiliary steps (points, contexts, diagnostics) as jobs for the run engine.

They are not benchmarks (no spec, no pinned data): an analysis builds one over the statements
it was given and runs it with `Context.run`, which batches, caches (so an interrupted
generation resumes from the cache) and checks capabilities. The analysis then writes the
step's own output (a CSV of templates, a JSONL of versions, the filtered versions).
"""

from __future__ import annotations

from collections.abc import Sequence

from biasaudit.benchmarks import BenchmarkOptions, Job
from biasaudit.benchmarks.cobias.data import Statement
from biasaudit.data import DataStore


class StatementJob(Job):
    """A step over given statements (not a pinned dataset)."""

    def __init__(
        self,
        options: BenchmarkOptions,
        store: DataStore,
        seed: int,
        statements: Sequence[Statement],
    ) -> None:
        super().__init__(options, store, seed)
        self.statements = list(statements)
