"""Pure metric functions shared by benchmarks: bootstrap CIs and grouped breakdowns."""

from biasaudit.metrics.grouped import grouped_mean, outcome_rates
from biasaudit.metrics.stats import bootstrap_ci

__all__ = ["bootstrap_ci", "grouped_mean", "outcome_rates"]
