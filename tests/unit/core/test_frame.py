"""The metric frame, the bootstrap and the permutation floor against independent oracles.

Oracles: hand computation, scipy.stats.bootstrap / permutation_test, exact enumeration of a
permutation distribution, and a naive loop written here from the documented draw order.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

import numpy as np
import pytest
from scipy import stats

from biasaudit.metrics import MetricSpec, bootstrap_ci, frame, permutation_null
from biasaudit.metrics.bootstrap import bootstrap_index_ci
from biasaudit.metrics.statistic import metric_from_statistic
from biasaudit.results.schema import SampleRecord


def _naive_bootstrap(values, clusters, strata, n_resamples, seed, level=0.95):  # type: ignore[no-untyped-def]
    """The documented algorithm, as a plain loop: per stratum (first appearance), draw that
    stratum's clusters with replacement, concatenate their members, take the mean."""
    rng = np.random.default_rng(seed)
    order: dict[str, dict[str, list[int]]] = {}
    for i, (c, s) in enumerate(zip(clusters, strata, strict=True)):
        order.setdefault(s, {}).setdefault(c, []).append(i)
    blocks = [list(by_cluster.values()) for by_cluster in order.values()]
    draws = [rng.integers(0, len(b), size=(n_resamples, len(b))) for b in blocks]
    means = []
    for r in range(n_resamples):
        picked = [i for b, d in zip(blocks, draws, strict=True) for k in d[r] for i in b[k]]
        means.append(np.mean([values[i] for i in picked]))
    a = (1 - level) / 2
    return tuple(np.quantile(means, [a, 1 - a]))


def test_stratified_cluster_bootstrap_equals_the_naive_loop() -> None:
    rng = np.random.default_rng(3)
    values = rng.random(40).round(3)
    clusters = [f"c{i // 3}" for i in range(40)]
    strata = ["low" if i < 12 else "high" for i in range(40)]
    got = bootstrap_ci(values, seed=7, clusters=clusters, strata=strata, n_resamples=300)
    want = _naive_bootstrap(values, clusters, strata, 300, 7)
    assert got == pytest.approx(want, abs=1e-12)
    # no strata, no clusters: every sample is its own unit in one stratum
    plain = bootstrap_ci(values, seed=7, n_resamples=300)
    assert plain == pytest.approx(
        _naive_bootstrap(values, [str(i) for i in range(40)], [""] * 40, 300, 7), abs=1e-12
    )


def test_plain_bootstrap_agrees_with_scipy() -> None:
    rng = np.random.default_rng(11)
    values = rng.normal(size=200)
    low, high = bootstrap_ci(values, seed=1, n_resamples=20000)
    ref = stats.bootstrap(
        (values,), np.mean, n_resamples=20000, method="percentile", random_state=2
    ).confidence_interval
    assert low == pytest.approx(ref.low, abs=0.01)
    assert high == pytest.approx(ref.high, abs=0.01)


def test_stratification_removes_design_mix_noise() -> None:
    # Zero variance inside each stratum (the audit's Gemma case): the stratified interval is
    # a point; the unstratified one is not.
    values = [1.0] * 18 + [0.0] * 72
    strata = ["low"] * 18 + ["rest"] * 72
    assert bootstrap_ci(values, seed=0, strata=strata) == (pytest.approx(0.2), pytest.approx(0.2))
    low, high = bootstrap_ci(values, seed=0)
    assert low is not None and high is not None and high - low > 0.1


def test_bootstrap_degenerate_inputs() -> None:
    assert bootstrap_ci([], seed=0) == (None, None)
    assert bootstrap_ci([1.0], seed=0) == (None, None)
    assert bootstrap_ci([1.0, 2.0], seed=0, clusters=["a", "a"]) == (None, None)
    assert bootstrap_index_ci(3, lambda idx: None, seed=0) == (None, None)


def test_permutation_null_matches_exact_enumeration() -> None:
    values = [1.0, 1.0, 0.0, 0.0]
    groups = ["a", "a", "b", "b"]
    # Every assignment of 2 'a' labels among 4 values: gap 1 in 2 of 6, else 0.
    exact = [
        abs(np.mean([values[i] for i in a]) - np.mean([values[i] for i in set(range(4)) - set(a)]))
        for a in itertools.combinations(range(4), 2)
    ]
    null = permutation_null(values, groups, seed=0, n_permutations=20000)
    assert null is not None
    assert null.observed == 1.0
    assert null.null_mean == pytest.approx(np.mean(exact), abs=0.01)
    assert null.p_value == pytest.approx(2 / 6, abs=0.01)
    assert null.null_p95 == 1.0


def test_permutation_p_value_agrees_with_scipy() -> None:
    rng = np.random.default_rng(5)
    x, y = rng.normal(0.3, 1, 30), rng.normal(0, 1, 40)
    ours = permutation_null([*x, *y], ["x"] * 30 + ["y"] * 40, seed=1, n_permutations=20000)
    ref = stats.permutation_test(
        (x, y),
        lambda a, b: abs(np.mean(a) - np.mean(b)),
        permutation_type="independent",
        alternative="greater",
        n_resamples=20000,
        random_state=3,
    )
    assert ours is not None
    assert ours.p_value == pytest.approx(ref.pvalue, abs=0.015)


def test_permutation_within_strata_keeps_strata_fixed() -> None:
    # Each stratum holds one 'a' and one 'b' with equal values: shuffling inside a stratum
    # cannot change any group mean, so the null is exactly the observed gap.
    values = [1.0, 1.0, 0.0, 0.0, 0.5, 0.5]
    groups = ["a", "b"] * 3
    strata = ["s1", "s1", "s2", "s2", "s3", "s3"]
    null = permutation_null(values, groups, seed=0, strata=strata, n_permutations=200)
    assert null is not None
    assert null.observed == 0.0 and null.null_mean == 0.0 and null.p_value == 1.0
    assert permutation_null([1.0, 2.0], ["a", "a"], seed=0) is None


def _record(i: int, score: float | None, group: str, cluster: str, excluded: bool = False,
            outcomes: list[str] | None = None) -> SampleRecord:  # fmt: skip
    return SampleRecord(
        benchmark="b",
        sample_id=f"s{i}",
        sample_hash=f"h{i}",
        groups={"g": group, "sev": "low" if i < 3 else "high"},
        data={"cluster": cluster},
        outcomes=outcomes or ["answered"],
        scores={} if score is None else {"x": score},
        excluded=excluded,
    )


def test_frame_hand_computed() -> None:
    records = [
        _record(0, 1.0, "a", "c0"),
        _record(1, 0.0, "a", "c0", outcomes=["refused"]),
        _record(2, 1.0, "b", "c1"),
        _record(3, 1.0, "b", "c2"),
        _record(4, 0.0, "b", "c3", excluded=True, outcomes=["error"]),
        _record(5, None, "a", "c4", outcomes=["unparsed"]),
    ]
    spec = MetricSpec(name="m", score="x", group_by=["g", "g+sev"], cluster_by="cluster")
    metric = frame(records, spec, seed=0)
    # counted: 0, 1, 2, 3 (4 is excluded, 5 has no score) -> mean (1 + 0 + 1 + 1) / 4
    assert metric.value == 0.75 and metric.n == 4 and metric.n_excluded == 2
    assert metric.outcome_rates == {
        "answered": 3 / 6, "error": 1 / 6, "refused": 1 / 6, "unparsed": 1 / 6
    }  # fmt: skip
    by_g = {g.group: (g.value, g.n) for g in metric.breakdown("g").groups}
    assert by_g == {"a": (0.5, 2), "b": (1.0, 2)}
    assert metric.breakdown("g").gap == 0.5 and metric.breakdown("g").ratio == 0.5
    combined = {g.group for g in metric.breakdown("g+sev").groups}
    assert combined == {"a/low", "a/high", "b/low", "b/high"}
    assert metric.score_key == "x" and metric.ci is not None and metric.ci.cluster_by == "cluster"
    low = frame(records, spec.model_copy(update={"where": {"sev": "low"}}), seed=0)
    assert (low.value, low.n) == (pytest.approx(2 / 3), 3)


def test_frame_empty_is_undefined_not_ideal() -> None:
    spec = MetricSpec(name="m", score="x", group_by=["g"], noise_floor=True)
    metric = frame([], spec, seed=0)
    assert metric.value is None and metric.n == 0 and metric.undefined_reason
    excluded = [_record(0, 1.0, "a", "c", excluded=True), _record(1, 0.0, "b", "d", True)]
    metric = frame(excluded, spec, seed=0)
    assert metric.value is None and metric.n_excluded == 2
    assert all(g.value is None for g in metric.breakdown("g").groups)
    assert metric.breakdown("g").gap is None and metric.breakdown("g").noise_floor is None


def test_no_floor_for_the_grouping_labels_are_shuffled_within() -> None:
    records = [_record(i, float(i % 2), "ab"[i % 2], f"c{i}") for i in range(6)]
    spec = MetricSpec(
        name="m", score="x", group_by=["g", "sev"], noise_floor=True, permute_within="sev"
    )
    metric = frame(records, spec, seed=0)
    assert metric.breakdown("g").noise_floor is not None
    assert metric.breakdown("sev").noise_floor is None  # shuffling sev within sev is a no-op


def test_statistic_metric_carries_outcome_rates() -> None:
    # A statistic (not a mean) reports the outcome rates of its records as `frame` does,
    # overall and per group (issue 11: BBQ's s_AMB and StereoSet's ss had none).
    records = [
        _record(0, 1.0, "a", "c0"),
        _record(1, 0.0, "a", "c0", outcomes=["refused"]),
        _record(2, 1.0, "b", "c1", outcomes=["unknown"]),
        _record(3, None, "b", "c2", outcomes=["unparsed"]),
    ]

    def share_of_ones(idx: Sequence[int]) -> float | None:
        xs = [records[i].scores["x"] for i in idx if "x" in records[i].scores]
        return sum(xs) / len(xs) if xs else None

    metric = metric_from_statistic(
        "s", records, share_of_ones, seed=0, statistic_name="share", group_by=["g"]
    )
    # hand counts: 4 outcomes, one of each kind; group a = answered + refused,
    # group b = unknown + unparsed
    assert metric.value == pytest.approx(2 / 3)
    assert metric.outcome_rates == {
        "answered": 0.25, "refused": 0.25, "unknown": 0.25, "unparsed": 0.25
    }  # fmt: skip
    rates = {g.group: g.outcome_rates for g in metric.breakdown("g").groups}
    assert rates == {
        "a": {"answered": 0.5, "refused": 0.5}, "b": {"unknown": 0.5, "unparsed": 0.5}
    }  # fmt: skip
