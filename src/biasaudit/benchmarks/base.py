"""The plug-in contract's base classes, kept importable from here for compatibility.

They live in `biasaudit.contract` (so that discovery and the plug-in API import each other in
one direction only); new code imports them from `biasaudit.benchmarks`.
"""

from biasaudit.contract import Aggregate, Benchmark, BenchmarkOptions, Job, Sample, SampleScore

__all__ = ["Aggregate", "Benchmark", "BenchmarkOptions", "Job", "Sample", "SampleScore"]
