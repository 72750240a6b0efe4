"""Benchmarks: one self-describing package each (see `biasaudit.plugin` and
docs/adding-a-benchmark.md). This module is the public plug-in API for benchmark authors."""

from biasaudit.benchmark_spec import BenchmarkSpec, DataSource
from biasaudit.contract import (
    Aggregate,
    Benchmark,
    BenchmarkOptions,
    Job,
    Sample,
    SampleScore,
)
from biasaudit.metrics.frame import MetricSpec

__all__ = [
    "Aggregate",
    "Benchmark",
    "BenchmarkOptions",
    "BenchmarkSpec",
    "DataSource",
    "Job",
    "MetricSpec",
    "Sample",
    "SampleScore",
]
