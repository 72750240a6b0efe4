"""A conformance kit for benchmark plug-ins, shipped with biasaudit (scikit-learn's
`check_estimator` / `parametrize_with_checks` for benchmarks).

    from biasaudit.testing import check_benchmark
    check_benchmark("winobias")                 # every check; raises ConformanceError

or, in a package's tests, one pytest test per check:

    from biasaudit.testing import benchmark_checks

    @benchmark_checks(["winobias"])
    def test_conformance(benchmark, check):
        check(benchmark)

The checks (`CHECKS`): the spec and its docs page (`BenchmarkSpec.docs`), unique stable ids,
options surviving a JSON round trip, requests within the declared capabilities and an honest
`expected_requests`, failed requests becoming excluded samples, no value on empty input,
every declared metric present, `score` reproducing results.json byte for byte, the same seed
giving the same samples.jsonl, a report without a failed view, the import rules, and the
declared parts (the profile loads; suite keys are sample groups). Requests
are answered by the deterministic `FakeBackend` (no model needed).
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable, Sequence
from contextlib import nullcontext
from pathlib import Path
from typing import Any

from biasaudit.benchmark_spec import BenchmarkSpec
from biasaudit.discovery import added, open_store
from biasaudit.testing.checks import CHECKS, ConformanceError, Subject, run_check
from biasaudit.testing.fake_backend import FakeBackend


def _subject(
    benchmark: str | BenchmarkSpec,
    backend: str,
    data_dir: str | Path | None,
    limit: int,
    scratch: Path,
) -> Subject:
    name = benchmark.name if isinstance(benchmark, BenchmarkSpec) else benchmark
    folder = Path(data_dir) if data_dir is not None else None
    return Subject(name, open_store(folder), folder, backend, limit, scratch)


def check_benchmark(
    benchmark: str | BenchmarkSpec,
    backend: str = "fake",
    *,
    data_dir: str | Path | None = None,
    limit: int = 6,
    checks: Sequence[str] | None = None,
) -> list[str]:
    """Run the conformance checks on a benchmark: the name of an installed one, or its spec
    (which need not be installed: it is added to discovery while the checks run).

    `backend` is the model spec of the run check ("fake": the deterministic fake backend);
    `data_dir` an offline mirror (default: BIASAUDIT_DATA_DIR, else the download cache);
    `limit` the samples per check. Returns the names of the checks run; raises
    `ConformanceError` listing every check that failed.
    """
    chosen = list(checks) if checks is not None else list(CHECKS)
    unknown = sorted(set(chosen) - set(CHECKS))
    if unknown:
        raise ValueError(f"unknown checks {unknown} (known: {', '.join(CHECKS)})")
    failures = []
    spec = benchmark if isinstance(benchmark, BenchmarkSpec) else None
    with (
        added(spec) if spec else nullcontext(),
        tempfile.TemporaryDirectory(prefix="biasaudit-checks-") as scratch,
    ):
        subject = _subject(benchmark, backend, data_dir, limit, Path(scratch))
        for name in chosen:
            try:
                run_check(name, subject)
            except ConformanceError as exc:
                failures.append(f"[{name}] {exc}")
    if failures:
        raise ConformanceError("\n".join(failures))
    return chosen


class BoundCheck:
    """One check with its settings, called with a benchmark name (see `benchmark_checks`)."""

    def __init__(self, check: str, **settings: Any) -> None:
        self.check, self.settings = check, settings

    def __call__(self, benchmark: str | BenchmarkSpec) -> None:
        check_benchmark(benchmark, checks=[self.check], **self.settings)

    def __repr__(self) -> str:
        return self.check


def benchmark_checks(
    benchmarks: Sequence[str] | None = None,
    *,
    backend: str = "fake",
    data_dir: str | Path | None = None,
    limit: int = 6,
) -> Callable[[Callable[..., Any]], Any]:
    """`pytest.mark.parametrize` over (benchmark, check): one test per pair, with ids
    ``<benchmark>-<check>``. Without `benchmarks`, every discovered benchmark."""
    import pytest

    from biasaudit import plugin

    names = list(benchmarks) if benchmarks is not None else plugin.names()
    settings = {"backend": backend, "data_dir": data_dir, "limit": limit}
    pairs = [(n, BoundCheck(c, **settings)) for n in names for c in CHECKS]
    ids = [f"{n}-{c.check}" for n, c in pairs]
    mark: Callable[[Callable[..., Any]], Any] = pytest.mark.parametrize(
        ("benchmark", "check"), pairs, ids=ids
    )
    return mark


__all__ = [
    "CHECKS",
    "BoundCheck",
    "ConformanceError",
    "FakeBackend",
    "benchmark_checks",
    "check_benchmark",
]
