"""Benchmark registry. Each benchmark lives in its own subpackage."""

from biasaudit.benchmarks.base import (
    Aggregate,
    Benchmark,
    BenchmarkOptions,
    Sample,
    SampleScore,
)
from biasaudit.registry import Registry

BENCHMARKS: Registry[type[Benchmark]] = Registry("benchmark")
BENCHMARKS.register(
    "stop",
    "biasaudit.benchmarks.stop.benchmark:STOP",
    "STOP: sensitivity to offensive progressions (Morabito et al., EMNLP 2024)",
)
BENCHMARKS.register(
    "cobias",
    "biasaudit.benchmarks.cobias.benchmark:COBIAS",
    "COBIAS: contextual reliability of bias-benchmark statements (Govil et al., WebSci 2025)",
)

__all__ = [
    "BENCHMARKS",
    "Aggregate",
    "Benchmark",
    "BenchmarkOptions",
    "Sample",
    "SampleScore",
]
