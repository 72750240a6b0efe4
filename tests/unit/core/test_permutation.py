"""Permutation floors (biasaudit.metrics.permutation) against hand computation.

Oracles: group means and gaps computed by hand next to each assertion; for the generic
`permutation_floor`, the null sample is recorded by the test's own statistic callback and the
Phipson & Smyth p-value (1 + b) / (1 + B), the mean and the 95th percentile are computed here
from that recorded sample.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence

import numpy as np
import pytest

from biasaudit.metrics.permutation import (
    group_means,
    max_minus_min,
    permutation_floor,
    permutation_null,
)


def test_max_minus_min_of_one_vector_and_of_a_matrix() -> None:
    # One vector of group means: 0.9 - 0.2 = 0.7.
    assert float(max_minus_min(np.array([0.2, 0.9, 0.5]))) == pytest.approx(0.7)
    # One value per row (permutation), NaN (empty group) ignored: rows 0.7 and 0.4 - 0.1.
    matrix = np.array([[0.2, 0.9, 0.5], [np.nan, 0.1, 0.4]])
    assert max_minus_min(matrix) == pytest.approx([0.7, 0.3])


def test_group_means_with_an_empty_last_group_is_nan_without_warning() -> None:
    values = np.array([1.0, 0.0, 0.5])
    # Row 0: group 0 = {1.0, 0.0} -> 0.5, group 1 = {0.5}. Row 1: all in group 0 -> 0.5,
    # group 1 empty (the highest code absent from the last row: bincount must pad it).
    labels = np.array([[0, 0, 1], [0, 0, 0]], dtype=np.intp)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # 0/0 of the empty group must stay silent
        means = group_means(values, labels, 2)
    assert means.shape == (2, 2)
    assert means[0].tolist() == [0.5, 0.5]
    assert means[1, 0] == 0.5 and np.isnan(means[1, 1])


def test_permutation_null_rejects_misaligned_inputs() -> None:
    with pytest.raises(ValueError, match="^groups must have one label per value$"):
        permutation_null([1.0, 2.0], ["a"], seed=0)
    with pytest.raises(ValueError, match="^strata must have one label per value$"):
        permutation_null([1.0, 2.0], ["a", "b"], seed=0, strata=["s"])
    with pytest.raises(ValueError, match="^units must have one label per value$"):
        permutation_null([1.0, 2.0], ["a", "b"], seed=0, units=["u"])
    # a unit holds one group label and lies in one stratum: either mixed is refused
    with pytest.raises(ValueError, match="^unit 'u' mixes group labels or strata$"):
        permutation_null([1.0, 2.0, 3.0], ["a", "b", "b"], seed=0, units=["u", "u", "v"])
    with pytest.raises(ValueError, match="^unit 'u' mixes group labels or strata$"):
        permutation_null(
            [1.0, 2.0, 3.0], ["a", "a", "b"], seed=0, units=["u", "u", "v"], strata=["s", "t", "t"]
        )


class _Recorder:
    """A gap statistic that records every value it returns (the null sample, after the first
    call which is the observed labelling)."""

    def __init__(self, values: Sequence[float]) -> None:
        self.values = values
        self.calls: list[float | None] = []

    def __call__(self, labels: Sequence[str]) -> float | None:
        a = [v for v, g in zip(self.values, labels, strict=True) if g == "a"]
        b = [v for v, g in zip(self.values, labels, strict=True) if g == "b"]
        # mean(a) - mean(b), written out by hand
        gap = sum(a) / len(a) - sum(b) / len(b)
        self.calls.append(gap)
        return gap


def test_permutation_floor_p_value_mean_and_p95_from_the_recorded_null() -> None:
    values = [1.0, 1.0, 0.0, 0.0]
    labels = ["a", "a", "b", "b"]
    stat = _Recorder(values)
    null = permutation_floor(labels, stat, seed=3, n_permutations=60)
    assert null is not None
    observed, sample = stat.calls[0], stat.calls[1:]
    assert observed == 1.0  # mean(1, 1) - mean(0, 0)
    assert len(sample) == 60 and null.n_permutations == 60
    # Possible null gaps: 1 (labels kept), -1 (swapped), 0 (mixed): ties with the observed
    # value count towards b; values 0 and -1 do not.
    b = sum(1 for v in sample if v is not None and v >= 1.0)
    assert 0 < b < 60 and any(v == 0.0 for v in sample)
    assert null.observed == 1.0
    assert null.p_value == (1 + b) / (1 + 60)
    assert null.null_mean == pytest.approx(sum(v for v in sample if v is not None) / 60)
    assert null.null_p95 == pytest.approx(float(np.quantile(np.array(sample, dtype=float), 0.95)))


def test_permutation_floor_counts_ties_within_rounding() -> None:
    # The null statistic differs from the observed only by float rounding (1e-14): a tie.
    # Observed call returns 0.3, every null call 0.3 - 1e-14: b = B, p = 1.
    calls = []

    def stat(labels: Sequence[str]) -> float:
        calls.append(labels)
        return 0.3 if len(calls) == 1 else 0.3 - 1e-14

    null = permutation_floor(["a", "b", "a", "b"], stat, seed=0, n_permutations=9)
    assert null is not None and null.p_value == 1.0


def test_permutation_floor_tie_tolerance_is_inclusive() -> None:
    # A null value exactly `observed - 1e-12` (the tolerance's edge) still counts as a tie:
    # b = B = 9, p = (1 + 9) / (1 + 9) = 1; a value one tolerance further down does not count.
    calls: list[int] = []

    def stat(labels: Sequence[str]) -> float:
        calls.append(1)
        return 1.0 if len(calls) == 1 else 1.0 - 1e-12

    null = permutation_floor(["a", "b", "a", "b"], stat, seed=0, n_permutations=9)
    assert null is not None and null.p_value == 1.0
    calls.clear()

    def below(labels: Sequence[str]) -> float:
        calls.append(1)
        return 1.0 if len(calls) == 1 else 1.0 - 2e-12

    null = permutation_floor(["a", "b", "a", "b"], below, seed=0, n_permutations=9)
    assert null is not None and null.p_value == 1 / 10


def test_permutation_floor_undefined_or_single_group_is_none() -> None:
    assert permutation_floor(["a", "a", "a"], lambda labels: 0.5, seed=0) is None
    assert permutation_floor(["a", "b", "a"], lambda labels: None, seed=0) is None
    # every permuted statistic undefined: no null sample, no floor
    first: list[bool] = []

    def only_observed(labels: Sequence[str]) -> float | None:
        first.append(True)
        return 1.0 if len(first) == 1 else None

    assert permutation_floor(["a", "b"], only_observed, seed=0, n_permutations=5) is None


def test_permutation_floor_with_two_groups_and_no_strata_shuffles_everything() -> None:
    # Two groups, no strata: one stratum of all four samples; the label multiset is kept.
    seen: list[tuple[str, ...]] = []

    def stat(labels: Sequence[str]) -> float:
        seen.append(tuple(labels))
        return 1.0 if labels[0] == "a" else 0.0

    null = permutation_floor(["a", "a", "b", "b"], stat, seed=1, n_permutations=40)
    assert null is not None and null.n_permutations == 40
    assert all(sorted(s) == ["a", "a", "b", "b"] for s in seen)
    assert len(set(seen[1:])) > 1  # labels really moved across the whole sample


def test_permutation_floor_within_strata_and_seeded() -> None:
    # Strata s1 = samples 0,1 and s2 = samples 2,3: a label never leaves its stratum.
    seen: list[tuple[str, ...]] = []

    def stat(labels: Sequence[str]) -> float:
        seen.append(tuple(labels))
        return float(labels.count("a") and labels[0] == "a")

    strata = ["s1", "s1", "s2", "s2"]
    permutation_floor(["a", "b", "b", "a"], stat, seed=5, strata=strata, n_permutations=30)
    assert all(sorted(s[:2]) == ["a", "b"] and sorted(s[2:]) == ["a", "b"] for s in seen)
    # same seed, same shuffles; another seed, other shuffles
    first = list(seen)
    seen.clear()
    permutation_floor(["a", "b", "b", "a"], stat, seed=5, strata=strata, n_permutations=30)
    assert seen == first
    seen.clear()
    permutation_floor(["a", "b", "b", "a"], stat, seed=6, strata=strata, n_permutations=30)
    assert seen != first


def test_permutation_null_is_seeded_with_the_documented_default_size() -> None:
    values = [0.1, 0.9, 0.4, 0.7, 0.3, 0.8, 0.2, 0.6]
    groups = ["a", "b"] * 4
    first = permutation_null(values, groups, seed=11)
    again = permutation_null(values, groups, seed=11)
    other = permutation_null(values, groups, seed=12)
    assert first is not None and again is not None and other is not None
    # 1,000 shuffles by default (docs/benchmarks/bbq.md, "Intervals and floors")
    assert first.n_permutations == 1000
    assert (first.null_mean, first.null_p95, first.p_value) == (
        again.null_mean,
        again.null_p95,
        again.p_value,
    )
    assert first.null_mean != other.null_mean
