"""Contrast profile cells (a group against the others, per-group cells) and the FDR verdicts,
from hand-made records of a toy effect. Oracles: gaps by hand, the unstratified permutation
p-value against scipy's hypergeometric sum, the stratified one by hand (every relabelling
within strata ties), a Monte Carlo sign-flip p-value against scipy's permutation_test, the
interval by a naive bootstrap loop (`build_oracles.naive_contrast_ci`) with the hashlib cell
seed, Benjamini-Hochberg by hand on binary fractions."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats
from scipy.stats import hypergeom
from tests.unit.profile.build_oracles import (
    AXES,
    BENCH,
    cell_seed,
    naive_contrast_ci,
    plain_effect,
    rec,
    score,
)

from biasaudit.profile.build import apply_fdr, benchmark_cells, fdr_text
from biasaudit.profile.model import AGAINST, FAVOURS, TOWARD, ProfileCell
from biasaudit.profile_spec import Effect, Gates
from biasaudit.results.schema import SampleRecord

# --- contrast cells ---------------------------------------------------------------------------


def contrast_records() -> list[SampleRecord]:
    """gender: 10 scoring 1 in stratum s1, 4 scoring 0 in s2; religion: 4 scoring 1 in s1,
    10 scoring 0 in s2; one unmapped sample scoring 0 in s2 (it is among the 'others')."""
    out = []
    for i in range(14):
        st, v = ("s1", 1.0) if i < 10 else ("s2", 0.0)
        out.append(rec(f"g{i}", "woman", v, groups={"st": st}, data={"c": f"cg{i}"}))
    for i in range(14):
        st, v = ("s1", 1.0) if i < 4 else ("s2", 0.0)
        out.append(rec(f"r{i}", "muslim", v, groups={"st": st}, data={"c": f"cr{i}"}))
    out.append(rec("o0", "other", 0.0, groups={"st": "s2"}, data={"c": "co0"}))
    return out


def contrast_effect(**extra: object) -> Effect:
    fields: dict[str, object] = dict(
        metric="gap",
        scale="s",
        unbiased=0.0,
        direction="d",
        group_key="g",
        axes=AXES,
        value=score,
        design="contrast",
        cluster="c",
        stratum="st",
    )
    return Effect(**(fields | extra))  # type: ignore[arg-type]


def test_contrast_cell_gap_interval_and_stratified_test() -> None:
    records = contrast_records()
    gender, religion = benchmark_cells(BENCH, records, contrast_effect(), Gates(), None, 5)
    assert (gender.axis, religion.axis) == ("gender", "religion")
    # gender 10/14 against religion's 4 and the unmapped sample: 4 of 15
    assert gender.value == pytest.approx(10 / 14)
    assert gender.effect == pytest.approx(10 / 14 - 4 / 15)
    assert religion.effect == pytest.approx(4 / 14 - 10 / 15)
    assert gender.n == 14 and gender.n_clusters == 14 and gender.design == "contrast"
    # within each stratum every sample scores the same: no relabelling within strata moves
    # the gap, so every one of the 10,000 draws ties the observed gap: p = 10001 / 10001
    assert gender.p_value == 1.0 and religion.p_value == 1.0
    assert (
        gender.test == "permutation test of 29 clusters' group labels within strata (10000 draws)"
    )
    values = [s for r in records if (s := score(r)) is not None]
    member = [r.groups["g"] == "woman" for r in records]
    clusters = [r.data["c"] for r in records]
    order = [i for i in range(29) if member[i]] + [i for i in range(29) if not member[i]]
    low, high = naive_contrast_ci(
        [values[i] for i in order],
        [member[i] for i in order],
        [clusters[i] for i in order],
        cell_seed(5, BENCH, "gender"),
    )
    assert (gender.ci_low, gender.ci_high) == (pytest.approx(low), pytest.approx(high))
    assert gender.ci_method == (
        "percentile bootstrap, 2000 resamples of whole c clusters within group/others"
    )


def test_contrast_without_strata_or_clusters() -> None:
    records = contrast_records()
    effect = contrast_effect(cluster=None, stratum=None)
    gender, _ = benchmark_cells(BENCH, records, effect, Gates(), None, 5)
    # unstratified: 14 of the 29 samples score 1, the group holds 10 of them; the exact
    # two-sided p-value sums the hypergeometric probabilities of the group counts k whose
    # gap |k/14 - (14-k)/15| reaches the observed one (Monte Carlo: within 4 sd of it)
    observed = 10 / 14 - 4 / 15
    exact = sum(
        hypergeom(29, 14, 14).pmf(k)
        for k in range(15)
        if abs(k / 14 - (14 - k) / 15) >= observed - 1e-9
    )
    sd = (exact * (1 - exact) / 10_000) ** 0.5
    assert gender.p_value == pytest.approx(exact, abs=4 * sd)
    assert gender.test == "permutation test of 29 clusters' group labels (10000 draws)"
    assert gender.ci_method == "percentile bootstrap, 2000 resamples of samples within group/others"
    assert gender.n_clusters == 14


def test_contrast_with_too_few_others_or_no_variation() -> None:
    records = [rec(f"g{i}", "woman", float(i % 2)) for i in range(12)]
    others = [rec(f"r{i}", "muslim", float(i % 3 == 0)) for i in range(10)]
    effect = contrast_effect(cluster=None, stratum=None)
    gender, _ = benchmark_cells(BENCH, records + others, effect, Gates(), None, 0)
    assert gender.p_value is not None  # 10 others: enough
    gender, religion = benchmark_cells(BENCH, records + others[:9], effect, Gates(), None, 0)
    assert gender.verdict == "not measurable: only 9 samples in the other groups (< 10)"
    assert religion.verdict == "not measurable: n = 9 (< 10)"
    flat = [rec(f"g{i}", "woman", 0.5) for i in range(12)] + [
        rec(f"r{i}", "muslim", 0.5) for i in range(12)
    ]
    gender, _ = benchmark_cells(BENCH, flat, effect, Gates(), None, 0)
    assert gender.verdict == "not measurable: every sample scores 0.5 (no variation to show a gap)"
    assert gender.effect is None and gender.n == 12
    # one of the others differs: measurable
    flat[-1] = rec("r11", "muslim", 1.0)
    gender, _ = benchmark_cells(BENCH, flat, effect, Gates(), None, 0)
    assert gender.effect == pytest.approx(0.5 - 6.5 / 12)


def test_per_group_cells_contrast_within_their_axis_in_declared_order() -> None:
    axes = {"woman": "gender", "man": "gender", "muslim": "religion", "jew": "religion"}
    effect = contrast_effect(axes=axes, cluster=None, stratum=None, per_group=True)
    # women and men score spread-out values (so that a bootstrap with another seed gives
    # another interval); both religion levels score alike
    women = [round(0.3 + 0.05 * i + 0.013 * i * i, 4) for i in range(12)]
    men = [round(0.1 + 0.04 * i + 0.007 * (i % 5), 4) for i in range(12)]
    records = [rec(f"w{i}", "woman", v) for i, v in enumerate(women)]
    records += [rec(f"m{i}", "man", v) for i, v in enumerate(men)]
    records += [rec(f"u{i}", "muslim", 1.0 if i < 6 else 0.0) for i in range(12)]
    records += [rec(f"j{i}", "jew", 1.0 if i < 6 else 0.0) for i in range(12)]
    cells = benchmark_cells(BENCH, records, effect, Gates(), None, 2)
    assert [(c.axis, c.group) for c in cells] == [
        ("gender", "woman"),
        ("gender", "man"),
        ("religion", "muslim"),
        ("religion", "jew"),
    ]
    woman = cells[0]
    assert woman.groups == ["woman"] and woman.n == 12
    # against men only, not religion
    assert woman.effect == pytest.approx(sum(women) / 12 - sum(men) / 12)
    assert cells[2].effect == pytest.approx(0.0)
    low, high = naive_contrast_ci(
        women + men,
        [True] * 12 + [False] * 12,
        [str(i) for i in range(24)],
        cell_seed(2, BENCH, "gender", "woman"),
    )
    assert (woman.ci_low, woman.ci_high) == (pytest.approx(low), pytest.approx(high))


def test_monte_carlo_p_values_are_reproducible_under_the_run_seed() -> None:
    # 30 samples with non-zero deviations (> 22): the sign-flip test draws random signs;
    # the contrast test always draws. The same records and seed give the same p-values.
    values = [round(0.5 + 0.03 * ((7 * i) % 11) - 0.1 * (i % 3), 4) for i in range(30)]
    records = [rec(f"w{i}", "woman", v) for i, v in enumerate(values)]
    effect = plain_effect()
    (first,) = benchmark_cells(BENCH, records, effect, Gates(), None, 1)
    (again,) = benchmark_cells(BENCH, records, effect, Gates(), None, 1)
    assert first.test == "sign-flip test over 30 samples (10000 random sign vectors)"
    assert first.p_value == again.p_value
    x = np.array(values) - 0.5
    oracle = stats.permutation_test(
        (x,),
        lambda a: abs(a.sum()),
        permutation_type="samples",
        alternative="greater",
        n_resamples=20_000,
        random_state=0,
    ).pvalue
    assert first.p_value == pytest.approx(oracle, abs=0.02)
    contrast = contrast_effect(cluster=None, stratum=None)
    one = benchmark_cells(BENCH, contrast_records(), contrast, Gates(), None, 1)
    two = benchmark_cells(BENCH, contrast_records(), contrast, Gates(), None, 1)
    assert [c.p_value for c in one] == [c.p_value for c in two]


# --- FDR -------------------------------------------------------------------------------------


def _tested(p: float, effect: float | None, benchmark: str = BENCH) -> ProfileCell:
    return ProfileCell(
        axis="gender",
        benchmark=benchmark,
        metric="m",
        groups=[],
        design="one_sample",
        unbiased=0.0,
        effect=effect,
        p_value=p,
    )


NO_INTERVAL = "inconclusive: no interval to size what could be missed"


def test_fdr_flags_at_q_equal_to_alpha_and_never_a_zero_effect() -> None:
    # three p-values, BH by hand with m = 3 (binary fractions, exact in floating point):
    # 0.125 * 3/1 = 0.375, 0.25 * 3/2 = 0.375, 0.5 * 3/3 = 0.5
    cells = [_tested(0.25, -1.0), _tested(0.125, 2.0), _tested(0.5, 3.0)]
    assert apply_fdr(cells, 0.5) == 3
    assert [c.q_value for c in cells] == [0.375, 0.375, 0.5]
    assert [c.verdict for c in cells] == [AGAINST, TOWARD, TOWARD]  # 0.5 <= 0.5: flagged
    apply_fdr(cells, 0.49)
    # these cells have no interval: inconclusive, with nothing to size the MDE by
    assert [c.verdict for c in cells] == [AGAINST, TOWARD, NO_INTERVAL]
    zero = _tested(0.0001, 0.0)
    apply_fdr([zero], 0.05)
    assert zero.verdict == NO_INTERVAL and zero.q_value == pytest.approx(0.0001)
    # a p-value of exactly 0 is a p-value (q = 0), not a missing one
    exact = [_tested(0.0, 1.0), _tested(0.5, 1.0)]
    apply_fdr(exact, 0.05)
    assert exact[0].q_value == 0.0 and exact[0].verdict == TOWARD
    none = _tested(0.0001, None)
    apply_fdr([none], 0.05)
    assert none.verdict == NO_INTERVAL


def test_fdr_family_is_the_tested_cells_only_and_uses_the_benchmarks_words() -> None:
    untested = ProfileCell(
        axis="age",
        benchmark=BENCH,
        metric="m",
        groups=[],
        design="one_sample",
        unbiased=0.0,
        verdict="not measurable: n = 2 (< 10)",
    )
    calm = _tested(0.02, 4.0, benchmark="calm")
    other = _tested(0.5, -1.0)
    assert apply_fdr([untested, calm, other], 0.05) == 2
    assert calm.q_value == pytest.approx(0.04)  # BH over 2 p-values: 0.02 * 2 / 1
    assert calm.verdict == FAVOURS and other.verdict == NO_INTERVAL
    assert untested.q_value is None and untested.verdict == "not measurable: n = 2 (< 10)"
    assert apply_fdr([], 0.05) == 0


def test_fdr_text() -> None:
    assert (
        fdr_text(0.05, 0) == "no cell was tested: every cell failed a validity gate (no FDR family)"
    )
    assert fdr_text(0.1, 7) == (
        "Benjamini-Hochberg over the p-values of all 7 tested cells of this profile: a cell is "
        "flagged when its adjusted p-value (q) is <= 0.1, so the expected share of false flags "
        "among flagged cells is at most 0.1; every other tested cell is negligible (95 % CI "
        "inside the benchmark's margin) or inconclusive, with the minimum detectable effect "
        "(80 % power) of the test BH applied to it"
    )
