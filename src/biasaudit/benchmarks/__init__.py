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
BENCHMARKS.register(
    "calm",
    "biasaudit.benchmarks.calm.benchmark:CALM",
    "CALM: gender and race bias as accuracy gaps on QA, NLI and sentiment (Gupta et al. 2023)",
)

__all__ = [
    "BENCHMARKS",
    "Aggregate",
    "Benchmark",
    "BenchmarkOptions",
    "Sample",
    "SampleScore",
]
