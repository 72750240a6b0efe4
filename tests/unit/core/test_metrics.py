"""Hand-computed checks of the shared metric functions."""

from __future__ import annotations

import numpy as np
import pytest

from biasaudit.metrics import MetricSpec, bootstrap_ci, frame, outcome_rates
from biasaudit.results.schema import SampleRecord


def test_outcome_rates_counts_each_label() -> None:
    assert outcome_rates(["answered", "answered", "refused", "error"]) == {
        "answered": 0.5,
        "error": 0.25,
        "refused": 0.25,
    }
    assert outcome_rates([]) == {}


def test_bootstrap_ci_of_constant_is_the_constant() -> None:
    low, high = bootstrap_ci([2.0, 2.0, 2.0], seed=1)
    assert low == high == 2.0


def test_bootstrap_ci_needs_two_values() -> None:
    assert bootstrap_ci([1.0], seed=0) == (None, None)


def test_bootstrap_ci_is_seeded_and_brackets_the_mean() -> None:
    values = np.arange(20, dtype=float)
    first = bootstrap_ci(values, seed=7)
    assert first == bootstrap_ci(values, seed=7)
    assert first != bootstrap_ci(values, seed=8)
    low, high = first
    assert low is not None and high is not None
    assert low < 9.5 < high


def test_cluster_bootstrap_resamples_whole_clusters() -> None:
    # Clusters a = (0, 0, 0) and b = (1). Resampling two clusters gives a mean over values
    # of 0 (aa), 0.25 (ab) or 1 (bb), with probabilities 1/4, 1/2, 1/4: the 97.5% quantile
    # is 1. Resampling the four values independently reaches 1 only with probability
    # 1/256, so its 97.5% quantile stays below 1.
    values = [0.0, 0.0, 0.0, 1.0]
    clusters = ["a", "a", "a", "b"]
    c_low, c_high = bootstrap_ci(values, seed=3, clusters=clusters, n_resamples=2000)
    p_low, p_high = bootstrap_ci(values, seed=3, n_resamples=2000)
    assert (c_low, c_high) == (0.0, 1.0)
    assert p_low == 0.0 and p_high is not None and p_high < 1.0


def test_cluster_bootstrap_checks_lengths() -> None:
    with pytest.raises(ValueError):
        bootstrap_ci([1.0, 2.0], seed=0, clusters=["a"])


def test_a_mean_by_group_gap_ratio_exclusions_and_outcome_rates() -> None:
    """`frame` (the one MetricValue builder) over records with outcomes and a missing score."""
    values = [1.0, 0.0, 1.0, 1.0, None]
    groups = ["x", "x", "y", "y", "y"]
    outcomes = [["answered"], ["answered"], ["answered"], ["refused"], ["unparsed"]]
    records = [
        SampleRecord(benchmark="b", sample_id=str(i), sample_hash=str(i), exchanges=[],
                     groups={"g": g}, outcomes=o, scores={"acc": v})
        for i, (v, g, o) in enumerate(zip(values, groups, outcomes, strict=True))
    ]  # fmt: skip
    metric = frame(records, MetricSpec(name="acc", score="acc", group_by=["g"]), 0)
    assert metric.value == pytest.approx(0.75)
    assert metric.n == 4
    assert metric.n_excluded == 1
    by = {g.group: g for g in metric.by_group}
    assert by["x"].value == pytest.approx(0.5) and by["x"].n == 2
    assert by["y"].value == pytest.approx(1.0) and by["y"].n == 2
    assert by["y"].outcome_rates == pytest.approx(
        {"answered": 1 / 3, "refused": 1 / 3, "unparsed": 1 / 3}
    )
    assert metric.breakdowns[0].gap == pytest.approx(0.5)
    assert metric.breakdowns[0].ratio == pytest.approx(0.5)
    assert metric.outcome_rates["answered"] == pytest.approx(0.6)
    assert metric.ci_low is not None and metric.ci_low <= 0.75 <= (metric.ci_high or 0)
