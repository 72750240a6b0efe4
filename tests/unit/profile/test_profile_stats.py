"""The profile's tests, intervals and FDR control against scipy / statsmodels / enumeration."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from scipy import stats
from statsmodels.stats.multitest import multipletests

from biasaudit.metrics.bootstrap import bootstrap_difference_ci
from biasaudit.metrics.tests import benjamini_hochberg, contrast_test, sign_flip_test
from biasaudit.profile.build import apply_fdr
from biasaudit.profile.model import AGAINST, TOWARD, ProfileCell


@pytest.mark.parametrize(("k", "n"), [(9, 12), (12, 12), (6, 12), (3, 10), (11, 16), (15, 21)])
def test_sign_flip_of_pair_preferences_is_the_exact_binomial_test(k: int, n: int) -> None:
    # k of n pairs prefer the stereotype (+50), the rest the other sentence (-50)
    deviations = [50.0] * k + [-50.0] * (n - k)
    p, how = sign_flip_test(deviations, [str(i) for i in range(n)], seed=0)
    assert p == pytest.approx(stats.binomtest(k, n, 0.5).pvalue, abs=1e-12)
    assert how.startswith("exact")


def test_sign_flip_of_real_values_matches_scipy_permutation_test() -> None:
    rng = np.random.default_rng(3)
    x = rng.normal(0.4, 1.0, size=11)
    oracle = stats.permutation_test(
        (x,),
        lambda a: abs(a.sum()),
        permutation_type="samples",
        alternative="greater",
        n_resamples=np.inf,
    ).pvalue
    p, _ = sign_flip_test(list(x), [str(i) for i in range(11)], seed=0)
    assert p == pytest.approx(oracle, abs=1e-12)


def test_clusters_are_flipped_whole() -> None:
    values = [1.0, 2.0, -0.5, 0.25, 3.0, -1.0, 0.5]
    clusters = ["a", "a", "b", "b", "c", "d", "d"]
    sums = [3.0, -0.25, 3.0, -0.5]  # by hand
    naive = np.mean(
        [
            abs(np.dot(s, sums)) >= abs(sum(sums)) - 1e-12
            for s in itertools.product((1, -1), repeat=4)
        ]
    )
    p, _ = sign_flip_test(values, clusters, seed=0)
    assert p == pytest.approx(naive)


def test_monte_carlo_sign_flip_for_many_clusters() -> None:
    deviations = [50.0] * 25 + [-50.0] * 15
    p, how = sign_flip_test(deviations, [str(i) for i in range(40)], seed=1)
    assert "random" in how
    assert p == pytest.approx(stats.binomtest(25, 40, 0.5).pvalue, abs=0.01)


def test_contrast_test_matches_scipy_independent_permutation() -> None:
    rng = np.random.default_rng(5)
    group, others = rng.normal(0.6, 1, 15), rng.normal(0.0, 1, 30)
    values = [*group, *others]
    member = [True] * 15 + [False] * 30
    ids = [str(i) for i in range(45)]
    p, _ = contrast_test(values, member, ids, [""] * 45, seed=0, n_random=20_000)
    oracle = stats.permutation_test(
        (group, others),
        lambda a, b: abs(a.mean() - b.mean()),
        permutation_type="independent",
        alternative="greater",
        n_resamples=20_000,
        random_state=1,
    ).pvalue
    assert p == pytest.approx(oracle, abs=0.01)


def test_contrast_ci_of_two_groups_of_singletons_covers_the_difference() -> None:
    values = [1.0] * 8 + [0.0] * 2 + [1.0] * 5 + [0.0] * 15
    member = [True] * 10 + [False] * 20
    sides = ["group" if m else "others" for m in member]
    clusters = [str(i) for i in range(30)]
    low, high = bootstrap_difference_ci(
        values, member, seed=0, n_resamples=2000, clusters=clusters, strata=sides
    )
    assert low is not None and high is not None
    assert low < 0.8 - 0.25 < high  # the difference of the two means, by hand
    assert high - low > 0.2  # 10 and 20 binary samples: a wide interval


def test_benjamini_hochberg_is_statsmodels_fdr_bh() -> None:
    p = [0.001, 0.2, 0.03, 0.04, 0.5, 0.012, 0.049, 0.9, 0.0001, 0.3]
    reject, adjusted, _, _ = multipletests(p, alpha=0.05, method="fdr_bh")
    assert benjamini_hochberg(p) == pytest.approx(list(adjusted))
    assert [q <= 0.05 for q in benjamini_hochberg(p)] == list(reject)


def test_verdicts_follow_bh_and_the_sign_of_the_effect() -> None:
    p = [0.001, 0.2, 0.03, 0.04, 0.011]
    effects = [5.0, 3.0, -2.0, 1.0, -0.4]
    cells = [
        ProfileCell(
            axis=f"a{i}",
            benchmark="b",
            metric="m",
            groups=[],
            design="one_sample",
            unbiased=0.0,
            effect=e,
            p_value=pv,
        )
        for i, (pv, e) in enumerate(zip(p, effects, strict=True))
    ]
    untested = ProfileCell(
        axis="x",
        benchmark="b",
        metric="m",
        groups=[],
        design="one_sample",
        unbiased=0.0,
        verdict="not measurable: n = 3 (< 10)",
    )
    assert apply_fdr([*cells, untested], 0.05) == 5
    reject = multipletests(p, alpha=0.05, method="fdr_bh")[0]
    expected = [
        (TOWARD if e > 0 else AGAINST)
        if r
        else "inconclusive: no interval to size what could be missed"  # no CI to size an MDE
        for r, e in zip(reject, effects, strict=True)
    ]
    assert [c.verdict for c in cells] == expected
    assert untested.verdict == "not measurable: n = 3 (< 10)"


def test_a_profile_with_no_tested_cell_says_so() -> None:
    from biasaudit.profile.build import fdr_text
    from biasaudit.profile.card import findings
    from biasaudit.profile.model import Profile

    gated = ProfileCell(
        axis="gender",
        benchmark="crows_pairs",
        metric="m",
        groups=["gender"],
        design="one_sample",
        unbiased=50.0,
        n=2,
        verdict="not measurable: n = 2 (< 10)",
    )
    profile = Profile(model="m", cells=[gated], n_tests=0, fdr=fdr_text(0.05, 0))
    said = findings(profile)
    assert said[0] == "No cell of the profile could be tested: each failed a validity gate."
    assert said[1] == "Not measurable: gender (crows_pairs): n = 2 (< 10)."
    assert profile.fdr.startswith("no cell was tested")
