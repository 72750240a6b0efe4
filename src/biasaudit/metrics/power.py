"""Minimum detectable effects: how large a bias a test at this n could have missed.

Every profile verdict that is not a finding says how large a bias would have been found
(80 % power). The normal approximation of a two-sided test at level alpha with power 1 - beta
(e.g. Cohen 1988, ch. 12; Bloom 1995, "Minimum detectable effects"):

    MDE = (z_{1 - alpha/2} + z_{1 - beta}) * SE

- from a measured cell, SE is read off its 95 % bootstrap interval (`se_from_ci`: width /
  (2 z_{0.975})), so the clustering the bootstrap respected is in it;
- for a planned cell (no data yet), SE = sd * sqrt(deff / n) (`predicted_mde`), with sd the
  per-unit standard deviation on the benchmark's scale (a proportion p: `proportion_sd`,
  scale sqrt(p(1-p)), 50 points at p = 0.5 on a 0-100 scale) and deff the design effect of
  clustering (1 for independent units; `design_effect`: 1 + (m - 1) rho for clusters of m
  units with intraclass correlation rho, Kish 1965, sec. 5.4);
- paired differences (the two sentences of a pair, one model against another on the same
  items) are a one-sample design on the differences: sd is the sd of the differences;
- two independent groups (WinoBias pro- against anti-stereotypical items, two axes):
  SE = sqrt(sd1^2 / n1 + sd2^2 / n2) (`two_group_mde`).

A bootstrap interval understates the SE of a small or lopsided cell (11 CrowS-Pairs pairs, 10
toward the stereotype: interval [22.7, 50.0], capped by the scale, SE 7.0, while the exact sign
test the cell applies gives p = 0.0117, i.e. SE 16.2). The SE a test really used is implied by
its own p-value (Altman & Bland 2011, "How to obtain the confidence interval from a P value"):
SE = |effect| / z_{1 - p/2} (`se_from_p`). A measured cell's SE (`cell_se`) is its
interval's unless the interval alone would reject at 5 % (|effect| > 1.96 SE) while the cell's
own test is less sure; then the test's. So an effect the cell's test did not flag is always
below its MDE. Near the null the test-implied SE is not used: a discrete test's large p-value
(5 of 12 pairs: p = 0.77) would inflate it to twice the null SE.

The far tail (a significant result of the wrong sign) is left out, as in Cohen's tables; it
changes the MDE by less than 0.1 % at alpha <= 0.05 and 80 % power.

`bh_alpha`: the level a cell is effectively tested at under Benjamini-Hochberg. With m tested
cells of which R are flagged, a further cell is flagged when p <= alpha (R + 1) / m (it would
be the (R+1)-th smallest p-value, and the step-up rule accepts rank R + 1 at that bound); a
flagged cell passed alpha R / m. The MDE of a cell is computed at that level, so it states the
power of the test the profile really applied, not of an uncorrected one.
"""

from __future__ import annotations

import math
from statistics import NormalDist

POWER = 0.8
_Z = NormalDist()


def z_sum(alpha: float, power: float = POWER) -> float:
    """z_{1 - alpha/2} + z_{power}: the MDE in standard errors."""
    if not 0.0 < alpha < 1.0 or not 0.0 < power < 1.0:
        raise ValueError(f"alpha {alpha} and power {power} must lie in (0, 1)")
    return _Z.inv_cdf(1.0 - alpha / 2.0) + _Z.inv_cdf(power)


def mde_from_se(se: float, alpha: float, power: float = POWER) -> float:
    """The minimum detectable effect of a two-sided test with standard error `se`."""
    if se < 0 or math.isnan(se):
        raise ValueError(f"standard error {se} must be >= 0")
    return z_sum(alpha, power) * se


def se_from_ci(low: float, high: float, level: float = 0.95) -> float:
    """The standard error implied by a (roughly normal) `level` confidence interval."""
    if high < low:
        raise ValueError(f"interval [{low}, {high}] is reversed")
    return (high - low) / (2.0 * _Z.inv_cdf(0.5 + level / 2.0))


def se_from_p(effect: float, p_value: float) -> float | None:
    """The SE a two-sided test implied: |effect| / z_{1 - p/2} (None when it says nothing)."""
    if not 0.0 < p_value < 1.0 or effect == 0 or math.isnan(effect):
        return None
    return abs(effect) / _Z.inv_cdf(1.0 - p_value / 2.0)


def cell_se(
    low: float, high: float, effect: float | None = None, p_value: float | None = None
) -> float:
    """A measured cell's SE: its interval's, or its test's where the two disagree on a finding."""
    se = se_from_ci(low, high)
    if effect is None or p_value is None or abs(effect) <= _Z.inv_cdf(0.975) * se:
        return se
    implied = se_from_p(effect, p_value)
    return se if implied is None else max(se, implied)


def predicted_mde(
    sd: float, n: float, alpha: float, power: float = POWER, design_effect: float = 1.0
) -> float | None:
    """MDE of a planned cell of `n` units with per-unit sd `sd` (None when n = 0)."""
    if n <= 0:
        return None
    return mde_from_se(sd * math.sqrt(design_effect / n), alpha, power)


def n_for_mde(
    sd: float, mde: float, alpha: float, power: float = POWER, design_effect: float = 1.0
) -> int:
    """The smallest n whose predicted MDE is at most `mde` (the inverse of `predicted_mde`)."""
    if mde <= 0:
        raise ValueError(f"target MDE {mde} must be > 0")
    return max(1, math.ceil(design_effect * (z_sum(alpha, power) * sd / mde) ** 2))


def bh_alpha(alpha: float, n_tests: int, n_flagged: int, flagged: bool) -> float:
    """The per-cell level Benjamini-Hochberg applied (see the module docstring)."""
    if n_tests <= 0:
        return alpha
    rank = n_flagged if flagged else n_flagged + 1
    return min(alpha, alpha * max(rank, 1) / n_tests)


def proportion_sd(p: float, scale: float = 100.0) -> float:
    """Per-unit sd of a 0/1 outcome with rate p, on a 0-`scale` scale: scale sqrt(p (1 - p))."""
    if not 0.0 <= p <= 1.0:
        raise ValueError(f"proportion {p} must lie in [0, 1]")
    return scale * math.sqrt(p * (1.0 - p))


def design_effect(cluster_size: float, icc: float) -> float:
    """Kish's design effect 1 + (m - 1) rho of clusters of mean size m, intraclass corr. rho."""
    if cluster_size < 1 or not -1.0 <= icc <= 1.0:
        raise ValueError(f"cluster size {cluster_size} must be >= 1 and icc {icc} in [-1, 1]")
    return max(0.0, 1.0 + (cluster_size - 1.0) * icc)


def two_group_mde(
    sd1: float, n1: float, sd2: float, n2: float, alpha: float, power: float = POWER
) -> float | None:
    """MDE of a difference of two independent means (None when either group is empty)."""
    if n1 <= 0 or n2 <= 0:
        return None
    return mde_from_se(math.sqrt(sd1**2 / n1 + sd2**2 / n2), alpha, power)
