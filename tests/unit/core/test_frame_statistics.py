"""`bootstrap_index_ci`, `metric_from_statistic` and `frame` against independent oracles.

Oracles: values, gaps and ratios by hand next to each assertion; every interval against a
naive bootstrap loop written here from the documented draw order (per stratum in order of
first appearance, one (n_resamples, k) block of cluster indices; the statistic applied to the
concatenated members of the drawn clusters; percentiles at (1 - level) / 2 and its
complement). Defaults (1000 resamples, 95 %) are the ones the benchmark docs state.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import pytest
from tests.unit.core.bootstrap_oracle import naive_index_ci

from biasaudit.metrics import MetricSpec, bootstrap_ci, frame
from biasaudit.metrics.bootstrap import bootstrap_index_ci
from biasaudit.metrics.statistic import metric_from_statistic
from biasaudit.metrics.undefined import Undefined, or_none
from biasaudit.results.schema import SampleRecord

SCORES = [0.0, 1.0, 1.0, 0.0, 1.0, 1.0, 1.0, 0.0, 0.5, 0.25]


def _range(idx: Sequence[int]) -> float:
    """A statistic that is not a mean: max - min of the chosen scores."""
    chosen = [SCORES[i] for i in idx]
    return max(chosen) - min(chosen)


def _mean(idx: Sequence[int]) -> float:
    return float(np.mean([SCORES[i] for i in idx]))


def _share_of_ones(idx: Sequence[int]) -> float | None:
    chosen = [SCORES[i] for i in idx]
    return None if not chosen else sum(1 for v in chosen if v == 1.0) / len(chosen)


def test_bootstrap_index_ci_defaults_equal_the_naive_loop() -> None:
    got = bootstrap_index_ci(10, _share_of_ones, seed=4)
    assert got == pytest.approx(naive_index_ci(10, _share_of_ones, 4), abs=1e-12)
    assert got[0] is not None and got[1] is not None and got[0] < got[1]
    # continuous values: 1000 resamples give other percentiles than 1001 would
    assert bootstrap_index_ci(12, _cmean, seed=4) == pytest.approx(
        naive_index_ci(12, _cmean, 4), abs=1e-12
    )
    assert naive_index_ci(12, _cmean, 4, 1001) != pytest.approx(naive_index_ci(12, _cmean, 4))


def test_bootstrap_index_ci_clusters_strata_level() -> None:
    clusters = ["c0", "c0", "c1", "c2", "c2", "c3", "c4", "c4", "c5", "c6"]
    strata = ["s", "s", "s", "s", "t", "t", "t", "t", "t", "t"]  # c2 spans both strata
    got = bootstrap_index_ci(
        10, _mean, seed=2, n_resamples=300, level=0.8, clusters=clusters, strata=strata
    )
    want = naive_index_ci(10, _mean, 2, 300, 0.8, clusters, strata)
    assert got == pytest.approx(want, abs=1e-12)
    other_seed = naive_index_ci(10, _mean, 3, 300, 0.8, clusters, strata)
    assert want != other_seed  # the seed matters on this data (so `seed` is really passed)
    # the plain (unclustered, unstratified) interval differs on this data
    assert naive_index_ci(10, _mean, 2, 300, 0.8) != want


def test_bootstrap_index_ci_undefined_resample_gives_none() -> None:
    # Undefined as soon as a resample holds no 1.0: (None, None), never a partial interval.
    def needs_a_one(idx: Sequence[int]) -> float | None:
        ones = [i for i in idx if SCORES[i] == 1.0]
        return None if not ones else len(ones) / len(idx)

    assert bootstrap_index_ci(10, needs_a_one, seed=0, n_resamples=2000) == (None, None)
    # a statistic that is defined everywhere gives numbers
    assert bootstrap_index_ci(3, lambda idx: float(len(idx)), seed=0) == (3.0, 3.0)


def _rec(i: int, group: str, cluster: str, stratum: str) -> SampleRecord:
    return SampleRecord(
        benchmark="b",
        sample_id=f"s{i}",
        sample_hash=f"h{i}",
        groups={"g": group},
        data={"cluster": cluster, "stratum": stratum, "k": i % 2},
    )


def test_metric_from_statistic_values_breakdowns_and_cis() -> None:
    groups = ["a", "a", "a", "a", "b", "b", "b", "b", "b", "b"]
    clusters = ["c0", "c0", "c1", "c1", "c2", "c3", "c3", "c4", "c5", "c5"]
    strata = ["s", "s", "t", "t", "s", "s", "t", "t", "t", "t"]
    records = [_rec(i, groups[i], clusters[i], strata[i]) for i in range(10)]
    metric = metric_from_statistic(
        "share",
        records,
        _share_of_ones,
        seed=1,
        statistic_name="share of ones",
        group_by=["g"],
        cluster_by="cluster",
        stratify_by="stratum",
        n_resamples=200,
        level=0.9,
        description="d",
        higher_is_better=False,
        reference="ref",
        n_excluded=3,
        group_ci=True,
    )
    # 5 ones among 10 scores
    assert metric.value == 0.5 and metric.n == 10 and metric.n_excluded == 3
    assert (metric.name, metric.statistic, metric.description, metric.reference) == (
        "share", "share of ones", "d", "ref"
    )  # fmt: skip
    assert metric.higher_is_better is False and metric.score_key is None
    assert metric.undefined_reason is None
    assert metric.ci is not None
    assert (metric.ci.method, metric.ci.n_resamples, metric.ci.level) == ("bootstrap", 200, 0.9)
    assert (metric.ci.cluster_by, metric.ci.stratify_by) == ("cluster", "stratum")
    want = naive_index_ci(10, _share_of_ones, 1, 200, 0.9, clusters, strata)
    assert (metric.ci_low, metric.ci_high) == pytest.approx(want, abs=1e-12)
    by = metric.breakdown("g")
    # a = scores 0, 1, 1, 0 -> 2 / 4; b = 1, 1, 1, 0, 0.5, 0.25 -> 3 / 6
    values = {g.group: (g.value, g.n) for g in by.groups}
    assert values == {"a": (0.5, 4), "b": (0.5, 6)}
    assert by.gap == 0.0 and by.ratio == 1.0
    # group CIs: the group's indices resampled by their own clusters within strata
    b_members = [4, 5, 6, 7, 8, 9]
    b_ci = naive_index_ci(
        6,
        lambda idx: _share_of_ones([b_members[i] for i in idx]),
        1,
        200,
        0.9,
        [clusters[i] for i in b_members],
        [strata[i] for i in b_members],
    )
    got_b = next(g for g in by.groups if g.group == "b")
    assert (got_b.ci_low, got_b.ci_high) == pytest.approx(b_ci, abs=1e-12)
    assert got_b.ci_low != got_b.ci_high


def test_metric_from_statistic_without_group_ci_and_undefined() -> None:
    records = [_rec(i, "ab"[i % 2], f"c{i}", "s") for i in range(4)]
    # scores 0, 1, 1, 0: a = {0, 2} -> range 1; b = {1, 3} -> range 1
    metric = metric_from_statistic("r", records, _range, seed=0, statistic_name="range",
                                   group_by=["g", "k"])  # fmt: skip
    assert metric.value == 1.0
    assert metric.ci is not None and metric.ci.n_resamples == 1000 and metric.ci.level == 0.95
    assert (metric.ci_low, metric.ci_high) == pytest.approx(naive_index_ci(4, _range, 0))
    assert all(g.ci_low is None and g.ci_high is None for g in metric.breakdown("g").groups)
    # "k" is a data field (i % 2 -> "0"/"1"), same partition as g
    assert [g.group for g in metric.breakdown("k").groups] == ["0", "1"]
    # every statistic undefined: value None with a reason, no interval
    empty = metric_from_statistic("e", records, lambda idx: None, seed=0, statistic_name="x")
    assert empty.value is None and empty.undefined_reason
    assert (empty.ci_low, empty.ci_high) == (None, None)
    none = metric_from_statistic("n", [], _range, seed=0, statistic_name="x")
    assert none.value is None and none.n == 0 and none.undefined_reason


def test_metric_from_statistic_gap_ratio_by_hand() -> None:
    # groups a = {0, 1} -> share of ones 1/2; b = {2, 4, 5} -> 3/3: gap 0.5, ratio 0.5
    records = [_rec(i, g, f"c{i}", "s") for i, g in zip([0, 1, 2, 4, 5], "aabbb", strict=True)]
    lookup = [0, 1, 2, 4, 5]
    metric = metric_from_statistic(
        "s", records, lambda idx: _share_of_ones([lookup[i] for i in idx]), seed=0,
        statistic_name="x", group_by=["g"],
    )  # fmt: skip
    assert metric.breakdown("g").gap == 0.5 and metric.breakdown("g").ratio == 0.5


def _naive_mean_ci(values: Sequence[float], clusters: Sequence[str] | None, seed: int,
                   n_resamples: int) -> tuple[float | None, float | None]:  # fmt: skip
    return naive_index_ci(
        len(values), lambda idx: float(np.mean([values[i] for i in idx])), seed, n_resamples,
        clusters=clusters,
    )  # fmt: skip


def _records(
    values: Sequence[float | None],
    groups: Sequence[str] | None = None,
    clusters: Sequence[str] | None = None,
) -> list[SampleRecord]:
    """One record per value (None: no score), with its group "g" and cluster "k"."""
    return [
        SampleRecord(
            benchmark="b", sample_id=str(i), sample_hash=str(i), exchanges=[], outcomes=[],
            groups={
                **({"g": groups[i]} if groups else {}),
                **({"k": clusters[i]} if clusters else {}),
            },
            scores={"m": v},
        )
        for i, v in enumerate(values)
    ]  # fmt: skip


def test_a_clustered_mean_and_its_groups_against_the_naive_loop() -> None:
    """`frame` (the one MetricValue builder; it replaced `grouped_mean`) of a clustered mean."""
    values = [1.0, 0.0, 1.0, None, 1.0, 0.0, 0.0, 1.0]
    groups = ["x", "x", "x", "x", "y", "y", "y", "y"]
    clusters = ["k0", "k0", "k1", "k1", "k2", "k3", "k3", "k4"]
    spec = MetricSpec(name="m", score="m", group_by=["g"], cluster_by="k", n_resamples=300,
                      description="desc", higher_is_better=True)  # fmt: skip
    metric = frame(_records(values, groups, clusters), spec, 3)
    kept = [v for v in values if v is not None]
    kept_clusters = [c for c, v in zip(clusters, values, strict=True) if v is not None]
    assert metric.value == pytest.approx(4 / 7) and metric.n == 7 and metric.n_excluded == 1
    want = _naive_mean_ci(kept, kept_clusters, 3, 300)
    assert (metric.ci_low, metric.ci_high) == pytest.approx(want, abs=1e-12)
    assert _naive_mean_ci(kept, None, 3, 300) != want  # clustering changes it here
    assert metric.ci is not None and metric.ci.n_resamples == 300
    assert metric.ci.cluster_by == "k"
    assert (metric.description, metric.higher_is_better, metric.score_key) == ("desc", True, "m")
    breakdown = metric.breakdowns[0]
    assert breakdown.by == "g"
    x, y = breakdown.groups
    # x: 1, 0, 1 (one None) -> 2/3; y: 1, 0, 0, 1 -> 1/2
    assert (x.value, x.n, y.value, y.n) == (pytest.approx(2 / 3), 3, 0.5, 4)
    x_want = _naive_mean_ci([1.0, 0.0, 1.0], ["k0", "k0", "k1"], 3, 300)
    y_want = _naive_mean_ci([1.0, 0.0, 0.0, 1.0], ["k2", "k3", "k3", "k4"], 3, 300)
    assert (x.ci_low, x.ci_high) == pytest.approx(x_want, abs=1e-12)
    assert (y.ci_low, y.ci_high) == pytest.approx(y_want, abs=1e-12)
    assert breakdown.gap == pytest.approx(2 / 3 - 1 / 2)
    assert breakdown.ratio == pytest.approx((1 / 2) / (2 / 3))


def test_an_unclustered_mean_of_continuous_scores_is_the_plain_bootstrap() -> None:
    values = [0.2, 0.9, 0.4, 0.7, 0.1]
    metric = frame(_records(values), MetricSpec(name="m", score="m"), 5)
    assert metric.breakdowns == [] and metric.description == ""
    assert metric.ci is not None and metric.ci.n_resamples == 1000 and metric.ci.cluster_by is None
    want = _naive_mean_ci(values, None, 5, 1000)
    assert (metric.ci_low, metric.ci_high) == pytest.approx(want, abs=1e-12)
    assert metric.outcome_rates == {}


def test_degenerate_groups() -> None:
    spec = MetricSpec(name="m", score="m", group_by=["g"])
    # One group only: no gap, no ratio.
    one = frame(_records([1.0, 0.5], ["x", "x"]), spec, 0)
    assert one.breakdowns[0].by == "g"
    assert one.breakdowns[0].gap is None and one.breakdowns[0].ratio is None
    # Every group at 0: gap 0, ratio undefined (0 / 0), not 1.
    zero = frame(_records([0.0, 0.0, 0.0, 0.0], ["x", "x", "y", "y"]), spec, 0)
    assert zero.breakdowns[0].gap == 0.0 and zero.breakdowns[0].ratio is None
    # Negative means: max <= 0, no ratio either.
    neg = frame(_records([-1.0, -0.5], ["x", "y"]), spec, 0)
    assert neg.breakdowns[0].gap == 0.5 and neg.breakdowns[0].ratio is None
    # A group whose values are all missing has no value (not NaN) and does not enter the gap;
    # all values missing: no value overall.
    gone = frame(_records([None, None, 1.0], ["x", "x", "y"]), spec, 0)
    x = gone.breakdowns[0].groups[0]
    assert x.value is None and x.n == 0 and gone.breakdowns[0].gap is None
    assert frame(_records([None, None], ["x", "y"]), spec, 0).value is None


def test_or_none_maps_undefined_only() -> None:
    @or_none
    def ratio(a: float, b: float) -> float:
        """a / b"""
        if b == 0:
            raise Undefined("b is zero")
        return a / b

    assert ratio(1.0, 4.0) == 0.25
    assert ratio(1.0, b=0.0) is None
    assert ratio.__doc__ == "a / b" and ratio.__name__ == "ratio"
    with pytest.raises(TypeError):
        ratio("a", 1.0)  # type: ignore[arg-type]
    assert issubclass(Undefined, ValueError)
    assert math.isclose(ratio(a=3.0, b=2.0) or 0.0, 1.5)


def test_bootstrap_ci_messages_default_size_and_single_resample() -> None:
    with pytest.raises(ValueError, match="^clusters must have one label per value$"):
        bootstrap_ci([1.0, 2.0], seed=0, clusters=["a"])
    with pytest.raises(ValueError, match="^strata must have one label per value$"):
        bootstrap_ci([1.0, 2.0], seed=0, strata=["a", "b", "c"])
    values = CONTINUOUS
    # default: 1000 resamples at 95 % (the documented intervals); 1001 would differ here
    want = naive_index_ci(12, _cmean, 9)
    assert bootstrap_ci(values, seed=9) == pytest.approx(want, abs=1e-12)
    assert naive_index_ci(12, _cmean, 9, 1001) != pytest.approx(want, abs=1e-12)
    # one resample: both percentiles are that resample's mean (a point, not "undefined")
    one = naive_index_ci(12, _cmean, 9, 1)
    assert one[0] == one[1] and bootstrap_ci(values, seed=9, n_resamples=1) == pytest.approx(one)


CONTINUOUS = [0.91, 0.12, 0.77, 0.35, 0.08, 0.64, 0.53, 0.29, 0.86, 0.47, 0.15, 0.7]


def _cmean(idx: Sequence[int]) -> float:
    return float(np.mean([CONTINUOUS[i] for i in idx]))


def test_metric_from_statistic_seed_resamples_and_group_ci_without_clusters() -> None:
    records = [_rec(i, "ab"[i % 2], f"c{i // 2}", "s") for i in range(12)]
    metric = metric_from_statistic(
        "m", records, _cmean, seed=3, statistic_name="mean", group_by=["g"], n_resamples=150,
        group_ci=True,
    )  # fmt: skip
    # defaults: no description, no reference, nothing excluded
    assert (metric.description, metric.reference, metric.n_excluded) == ("", "", 0)
    assert metric.higher_is_better is None
    want = naive_index_ci(12, _cmean, 3, 150)
    assert (metric.ci_low, metric.ci_high) == pytest.approx(want, abs=1e-12)
    assert naive_index_ci(12, _cmean, 4, 150) != pytest.approx(want, abs=1e-12)
    assert naive_index_ci(12, _cmean, 3, 1000) != pytest.approx(want, abs=1e-12)
    # group a = even indices, its own plain bootstrap (no clusters, no strata given)
    a_members = list(range(0, 12, 2))
    a_want = naive_index_ci(6, lambda idx: _cmean([a_members[i] for i in idx]), 3, 150)
    a = metric.breakdown("g").groups[0]
    assert a.group == "a" and (a.ci_low, a.ci_high) == pytest.approx(a_want, abs=1e-12)
    assert naive_index_ci(6, lambda idx: _cmean([a_members[i] for i in idx]), 4, 150) != (
        pytest.approx(a_want, abs=1e-12)
    )
    assert naive_index_ci(6, lambda idx: _cmean([a_members[i] for i in idx]), 3, 1000) != (
        pytest.approx(a_want, abs=1e-12)
    )
    undefined = metric_from_statistic("u", records, lambda idx: None, seed=0, statistic_name="x")
    assert undefined.undefined_reason == "the statistic is undefined here"


def test_a_group_interval_uses_the_given_resamples() -> None:
    values = CONTINUOUS
    groups = ["x"] * 6 + ["y"] * 6
    spec = MetricSpec(name="m", score="m", group_by=["g"], n_resamples=120)
    metric = frame(_records(values, groups), spec, 2)
    x = metric.breakdowns[0].groups[0]
    x_want = _naive_mean_ci(values[:6], None, 2, 120)
    assert (x.ci_low, x.ci_high) == pytest.approx(x_want, abs=1e-12)
    assert _naive_mean_ci(values[:6], None, 2, 1000) != pytest.approx(x_want, abs=1e-12)


def test_bootstrap_ci_computes_in_double_precision_for_float32_scores() -> None:
    # Scores often arrive as float32 (model log-probabilities). The interval must be the
    # float64 computation over those values (upcasting is exact), not float32 sums.
    values32 = (np.arange(1, 31, dtype=np.float32) / np.float32(7.0)).astype(np.float32)
    values64 = values32.astype(np.float64).tolist()
    clusters = [f"c{i // 3}" for i in range(30)]
    want = naive_index_ci(
        30, lambda idx: float(np.mean([values64[i] for i in idx])), 1, 200, clusters=clusters
    )
    got = bootstrap_ci(values32, seed=1, n_resamples=200, clusters=clusters)
    assert got == pytest.approx(want, abs=1e-12)
    mean_ci = bootstrap_ci(values32, seed=1, n_resamples=200, statistic=lambda a: float(a.mean()))
    want_mean = naive_index_ci(30, lambda idx: float(np.mean([values64[i] for i in idx])), 1, 200)
    assert mean_ci == pytest.approx(want_mean, abs=1e-12)


def test_a_mean_in_double_precision_for_float32_scores() -> None:
    values = [np.float32(i) / np.float32(7.0) for i in range(1, 13)]
    exact = [float(v) for v in values]  # float32 -> float64 is exact
    spec = MetricSpec(name="m", score="m", group_by=["g"], n_resamples=50)
    metric = frame(_records(values, ["x"] * 6 + ["y"] * 6), spec, 0)  # type: ignore[arg-type]
    assert metric.value == pytest.approx(sum(exact) / 12, abs=1e-15)
    x = metric.breakdowns[0].groups[0]
    assert x.value == pytest.approx(sum(exact[:6]) / 6, abs=1e-15)
