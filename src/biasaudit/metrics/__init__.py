"""Shared statistics: bootstrap, permutation floors, the metric frame, agreement, effect sizes.

Benchmarks declare `MetricSpec`s and the base class computes them with `frame`; the pure
functions here are the building blocks (formula functions raise on undefined input;
aggregation turns that into None with a reason).
"""

from biasaudit.metrics.bootstrap import bootstrap_ci, bootstrap_index_ci
from biasaudit.metrics.contrasts import REST, Contrast
from biasaudit.metrics.frame import MetricSpec, frame, sample_key
from biasaudit.metrics.grouped import OUTCOMES, outcome_rates
from biasaudit.metrics.permutation import PermutationNull, permutation_floor, permutation_null
from biasaudit.metrics.statistic import StatisticSpec

__all__ = [
    "OUTCOMES",
    "REST",
    "Contrast",
    "MetricSpec",
    "PermutationNull",
    "StatisticSpec",
    "bootstrap_ci",
    "bootstrap_index_ci",
    "frame",
    "outcome_rates",
    "permutation_floor",
    "permutation_null",
    "sample_key",
]
