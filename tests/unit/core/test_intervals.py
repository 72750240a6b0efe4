"""Interval rule of metrics/intervals.py; oracle: statsmodels' proportion_confint."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from statsmodels.stats.proportion import proportion_confint

from biasaudit.metrics import MetricSpec, frame
from biasaudit.metrics.intervals import (
    EXCLUDES,
    NO_SPREAD,
    TOO_FEW,
    Interval,
    checked,
    mean_interval,
    proportion_scale,
    wilson,
)
from biasaudit.metrics.statistic import metric_from_statistic
from biasaudit.results.schema import SampleRecord


def _records(scores: list[float], **groups: list[str]) -> list[SampleRecord]:
    return [
        SampleRecord(
            benchmark="synthetic",
            sample_id=str(i),
            sample_hash=str(i),
            groups={key: labels[i] for key, labels in groups.items()},
            scores={"s": score},
        )
        for i, score in enumerate(scores)
    ]


@pytest.mark.parametrize(("k", "n"), [(0, 1), (1, 1), (3, 3), (4, 4), (1, 3), (7, 20), (250, 900)])
@pytest.mark.parametrize("level", [0.9, 0.95])
def test_wilson_matches_statsmodels(k: int, n: int, level: float) -> None:
    low, high = proportion_confint(k, n, alpha=1 - level, method="wilson")
    assert wilson(k, n, level) == pytest.approx((low, high), abs=1e-12)


def test_binary_mean_gets_wilson_on_its_scale() -> None:
    """4/4 percentages: the bootstrap said [100, 100]; Wilson says [51.0, 100]."""
    value = frame(_records([100.0] * 4), MetricSpec(name="m", score="s"), seed=0)
    low, high = proportion_confint(4, 4, method="wilson")
    assert (value.ci_low, value.ci_high) == pytest.approx((100 * low, 100 * high))
    assert value.ci is not None and value.ci.method == "wilson" and value.ci.n_resamples is None
    assert "Wilson" in value.ci.describe()


def test_groups_small_n_get_wilson_too() -> None:
    scores = [1.0, 1.0, 1.0, 0.0, 1.0, 0.0]
    records = _records(scores, g=["a", "a", "a", "b", "b", "b"])
    value = frame(records, MetricSpec(name="m", score="s", group_by=["g"]), seed=0)
    groups = {g.group: g for g in value.breakdowns[0].groups}
    assert (groups["a"].ci_low, groups["a"].ci_high) == pytest.approx(
        proportion_confint(3, 3, method="wilson")
    )
    assert (groups["b"].ci_low, groups["b"].ci_high) == pytest.approx(
        proportion_confint(1, 3, method="wilson")
    )
    assert groups["a"].ci_method is None  # the metric's own method


def test_clustered_proportion_without_spread_falls_back_to_wilson_on_clusters() -> None:
    """Three clusters, each one 1 and one 0: every cluster resample has mean 0.5 (zero
    width); the fallback is Wilson with n = 3 clusters."""
    records = _records([1.0, 0.0] * 3, c=["x", "x", "y", "y", "z", "z"])
    value = frame(records, MetricSpec(name="m", score="s", cluster_by="c"), seed=0)
    assert value.ci is not None and value.ci.method == "wilson-clusters"
    assert (value.ci_low, value.ci_high) == pytest.approx(
        proportion_confint(1.5, 3, method="wilson")
    )


def test_continuous_without_spread_has_no_interval() -> None:
    records = _records([0.2, 0.8] * 3, c=["x", "x", "y", "y", "z", "z"])
    value = frame(records, MetricSpec(name="m", score="s", cluster_by="c"), seed=0)
    assert value.value == pytest.approx(0.5)
    assert (value.ci_low, value.ci_high) == (None, None)
    assert value.ci is not None and value.ci.unavailable_reason == NO_SPREAD


def test_statistic_whose_bootstrap_excludes_it_has_no_interval() -> None:
    """The share of distinct records is 1 on the data and about 0.63 on every resample (a
    statistic biased under resampling): the percentile interval lies below the estimate."""
    records = _records([1.0] * 40)

    def statistic(indices: Sequence[int]) -> float:
        return len(set(indices)) / len(indices)

    value = metric_from_statistic("m", records, statistic, seed=0, statistic_name="distinct")
    assert value.value == 1.0
    assert (value.ci_low, value.ci_high) == (None, None)
    assert value.ci is not None and value.ci.unavailable_reason == EXCLUDES
    assert value.ci.describe() == f"no interval: {EXCLUDES}"


def test_checked_keeps_a_good_interval() -> None:
    assert checked(0.5, 0.4, 0.6).low == 0.4
    assert checked(0.5, 0.5, 0.5).reason == NO_SPREAD
    assert checked(0.7, 0.4, 0.6).reason == EXCLUDES


def test_proportion_scale() -> None:
    assert proportion_scale([0.0, 1.0, 1.0]) == 1.0
    assert proportion_scale([100.0, 0.0]) == 100.0
    assert proportion_scale([0.0, 0.0]) == 1.0
    assert proportion_scale([0.0, 0.5, 1.0]) is None
    assert proportion_scale([50.0, 100.0]) is None


def test_wilson_needs_one_sample() -> None:
    with pytest.raises(ValueError, match=r"^the Wilson interval needs n >= 1$"):
        wilson(0, 0)


def test_too_few_units_or_no_estimate() -> None:
    assert checked(0.5, None, None) == Interval(None, None, "bootstrap", TOO_FEW)
    assert checked(0.5, 0.4, None) == Interval(None, None, "bootstrap", TOO_FEW)
    assert checked(None, 0.4, 0.6) == Interval(None, None, "bootstrap", None)
    one = frame(_records([0.3]), MetricSpec(name="m", score="s"), seed=0)
    assert (one.value, one.ci_low, one.ci_high) == (0.3, None, None)
    assert one.ci is not None and one.ci.method == "bootstrap"
    assert one.ci.unavailable_reason == TOO_FEW


def test_levels_scales_and_strata_reach_the_wilson_intervals() -> None:
    """90 % Wilson on a 0/100 score; the cluster fallback counts (stratum, cluster) units:
    cluster x spans both strata, so there are 4 units, each one 100 and one 0 (no spread)."""
    spec = MetricSpec(name="m", score="s", level=0.9)
    value = frame(_records([100.0, 0.0, 0.0, 100.0, 100.0]), spec, seed=0)
    expected = proportion_confint(3, 5, alpha=0.1, method="wilson")
    assert (value.ci_low, value.ci_high) == pytest.approx(tuple(100 * x for x in expected))
    records = _records(
        [100.0, 0.0] * 4,
        c=["x", "x", "x", "x", "y", "y", "z", "z"],
        t=["s1", "s1", "s2", "s2", "s1", "s1", "s2", "s2"],
    )
    clustered = MetricSpec(name="m", score="s", cluster_by="c", stratify_by="t", level=0.9)
    value = frame(records, clustered, seed=0)
    assert value.ci is not None and value.ci.method == "wilson-clusters"
    expected = proportion_confint(2, 4, alpha=0.1, method="wilson")
    assert (value.ci_low, value.ci_high) == pytest.approx(tuple(100 * x for x in expected))


def test_unavailable_intervals_keep_their_method() -> None:
    assert checked(0.5, 0.5, 0.5).method == "bootstrap"
    assert checked(0.7, 0.4, 0.6).method == "bootstrap"
    assert checked(0.6 + 5e-10, 0.4, 0.6).reason is None  # within the float tolerance
    assert checked(0.4 - 5e-10, 0.4, 0.6).reason is None
    assert checked(0.6 + 1e-6, 0.4, 0.6).reason == EXCLUDES


def test_wilson_default_level_is_95_percent() -> None:
    assert wilson(7, 20) == pytest.approx(proportion_confint(7, 20, method="wilson"), abs=1e-12)


def test_wilson_bounds_stay_within_zero_and_one() -> None:
    # k = n and k = 0: the formula's bound is 1 (or 0), but floating point can land one ulp
    # outside (n = 2, level 0.5: 1.0000000000000002); a proportion's interval never leaves
    # [0, 1]
    for level in (0.5, 0.95):
        for n in range(1, 60):
            assert 0.99 < wilson(n, n, level)[1] <= 1.0
            assert 0.0 <= wilson(0, n, level)[0] < 0.01


def test_checked_tolerances_at_their_edges() -> None:
    # zero width: high - low <= 1e-12 * max(1, |estimate|), relative for large estimates
    assert checked(0.0, 0.0, 1e-12).reason == NO_SPREAD  # exactly the threshold
    assert checked(0.0, 0.0, 1.5e-12).reason is None  # above it (|estimate| < 1: 1e-12)
    assert checked(1e6, 1e6, 1e6 + 1e-7).reason == NO_SPREAD  # 1e-7 <= 1e-12 * 1e6
    # containment: low - tol <= estimate <= high + tol, tol = 1e-9 * max(1, |estimate|)
    assert checked(0.0, 1e-9, 0.5).reason is None  # estimate exactly low - tol
    assert checked(0.0, -0.5, -1e-9).reason is None  # estimate exactly high + tol
    assert checked(0.6 + 1.5e-9, 0.4, 0.6).reason == EXCLUDES  # tol is 1e-9 below |e| = 1
    assert checked(1e6 + 5e-4, 1e6 - 1.0, 1e6).reason is None  # tol = 1e-9 * 1e6 = 1e-3


def test_no_values_no_interval() -> None:
    empty = mean_interval([], clusters=None, strata=None, seed=0, n_resamples=10, level=0.95)
    assert empty == Interval(None, None, "none", "no sample")


def test_stratified_proportion_without_spread_counts_every_sample() -> None:
    # strata but no clusters: the fallback's units are the samples, n = 4: Wilson(4, 4)
    value = mean_interval(
        [1.0, 1.0, 1.0, 1.0], clusters=None, strata=["a", "a", "b", "b"],
        seed=0, n_resamples=50, level=0.95,
    )  # fmt: skip
    assert value.method == "wilson-clusters"
    assert (value.low, value.high) == pytest.approx(proportion_confint(4, 4, method="wilson"))
