"""Run directories as the report sees them: results, samples by benchmark, a display label."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from biasaudit.errors import BiasauditError, RunError
from biasaudit.profile.display import gated_result
from biasaudit.results.io import RESULTS_FILE, check_samples_match, iter_samples, read_results
from biasaudit.results.schema import BenchmarkResult, RunResult, SampleRecord


@dataclass
class LoadedRun:
    path: Path
    label: str
    result: RunResult
    records: dict[str, list[SampleRecord]]

    def benchmark(self, name: str) -> BenchmarkResult | None:
        return next((b for b in self.result.benchmarks if b.benchmark == name), None)

    def samples(self, name: str) -> list[SampleRecord]:
        return self.records.get(name, [])


def load_run(path: str | Path, label: str | None = None) -> LoadedRun:
    run_dir = Path(path)
    if not run_dir.is_dir():
        raise RunError(f"{run_dir}: not a directory (expected a biasaudit run directory)")
    # gated numbers (validity gates, docs/profile.md) never reach a report, compare or export
    result = gated_result(read_results(run_dir))
    records: dict[str, list[SampleRecord]] = {}
    for record in iter_samples(run_dir):
        records.setdefault(record.benchmark, []).append(record)
    check_run(run_dir, result, records)
    return LoadedRun(run_dir, label or result.model.spec, result, records)


def check_run(run_dir: Path, result: RunResult, records: dict[str, list[SampleRecord]]) -> None:
    """What `score` checks before it reads a run, for every reader: the options of each
    installed benchmark are valid, and samples.jsonl is the one results.json was
    computed from (count, ids, samples and exchanges hashes, benchmarks), so a report never
    mixes two runs (e.g. the pair a merge killed between its two writes leaves)."""
    from biasaudit.options import parse_options
    from biasaudit.plugin import benchmark_class, discover

    installed = discover()
    for bench in result.benchmarks:
        if bench.benchmark not in installed:  # a plugin not installed here: shown generically
            continue
        try:
            parse_options(benchmark_class(bench.benchmark).Options, bench.options, bench.benchmark)
        except BiasauditError as exc:
            raise RunError(f"{run_dir / RESULTS_FILE}: {exc}") from None
    check_samples_match(run_dir, result, records)


def load_runs(paths: Sequence[str | Path]) -> list[LoadedRun]:
    """Load run directories; labels are the model specs, made unique with the directory name."""
    if not paths:
        raise RunError("no run directory given")
    runs = [load_run(p) for p in paths]
    specs = [r.label for r in runs]
    for run in runs:
        if specs.count(run.label) > 1:
            run.label = f"{run.label} ({run.path.name})"
    labels = [r.label for r in runs]
    for i, run in enumerate(runs):
        if labels.count(run.label) > 1:
            run.label = f"{run.label} #{i + 1}"
    return runs


def benchmark_names(runs: Sequence[LoadedRun]) -> list[str]:
    """Benchmarks in the order they first appear across runs."""
    names: dict[str, None] = {}
    for run in runs:
        for bench in run.result.benchmarks:
            names.setdefault(bench.benchmark, None)
    return list(names)
