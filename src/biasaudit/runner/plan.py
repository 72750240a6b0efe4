"""`RunPlan`: what one run does, with its benchmarks as objects.

`api.run_plan(plan, model)` runs it; `api.evaluate_one` builds one from benchmark names and
keyword settings, and an audit builds one per model from the benchmarks it built when it
planned its suite, so a benchmark is built, and its samples read, once per audit.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from biasaudit.contract import Benchmark
from biasaudit.results.schema import RunResult
from biasaudit.sampling import Selection


@dataclass
class RunHooks:
    """How a run reports while it goes (none changes what it computes)."""

    #: Progress bars on stderr.
    progress: bool = True
    #: Shown before a benchmark's name on its progress bar (e.g. "[2/8] ").
    progress_prefix: dict[str, str] = field(default_factory=dict)
    #: Given the judged run after each benchmark (after results.json is written).
    on_progress: Callable[[RunResult], None] | None = None
    #: A tqdm bar advanced with every benchmark's requests (an audit's suite).
    overall_bar: Any = None


@dataclass
class RunPlan:
    """One run: the benchmark objects (each with its options and data store), which of their
    samples, and how the run is kept (cache, output folder)."""

    benchmarks: list[Benchmark]
    seed: int = 0
    #: Benchmark name -> its sample plan and the ids it keeps; a benchmark not named here
    #: runs all its samples (or the first `limit`).
    selections: dict[str, Selection] = field(default_factory=dict)
    limit: int | None = None
    #: (index, count): keep the samples whose position modulo count is index.
    shard: tuple[int, int] | None = None
    batch_size: int | None = None
    cache_path: str | Path | None = None
    use_cache: bool = True
    #: With a folder, results.json and samples.jsonl are written there.
    output_dir: Path | None = None
    resume: bool = False
    overwrite: bool = False
    #: Samples that may be lost to request errors with the run still complete.
    max_failed_samples: int = 0
    #: Skip benchmarks the model cannot serve and go on past one that fails (an audit).
    tolerate: bool = False
    hooks: RunHooks = field(default_factory=RunHooks)

    @property
    def names(self) -> list[str]:
        return [b.name for b in self.benchmarks]
