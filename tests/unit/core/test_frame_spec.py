"""What `frame` does with each `MetricSpec` field, against independent oracles.

Oracles: values and outcome rates by hand; intervals against the naive bootstrap loop of
test_frame_statistics (written from the documented draw order); noise floors against exact
enumeration of the label assignments (values [1, 1, 0, 0]: 2 of the 6 assignments of two
'a' labels give gap 1, the other 4 give gap 0).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pytest
from tests.unit.core.bootstrap_oracle import naive_index_ci

from biasaudit.metrics import MetricSpec, frame, sample_key
from biasaudit.results.schema import SampleRecord


def _rec(
    i: int,
    score: float | None,
    group: str,
    cluster: str,
    stratum: str,
    outcomes: Sequence[str] = ("answered",),
    excluded: bool = False,
) -> SampleRecord:
    return SampleRecord(
        benchmark="b",
        sample_id=f"s{i}",
        sample_hash=f"h{i}",
        groups={"g": group, "st": stratum},
        data={"cluster": cluster, "num": i % 3},
        outcomes=list(outcomes),
        scores={} if score is None else {"x": score},
        excluded=excluded,
    )


def _naive_mean(values: Sequence[float], clusters: Sequence[str], strata: Sequence[str],
                seed: int, n: int, level: float) -> tuple[float | None, float | None]:  # fmt: skip
    return naive_index_ci(
        len(values), lambda idx: float(np.mean([values[i] for i in idx])), seed, n, level,
        clusters, strata,
    )  # fmt: skip


N = 24
SCORES = [((i * 37) % 100) / 100 for i in range(N)]  # 0.0, 0.37, 0.74, 0.11, ...
GROUPS = ["a" if i < 12 else "b" for i in range(N)]
CLUSTERS = [f"k{i // 2}" for i in range(N)]
STRATA = ["lo" if i % 4 < 2 else "hi" for i in range(N)]


def test_frame_intervals_respect_clusters_and_strata() -> None:
    records = [_rec(i, SCORES[i], GROUPS[i], CLUSTERS[i], STRATA[i]) for i in range(N)]
    spec = MetricSpec(name="m", score="x", group_by=["g"], cluster_by="cluster",
                      stratify_by="st", n_resamples=300, level=0.9)  # fmt: skip
    metric = frame(records, spec, seed=6)
    assert metric.value == pytest.approx(sum(SCORES) / N)
    want = _naive_mean(SCORES, CLUSTERS, STRATA, 6, 300, 0.9)
    assert (metric.ci_low, metric.ci_high) == pytest.approx(want, abs=1e-12)
    # neither clusters alone nor strata alone give that interval on this data
    assert want != _naive_mean(SCORES, CLUSTERS, [""] * N, 6, 300, 0.9)
    assert want != _naive_mean(SCORES, [str(i) for i in range(N)], STRATA, 6, 300, 0.9)
    assert metric.ci is not None
    assert (metric.ci.method, metric.ci.n_resamples, metric.ci.level) == ("bootstrap", 300, 0.9)
    assert (metric.ci.cluster_by, metric.ci.stratify_by) == ("cluster", "st")
    for group in metric.breakdown("g").groups:
        idx = [i for i in range(N) if GROUPS[i] == group.group]
        g_want = _naive_mean([SCORES[i] for i in idx], [CLUSTERS[i] for i in idx],
                             [STRATA[i] for i in idx], 6, 300, 0.9)  # fmt: skip
        assert (group.ci_low, group.ci_high) == pytest.approx(g_want, abs=1e-12)
        assert group.ci_low is not None and group.ci_low < (group.ci_high or 0)
        # the group interval depends on the seed on this data (so the seed is passed on)
        other = _naive_mean([SCORES[i] for i in idx], [CLUSTERS[i] for i in idx],
                            [STRATA[i] for i in idx], 7, 300, 0.9)  # fmt: skip
        assert other != pytest.approx(g_want, abs=1e-12)
    # group means: the plain average of each group's twelve scores
    a_mean, b_mean = sum(SCORES[:12]) / 12, sum(SCORES[12:]) / 12
    values = {g.group: g.value for g in metric.breakdown("g").groups}
    assert values == {"a": pytest.approx(a_mean), "b": pytest.approx(b_mean)}
    assert metric.breakdown("g").gap == pytest.approx(abs(a_mean - b_mean))
    assert metric.breakdown("g").ratio == pytest.approx(min(a_mean, b_mean) / max(a_mean, b_mean))


def test_frame_passes_the_spec_through() -> None:
    records = [_rec(i, SCORES[i], GROUPS[i], CLUSTERS[i], STRATA[i]) for i in range(4)]
    spec = MetricSpec(name="m", score="x", description="d", reference="eq. 1",
                      higher_is_better=False, where={"g": "a"})  # fmt: skip
    metric = frame(records, spec, seed=0)
    assert (metric.description, metric.reference, metric.higher_is_better) == ("d", "eq. 1", False)
    assert metric.where == {"g": "a"} and metric.statistic == "mean"
    assert metric.include_excluded is False and metric.undefined_reason is None
    assert metric.ci is not None and metric.ci.n_resamples == 1000 and metric.ci.level == 0.95


def test_frame_outcome_modes() -> None:
    records = [
        _rec(0, 1.0, "a", "k0", "lo", outcomes=["unparsed", "answered"]),
        _rec(1, None, "a", "k1", "lo", outcomes=["unparsed", "refused"]),
        _rec(2, 0.0, "b", "k2", "lo", outcomes=["error", "answered"]),
    ]
    every = frame(records, MetricSpec(name="m", score="x", group_by=["g"]), seed=0)
    # all six outcomes: unparsed 2, answered 2, refused 1, error 1
    assert every.outcome_rates == {"answered": 2 / 6, "error": 1 / 6, "refused": 1 / 6,
                                   "unparsed": 2 / 6}  # fmt: skip
    last = frame(records, MetricSpec(name="m", score="x", group_by=["g"], outcomes="last"), 0)
    # the last outcome of the samples with a score only: answered, answered
    assert last.outcome_rates == {"answered": 1.0}
    a = next(g for g in last.breakdown("g").groups if g.group == "a")
    assert a.outcome_rates == {"answered": 1.0}
    none = frame(records, MetricSpec(name="m", score="x", group_by=["g"], outcomes="none"), 0)
    assert none.outcome_rates == {}
    assert all(g.outcome_rates == {} for g in none.breakdown("g").groups)


def test_frame_noise_floor_matches_exact_enumeration() -> None:
    records = [_rec(i, v, g, f"k{i}", "lo") for i, (v, g) in enumerate(
        zip([1.0, 1.0, 0.0, 0.0], ["a", "a", "b", "b"], strict=True))]  # fmt: skip
    spec = MetricSpec(name="m", score="x", group_by=["g"], noise_floor=True,
                      n_permutations=20000)  # fmt: skip
    floor = frame(records, spec, seed=0).breakdown("g").noise_floor
    assert floor is not None
    assert floor.n_permutations == 20000 and floor.permuted_within is None
    assert floor.observed == 1.0  # 1 - 0
    assert floor.null_mean == pytest.approx(2 / 6, abs=0.01)
    assert floor.p_value == pytest.approx(2 / 6, abs=0.01)
    assert floor.null_p95 == 1.0
    # The floor is seeded by the frame's seed: the same seed gives the same floor, another
    # seed another one (a smaller run, where the Monte Carlo noise shows).
    small = spec.model_copy(update={"n_permutations": 30})
    first = frame(records, small, seed=1).breakdown("g").noise_floor
    again = frame(records, small, seed=1).breakdown("g").noise_floor
    assert first == again
    assert any(
        frame(records, small, seed=s).breakdown("g").noise_floor != first for s in range(2, 6)
    )
    # No floor unless asked.
    plain = frame(records, spec.model_copy(update={"noise_floor": False}), seed=0)
    assert plain.breakdown("g").noise_floor is None


def test_frame_noise_floor_within_strata() -> None:
    # Strata pair one 'a' with one 'b' of equal value: shuffling within them changes no
    # group mean, so every null gap is the observed gap |1.5/3 - 1.5/3| = 0, p = 1.
    values = [1.0, 1.0, 0.0, 0.0, 0.5, 0.5]
    records = [_rec(i, v, "ab"[i % 2], f"k{i}", f"s{i // 2}") for i, v in enumerate(values)]
    spec = MetricSpec(name="m", score="x", group_by=["g"], noise_floor=True,
                      permute_within="st", n_permutations=50)  # fmt: skip
    floor = frame(records, spec, seed=0).breakdown("g").noise_floor
    assert floor is not None and floor.permuted_within == "st"
    assert (floor.observed, floor.null_mean, floor.null_p95, floor.p_value) == (0, 0, 0, 1)
    # Without the strata, labels move across pairs and the null is not a point.
    free = frame(records, spec.model_copy(update={"permute_within": None}), seed=0)
    assert free.breakdown("g").noise_floor is not None
    assert (free.breakdown("g").noise_floor.null_p95 or 0) > 0


def test_gap_ratio_undefined_when_every_group_is_zero() -> None:
    records = [_rec(i, 0.0, "ab"[i % 2], f"k{i}", "lo") for i in range(4)]
    breakdown = frame(records, MetricSpec(name="m", score="x", group_by=["g"]), 0).breakdown("g")
    assert breakdown.gap == 0.0 and breakdown.ratio is None


def test_sample_key_groups_then_data_then_error() -> None:
    record = _rec(7, 1.0, "a", "k9", "hi")
    assert sample_key(record, "g") == "a"
    assert sample_key(record, "num") == "1"  # data value 7 % 3, as a string
    assert sample_key(record, "g+num") == "a/1"
    with pytest.raises(KeyError, match="sample s7 has no group or data field 'nope'"):
        sample_key(record, "nope")


def test_frame_last_outcome_of_three_and_include_excluded() -> None:
    records = [
        _rec(0, 1.0, "a", "k0", "lo", outcomes=["unparsed", "refused", "answered"]),
        _rec(1, 0.0, "a", "k1", "lo", outcomes=["error"], excluded=True),
    ]
    last = frame(records, MetricSpec(name="m", score="x", outcomes="last"), seed=0)
    assert last.outcome_rates == {"answered": 1.0}  # the last of three, not the last two
    assert last.value == 1.0 and last.n == 1 and last.n_excluded == 1
    spec = MetricSpec(name="m", score="x", outcomes="last", include_excluded=True)
    both = frame(records, spec, seed=0)
    # the excluded sample counts too: (1 + 0) / 2, its one outcome "error" included
    assert both.value == 0.5 and both.n == 2 and both.include_excluded is True
    assert both.outcome_rates == {"answered": 0.5, "error": 0.5}
    none = frame(records[1:], MetricSpec(name="m", score="x"), seed=0)
    assert none.value is None and none.undefined_reason == "no sample has this score"


def test_frame_where_skips_non_matching_records_wherever_they_are() -> None:
    # The first record is outside the filter; the matching ones after it still count.
    # Matching ('lo'): 0.2, 0.4, 0.9 -> mean 1.5 / 3 = 0.5, n 3.
    rows = [(0.7, "hi"), (0.2, "lo"), (0.1, "hi"), (0.4, "lo"), (0.9, "lo")]
    records = [_rec(i, v, "a", f"k{i}", st) for i, (v, st) in enumerate(rows)]
    spec = MetricSpec(name="m", score="x", where={"st": "lo"})
    value = frame(records, spec, seed=0)
    assert value.n == 3
    assert value.value == pytest.approx(0.5, abs=1e-12)


def test_frame_noise_floor_is_seeded_on_continuous_scores() -> None:
    # 24 distinct scores: two unseeded null samples of 200 permutations would differ in
    # their mean almost surely; the frame's seed must make them equal.
    records = [_rec(i, v, g, f"k{i}", "lo") for i, (v, g) in
               enumerate(zip(SCORES, GROUPS, strict=True))]  # fmt: skip
    spec = MetricSpec(name="m", score="x", group_by=["g"], noise_floor=True,
                      n_permutations=200)  # fmt: skip
    first = frame(records, spec, seed=3).breakdown("g").noise_floor
    again = frame(records, spec, seed=3).breakdown("g").noise_floor
    other = frame(records, spec, seed=4).breakdown("g").noise_floor
    assert first is not None and other is not None
    assert first == again
    assert first.null_mean != other.null_mean
