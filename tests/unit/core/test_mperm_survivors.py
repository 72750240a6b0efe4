"""Permutation floors (biasaudit.metrics.permutation): cases left open by the mutation run.

Oracles: exact enumeration of every permutation of a tiny design (itertools), exact rational
arithmetic (fractions.Fraction) for group means, and a naive loop over the null sample the
test's own statistic callback records (Phipson & Smyth p = (1 + b) / (1 + B)).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from fractions import Fraction

import pytest

from biasaudit.metrics.permutation import permutation_floor, permutation_null


def test_a_gap_no_larger_than_rounding_is_never_significant() -> None:
    # Values 0, 0 (group a) and 1e-12, 1e-12 (group b): observed gap 1e-12, the size of a
    # rounding error. Enumerating the 6 labellings of {a, a, b, b}: the 2 that keep the pairs
    # together give a gap of 1e-12, the 4 that split them give 0.0 = observed - 1e-12. Every
    # null gap is a tie within the 1e-12 tolerance (the edge included), so b = B and p = 1.
    values = [0.0, 0.0, 1e-12, 1e-12]
    groups = ["a", "a", "b", "b"]
    gaps = set()
    for perm in set(itertools.permutations(groups)):
        a = [v for v, g in zip(values, perm, strict=True) if g == "a"]
        b = [v for v, g in zip(values, perm, strict=True) if g == "b"]
        gaps.add(abs(sum(a) / 2 - sum(b) / 2))
    assert gaps == {0.0, 1e-12} and 1e-12 - 1e-12 == 0.0
    null = permutation_null(values, groups, seed=0, n_permutations=300)
    assert null is not None
    assert null.observed == 1e-12
    assert null.p_value == 1.0


def test_permutation_null_reads_any_python_int_as_a_number() -> None:
    # ints are valid where the signature says float; these exceed 64 bits (2**70).
    # Exact means: a = (2**70 + 3 * 2**70) / 2 = 2 * 2**70, b = (0 + 2**70) / 2 = 2**69,
    # gap = 2**71 - 2**69 = 3 * 2**69.
    big = 2**70
    values = [big, 3 * big, 0, big]
    groups = ["a", "a", "b", "b"]
    exact = Fraction(big + 3 * big, 2) - Fraction(0 + big, 2)
    null = permutation_null(values, groups, seed=0, n_permutations=50)
    assert null is not None
    assert null.observed == float(exact) == float(3 * 2**69)
    # The 6 labellings of {a, a, b, b} give gaps |s_a - s_b| / 2 with s_a + s_b = 5 * 2**70:
    # {big, 3big} | {0, big} and {0, big} | {big, 3big}: 3 * 2**69; {big, 0} | {3big, big}
    # (and swapped): 3 * 2**69; {big, big} | {3big, 0} (and swapped): 2**69. Two thirds of
    # the null is the largest gap, so its 95th percentile is that gap.
    assert null.null_p95 == float(3 * 2**69)


def test_permutation_floor_refuses_strata_of_another_length() -> None:
    def stat(labels: Sequence[str]) -> float:
        return float(labels.count("a"))

    with pytest.raises(ValueError, match=r"^strata must have one label per value$"):
        permutation_floor(["a", "b", "a"], stat, seed=0, strata=["s", "s"], n_permutations=5)


def test_permutation_floor_moves_whole_units_only() -> None:
    # Three units of two samples each, groups a, a, b (a unit keeps one label). The shuffles
    # of whole units give exactly 3 labellings of the six samples (which unit is b);
    # shuffling samples one by one would give 15 (choose the 2 b's among 6).
    labels = ["a", "a", "a", "a", "b", "b"]
    units = ["u1", "u1", "u2", "u2", "u3", "u3"]
    values = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]
    unit_orders = set(itertools.permutations(["a", "a", "b"]))
    expected = {tuple(label for label in order for _ in range(2)) for order in unit_orders}
    assert len(expected) == 3

    seen: list[tuple[str, ...]] = []
    returned: list[float] = []

    def gap(sample_labels: Sequence[str]) -> float:
        a = [v for v, g in zip(values, sample_labels, strict=True) if g == "a"]
        b = [v for v, g in zip(values, sample_labels, strict=True) if g == "b"]
        seen.append(tuple(sample_labels))
        returned.append(abs(sum(a) / len(a) - sum(b) / len(b)))
        return returned[-1]

    null = permutation_floor(labels, gap, seed=2, units=units, n_permutations=120)
    assert null is not None
    assert set(seen[1:]) == expected  # 120 draws of 3 outcomes: all seen, nothing else
    # Hand: b = u3 -> |2.5 - 5.5| = 3; b = u2 -> |3.5 - 3.5| = 0; b = u1 -> |4.5 - 1.5| = 3.
    observed, sample = returned[0], returned[1:]
    assert observed == 3.0
    assert set(sample) == {0.0, 3.0}
    b = sum(1 for v in sample if v >= observed - 1e-12)
    assert null.p_value == (1 + b) / (1 + len(sample))
    assert null.null_mean == sum(sample) / len(sample)
