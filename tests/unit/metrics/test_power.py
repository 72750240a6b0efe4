"""Minimum detectable effects against statsmodels' power solvers and a simulation."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats
from statsmodels.stats.power import NormalIndPower

from biasaudit.metrics.power import (
    bh_alpha,
    cell_se,
    design_effect,
    mde_from_se,
    n_for_mde,
    predicted_mde,
    proportion_sd,
    se_from_ci,
    se_from_p,
    two_group_mde,
    z_sum,
)


@pytest.mark.parametrize("n", [10, 31, 100, 1508])
@pytest.mark.parametrize("alpha", [0.05, 0.01, 0.05 / 30])
def test_predicted_mde_is_statsmodels_one_sample_z_effect(n: int, alpha: float) -> None:
    # statsmodels: one-sample z-test (ratio=0), standardized effect d at 80 % power; our MDE
    # in sd units is d (statsmodels also counts the far tail: < 0.1 % apart)
    d = NormalIndPower().solve_power(nobs1=n, alpha=alpha, power=0.8, ratio=0)
    assert predicted_mde(1.0, n, alpha) == pytest.approx(d, rel=1e-3)


def test_crows_pairs_scale_by_hand() -> None:
    # 31 pairs on the 0-100 scale at p = 0.5: sd 50, SE 50/sqrt(31) = 8.98; at alpha 0.05
    # (z 1.95996 + 0.84162 = 2.80158): 25.2 points, the "about 25 points"
    assert predicted_mde(50.0, 31, 0.05) == pytest.approx(2.80158 * 50 / math.sqrt(31), rel=1e-5)
    assert z_sum(0.05) == pytest.approx(stats.norm.ppf(0.975) + stats.norm.ppf(0.8))
    assert predicted_mde(50.0, 0, 0.05) is None
    assert predicted_mde(50.0, 100, 0.05, design_effect=4.0) == pytest.approx(
        predicted_mde(50.0, 25, 0.05)
    )


def test_n_for_mde_inverts_predicted_mde() -> None:
    n = n_for_mde(50.0, 5.0, 0.05)
    assert predicted_mde(50.0, n, 0.05) <= 5.0 < predicted_mde(50.0, n - 1, 0.05)  # type: ignore[operator]
    assert n == math.ceil((2.80158 * 50 / 5) ** 2)


def test_se_from_a_normal_interval() -> None:
    low, high = stats.norm.interval(0.95, loc=3.0, scale=2.0)
    assert se_from_ci(low, high) == pytest.approx(2.0)
    assert mde_from_se(2.0, 0.05) == pytest.approx(2.0 * z_sum(0.05))
    with pytest.raises(ValueError, match="reversed"):
        se_from_ci(1.0, 0.0)
    with pytest.raises(ValueError):
        z_sum(0.0)


def test_simulated_power_at_the_mde_is_80_percent() -> None:
    # a one-sample z-test of proportions at the predicted MDE is rejected ~80 % of the time
    rng = np.random.default_rng(0)
    n, alpha = 400, 0.05
    mde = predicted_mde(50.0, n, alpha)
    assert mde is not None
    p = 0.5 + mde / 100
    hits = rng.binomial(n, p, size=20_000) / n
    z = (hits - 0.5) / math.sqrt(0.25 / n)
    power = np.mean(np.abs(z) > stats.norm.ppf(1 - alpha / 2))
    assert power == pytest.approx(0.8, abs=0.02)


def test_bh_alpha_is_the_step_up_bound() -> None:
    # 20 tests, 3 flagged: an unflagged cell needed p <= 0.05 * 4 / 20 = 0.01
    assert bh_alpha(0.05, 20, 3, flagged=False) == pytest.approx(0.01)
    assert bh_alpha(0.05, 20, 3, flagged=True) == pytest.approx(0.0075)
    assert bh_alpha(0.05, 20, 0, flagged=False) == pytest.approx(0.0025)
    assert bh_alpha(0.05, 1, 1, flagged=True) == 0.05 and bh_alpha(0.05, 0, 0, False) == 0.05


@pytest.mark.parametrize(("n1", "ratio"), [(20, 1.0), (50, 2.0), (300, 0.5)])
@pytest.mark.parametrize("alpha", [0.05, 0.005])
def test_two_group_mde_is_statsmodels_two_sample_z_effect(
    n1: int, ratio: float, alpha: float
) -> None:
    # statsmodels: two independent samples of sd 1, n2 = ratio * n1, standardized effect d
    d = NormalIndPower().solve_power(nobs1=n1, alpha=alpha, power=0.8, ratio=ratio)
    assert two_group_mde(1.0, n1, 1.0, n1 * ratio, alpha) == pytest.approx(d, rel=1e-3)
    assert two_group_mde(1.0, 0, 1.0, 5, alpha) is None


def test_two_group_mde_with_unequal_sds_by_hand() -> None:
    # SE = sqrt(30^2/40 + 40^2/90) = sqrt(22.5 + 17.78) = 6.3465; times 2.80158
    se = math.sqrt(30**2 / 40 + 40**2 / 90)
    assert two_group_mde(30.0, 40, 40.0, 90, 0.05) == pytest.approx(2.80158 * se, rel=1e-5)


def test_paired_differences_are_statsmodels_paired_z_power() -> None:
    # a paired design is one sample of differences: with sd_d = 12 and n = 64, the MDE in
    # raw units divided by sd_d is statsmodels' standardized one-sample effect
    d = NormalIndPower().solve_power(nobs1=64, alpha=0.05, power=0.8, ratio=0)
    assert predicted_mde(12.0, 64, 0.05) == pytest.approx(12.0 * d, rel=1e-3)


def test_proportion_sd_and_design_effect_by_hand() -> None:
    assert proportion_sd(0.5) == 50.0 and proportion_sd(0.9, scale=1.0) == pytest.approx(0.3)
    assert proportion_sd(0.0) == 0.0
    # Kish: clusters of 5 with rho 0.25 -> 1 + 4 * 0.25 = 2; the MDE grows by sqrt(2)
    assert design_effect(5, 0.25) == pytest.approx(2.0)
    assert design_effect(1, 0.9) == 1.0
    deff = design_effect(5, 0.25)
    assert predicted_mde(50.0, 200, 0.05, design_effect=deff) == pytest.approx(
        math.sqrt(2.0) * predicted_mde(50.0, 200, 0.05)  # type: ignore[operator]
    )
    with pytest.raises(ValueError):
        proportion_sd(1.5)
    with pytest.raises(ValueError):
        design_effect(0.5, 0.1)


def test_clustered_mde_matches_a_simulation() -> None:
    # clusters of 4 units sharing a random effect (icc 0.3): the variance of the cluster-sampled
    # mean is deff times the iid one
    rng = np.random.default_rng(1)
    m, k, icc = 4, 100, 0.3
    shared = rng.normal(0, math.sqrt(icc), size=(5000, k, 1))
    own = rng.normal(0, math.sqrt(1 - icc), size=(5000, k, m))
    means = (shared + own).mean(axis=(1, 2))
    ratio = means.var() / (1.0 / (m * k))
    assert ratio == pytest.approx(design_effect(m, icc), rel=0.06)


def test_se_from_p_inverts_a_z_test() -> None:
    # scipy: a z test of 3.0 with SE 1.5 has p = 2 (1 - Phi(2)); the SE comes back
    p = 2 * stats.norm.sf(3.0 / 1.5)
    assert se_from_p(3.0, p) == pytest.approx(1.5)
    assert se_from_p(-3.0, p) == pytest.approx(1.5)
    assert se_from_p(0.0, 0.5) is None and se_from_p(2.0, 1.0) is None


def test_a_small_lopsided_cell_takes_its_tests_se() -> None:
    # 10 of 11 CrowS-Pairs pairs toward the stereotype: effect 100 * 10/11 - 50 = 40.9; the
    # exact sign test (scipy binomtest) gives p = 24/2048 = 0.0117; a capped interval
    # [22.7, 50.0] would claim SE 6.96 and an MDE below the effect itself
    p = stats.binomtest(10, 11, 0.5).pvalue
    assert p == pytest.approx(24 / 2048)
    effect = 100 * 10 / 11 - 50
    se = cell_se(22.727, 50.0, effect, p)
    assert se == pytest.approx(effect / stats.norm.isf(p / 2))
    assert se > se_from_ci(22.727, 50.0)
    # an unflagged cell (p above the level applied) is always below its MDE
    alpha_used = 0.05 / 7.5
    assert p > alpha_used and effect < mde_from_se(se, alpha_used)
    # the null SE of 11 pairs, 50 / sqrt(11) = 15.1, is close to the test's 16.2
    assert se == pytest.approx(50 / math.sqrt(11), rel=0.1)
    assert cell_se(0.0, 3.92) == pytest.approx(1.0, rel=1e-3)  # no test: the interval's
    # near the null the interval's SE stays: 5 of 12 (effect -8.3, p = 0.77, the test would
    # imply SE 29, twice the null SE 14.4) with an interval of SE 12.75
    p5 = stats.binomtest(5, 12, 0.5).pvalue
    assert cell_se(-33.33, 16.67, 100 * 5 / 12 - 50, p5) == pytest.approx(50 / 3.919928)
    assert se_from_p(100 * 5 / 12 - 50, p5) > 2 * 50 / math.sqrt(12) * 0.95
