"""Persisted outputs: the pydantic schema of results.json and the samples.jsonl records."""

from biasaudit.results.schema import (
    BenchmarkResult,
    DataFileInfo,
    GroupValue,
    MetricValue,
    ModelInfo,
    RunResult,
    SampleRecord,
    Table,
    ToolkitInfo,
)

__all__ = [
    "BenchmarkResult",
    "DataFileInfo",
    "GroupValue",
    "MetricValue",
    "ModelInfo",
    "RunResult",
    "SampleRecord",
    "Table",
    "ToolkitInfo",
]
