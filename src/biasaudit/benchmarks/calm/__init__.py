"""CALM: multi-task gender and race bias from accuracy gaps between name groups.

Gupta et al., "CALM: A Multi-task Benchmark for Comprehensive Assessment of Language Model
Bias" (arXiv 2308.12539). The benchmark class is `biasaudit.benchmarks.calm.benchmark.CALM`.
"""
