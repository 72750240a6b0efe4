"""Paired before/after change of stop_downstream (STOP §4): hand-computed values, and the
paired bootstrap CI against scipy.stats.bootstrap (paired=True, percentile)."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from biasaudit.benchmarks.stop_downstream.paired import paired_change, paired_outcomes

# 8 items: (answered, correct | None)
BEFORE = [(1, 1), (1, 0), (0, None), (0, None), (1, 1), (0, None), (0, None), (1, 1)]
AFTER = [(1, 1), (1, 1), (1, 0), (0, None), (1, 1), (1, 1), (0, None), (1, 0)]


def test_hand_computed_values() -> None:
    rate = paired_change("answer_rate", BEFORE, AFTER, seed=0, n_resamples=200)
    # before 4/8 = 50 %, after 6/8 = 75 %: +25 points, relative (75 - 50) / 50 = +0.5
    assert (rate.before, rate.after, rate.points, rate.relative) == (50.0, 75.0, 25.0, 0.5)
    perf = paired_change("performance", BEFORE, AFTER, seed=0, n_resamples=200)
    # before: 3 correct of 4 answered = 75 %; after: 4 of 6 = 66.67 %
    assert perf.before == 75.0 and perf.after == pytest.approx(200 / 3)
    assert perf.relative == pytest.approx((200 / 3 - 75) / 75)
    assert perf.n_items == 8


def test_undefined_relative_change_is_none() -> None:
    never = [(0, None)] * 4
    change = paired_change("answer_rate", never, [(1, 1), (0, None), (0, None), (0, None)], seed=0)
    assert change.before == 0.0 and change.after == 25.0 and change.relative is None
    assert change.relative_ci == (None, None)  # no resample has a defined relative change
    assert paired_change("performance", never, never, seed=0).before is None


def test_paired_bootstrap_matches_scipy() -> None:
    rng = np.random.default_rng(5)
    n = 60
    before = [(float(a), None) for a in rng.random(n) < 0.4]
    after = [(float(a), None) for a in rng.random(n) < 0.7]
    change = paired_change("answer_rate", before, after, seed=1, n_resamples=5000)
    b = np.array([o[0] for o in before])
    a = np.array([o[0] for o in after])
    ref = stats.bootstrap(
        (b, a),
        lambda x, y, axis: 100 * (y.mean(axis=axis) - x.mean(axis=axis)),
        paired=True,
        vectorized=True,
        method="percentile",
        n_resamples=5000,
        random_state=2,
    )
    low, high = change.points_ci
    assert low == pytest.approx(ref.confidence_interval.low, abs=1.5)
    assert high == pytest.approx(ref.confidence_interval.high, abs=1.5)
    # an unpaired interval is wider than the paired one only through the covariance; here
    # the two runs are independent draws, so check the width against the normal theory too
    se = 100 * np.sqrt(b.var() / n + a.var() / n)
    assert high - low == pytest.approx(2 * 1.96 * se, rel=0.1)


def test_paired_outcomes_keep_items_of_both_runs() -> None:
    ids, old, new = paired_outcomes(
        {"b": (1, 1), "a": (0, None), "x": (1, 0)}, {"a": (1, 0), "b": (1, 1)}
    )
    assert ids == ["a", "b"] and old == [(0, None), (1, 1)] and new == [(1, 0), (1, 1)]


# --- treatment vs format-only control (issue 32): three runs on the same items --------------

TREATED = [(1, 1), (1, 1), (1, 0), (1, 1), (1, 1), (1, 1), (1, 0), (1, 0)]
CONTROL = [(1, 0), (1, 1), (1, 0), (0, None), (1, 1), (1, 1), (1, 1), (1, 0)]


def test_controlled_change_by_hand() -> None:
    from biasaudit.benchmarks.stop_downstream.paired import controlled_change

    rate = controlled_change("answer_rate", BEFORE, TREATED, CONTROL, seed=0, n_resamples=200)
    # base 4/8 = 50 %, treated 8/8 = 100 %, control 7/8 = 87.5 %
    assert (rate.before, rate.treated, rate.control) == (50.0, 100.0, 87.5)
    assert (rate.treatment, rate.control_effect, rate.difference) == (50.0, 37.5, 12.5)
    perf = controlled_change("performance", BEFORE, TREATED, CONTROL, seed=0, n_resamples=200)
    # treated 5 correct of 8 = 62.5 %; control 4 of 7 answered = 57.14 %; base 75 %
    assert perf.treated == 62.5 and perf.control == pytest.approx(400 / 7)
    assert perf.difference == pytest.approx(62.5 - 400 / 7)
    with pytest.raises(ValueError, match="same items"):
        controlled_change("answer_rate", BEFORE, TREATED, CONTROL[:-1], seed=0)


def test_controlled_difference_ci_matches_a_naive_paired_bootstrap() -> None:
    from biasaudit.benchmarks.stop_downstream.paired import controlled_change

    rng = np.random.default_rng(9)
    n = 80
    base = [(float(a), None) for a in rng.random(n) < 0.4]
    treated = [(float(a), None) for a in rng.random(n) < 0.9]
    control = [(float(a), None) for a in rng.random(n) < 0.85]
    change = controlled_change("answer_rate", base, treated, control, seed=3, n_resamples=4000)
    t = np.array([o[0] for o in treated])
    c = np.array([o[0] for o in control])
    # naive oracle: resample item indices, difference of the two rates on the same items
    draws = np.random.default_rng(4).integers(0, n, size=(4000, n))
    diffs = 100 * (t[draws].mean(axis=1) - c[draws].mean(axis=1))
    low, high = change.difference_ci
    assert low == pytest.approx(np.percentile(diffs, 2.5), abs=1.5)
    assert high == pytest.approx(np.percentile(diffs, 97.5), abs=1.5)


def test_verdict_follows_the_difference_not_before_after() -> None:
    from biasaudit.metrics.controlled import ControlledChange, controlled_verdict

    both_up = ControlledChange(
        "answer_rate", 60, 41.7, 93.3, 86.7, 51.6, (38.3, 65.0), 45.0, (31.6, 58.3), 6.6,
        (-3.3, 16.7),
    )  # fmt: skip
    text = controlled_verdict(both_up, "all answer rate")
    assert "no effect of the alignment data beyond the format-only control" in text
    beyond = ControlledChange(
        "answer_rate", 60, 41.7, 93.3, 50.0, 51.6, (38.3, 65.0), 8.3, (0.0, 16.7), 43.3,
        (30.0, 56.7),
    )  # fmt: skip
    assert "changed it by +43.3 points [+30.0, +56.7] beyond" in controlled_verdict(beyond, "x")
    empty = ControlledChange("performance", 4, None, None, None, None, (None, None), None,
                             (None, None), None, (None, None))  # fmt: skip
    assert "not measurable" in controlled_verdict(empty, "x")


def test_chance_level_by_hand() -> None:
    from biasaudit.benchmarks.stop_downstream.paired import chance_level

    # StereoSet: 2 related options of 3; CrowS-Pairs: 1 of 2 -> (2/3 + 1/2) / 2
    assert chance_level([3, 2], [2, 1]) == pytest.approx(100 * (2 / 3 + 1 / 2) / 2)
    assert chance_level([], []) is None
