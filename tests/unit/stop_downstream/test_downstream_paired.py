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
