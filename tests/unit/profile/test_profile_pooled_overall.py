"""Issue 29: pooled axes (random effects against statsmodels), overall rows equal to each
benchmark's reported headline metric (one statistics stack), and the four-way verdicts."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats
from statsmodels.stats.meta_analysis import combine_effects

from biasaudit.profile.model import OVERALL, POOLED, ProfileCell
from biasaudit.profile.pooled import pooled_cells, random_effects
from biasaudit.profile.verdicts import apply_verdicts


@pytest.mark.parametrize(
    ("effects", "variances"),
    [
        ([1.0, 2.0, 5.0], [1.0, 2.0, 1.5]),  # heterogeneous: tau^2 > 0
        ([3.0, 3.2, 2.9, 3.1], [0.5, 0.4, 0.6, 0.5]),  # homogeneous: tau^2 = 0
        ([-4.0, 6.0], [2.0, 3.0]),
    ],
)
def test_random_effects_equals_statsmodels_dl(effects: list[float], variances: list[float]) -> None:
    ours = random_effects(effects, variances)
    mean, se, tau2, i2 = reference(effects, variances)
    assert ours.mean == pytest.approx(mean)
    assert ours.se == pytest.approx(se)
    assert ours.tau2 == pytest.approx(tau2)
    assert ours.i2 == pytest.approx(i2)
    ref = combine_effects(np.array(effects), np.array(variances), method_re="dl")
    assert ours.q == pytest.approx(ref.q)


def reference(effects: list[float], variances: list[float]) -> tuple[float, float, float, float]:
    """statsmodels' DerSimonian-Laird (mean, SE, tau^2, I^2 %). statsmodels 0.15 leaves a
    negative moment estimate of tau^2 untruncated; DerSimonian & Laird (1986) set it to 0,
    which is the fixed-effect estimate, so below Q < k - 1 the oracle is statsmodels' FE."""
    ref = combine_effects(np.array(effects), np.array(variances), method_re="dl")
    if ref.tau2 < 0:
        return ref.mean_effect_fe, ref.sd_eff_w_fe, 0.0, 0.0
    return ref.mean_effect_re, ref.sd_eff_w_re, ref.tau2, 100 * ref.i2


def test_one_benchmark_pools_to_itself() -> None:
    pooled = random_effects([2.5], [4.0])
    assert (pooled.mean, pooled.se, pooled.tau2, pooled.i2) == (2.5, 2.0, 0.0, 0.0)
    with pytest.raises(ValueError):
        random_effects([], [])


def _cell(benchmark: str, axis: str, effect: float, low: float, high: float, **kw: object):  # type: ignore[no-untyped-def]
    return ProfileCell(
        axis=axis,
        benchmark=benchmark,
        metric="m",
        groups=[],
        design=str(kw.get("design", "one_sample")),
        unbiased=0.0,
        effect=effect,
        ci_low=low,
        ci_high=high,
        p_value=0.01,
        n=400,
        n_clusters=400,
        group=str(kw.get("group", "")),
    )


def test_pooled_cells_use_each_benchmarks_factor_and_skip_what_does_not_pool() -> None:
    se = 1.959964  # a 95 % interval of +-1.96 SE: SE 1 (on the benchmark's scale)
    cells = [
        _cell("crows_pairs", "gender", 4.0, 4.0 - 2 * se, 4.0 + 2 * se),  # SE 2, factor 1
        _cell("bbq", "gender", 0.1, 0.1 - 0.04 * se, 0.1 + 0.04 * se),  # SE 0.04 x 50 = 2
        _cell("stop", "gender", 0.3, 0.1, 0.5, design="contrast"),  # a gap: not pooled
        _cell("crows_pairs", OVERALL, 4.0, 3.0, 5.0),  # no axis
        _cell("winobias", "religion", 1.0, 1.0 - se, 1.0 + se),
    ]
    factors = {"crows_pairs": 1.0, "bbq": 50.0, "winobias": 1.0}
    pooled = {c.axis: c for c in pooled_cells(cells, factors)}
    assert set(pooled) == {"gender", "religion"}
    gender = pooled["gender"]
    mean, se_ref, _, _ = reference([4.0, 5.0], [4.0, 4.0])
    assert gender.benchmark == POOLED and gender.k == 2 and gender.groups == ["bbq", "crows_pairs"]
    assert gender.effect == pytest.approx(mean)
    assert gender.ci_high - gender.effect == pytest.approx(1.959964 * se_ref)

    assert gender.p_value == pytest.approx(2 * stats.norm.sf(abs(mean / se_ref)))
    assert gender.n == 800


def test_a_zero_width_interval_gets_the_agresti_coull_floor() -> None:
    # 30 pairs all preferring the stereotype: the bootstrap interval is [50, 50]
    cell = _cell("crows_pairs", "age", 50.0, 50.0, 50.0)
    cell.n = cell.n_clusters = 30
    cell.p_value = stats.binomtest(30, 30, 0.5).pvalue  # the cell's exact sign test
    (pooled,) = pooled_cells([cell], {"crows_pairs": 1.0})
    p = 2 / 34
    floor = 100 * (p * (1 - p) / 34) ** 0.5  # Agresti-Coull: 4.04
    implied = 50.0 / stats.norm.isf(cell.p_value / 2)  # the sign test's SE: 8.3, larger
    assert implied > floor
    assert pooled.ci_high - pooled.effect == pytest.approx(1.959964 * implied)
    # one benchmark pools to its own test: the same p-value
    assert pooled.p_value == pytest.approx(cell.p_value)
    # without a usable test p-value (p = 1 says nothing), the floor holds
    cell.p_value = 1.0
    (pooled,) = pooled_cells([cell], {"crows_pairs": 1.0})
    assert pooled.ci_high - pooled.effect == pytest.approx(1.959964 * floor)


def test_four_way_verdicts() -> None:
    flagged = _cell("b", "gender", 8.0, 6.0, 10.0)
    flagged.p_value = 0.0001
    small = _cell("b", "age", 0.5, -2.0, 3.0)  # CI inside +-5: negligible
    small.margin = 5.0
    small.p_value = 0.7
    wide = _cell("b", "religion", 3.0, -9.0, 15.0)  # CI leaves the margin: inconclusive
    wide.margin = 5.0
    wide.p_value = 0.6
    assert apply_verdicts([flagged, small, wide], 0.05) == 3
    assert flagged.verdict == "bias toward stereotype"
    assert small.verdict == "negligible: |effect| < 5"
    # 1 flagged of 3: an unflagged cell is tested at 0.05 * 2 / 3; SE = 24 / 3.92

    level = 0.05 * 2 / 3
    mde = (stats.norm.ppf(1 - level / 2) + stats.norm.ppf(0.8)) * 24 / (2 * stats.norm.ppf(0.975))
    assert wide.alpha_used == pytest.approx(level) and wide.mde == pytest.approx(mde)
    assert wide.verdict == f"inconclusive: could not detect less than {mde:.3g}"
    assert flagged.alpha_used == pytest.approx(0.05 / 3)


# --- one statistics stack: the overall row is the benchmark's reported headline metric -----

#: benchmark -> (options, shard, its reported headline metric, that metric's scale factor to
#: the profile's scale)
HEADLINE = {
    "crows_pairs": ({"scorer": "loglikelihood"}, (0, 5), "metric_score", 1.0),
    "winobias": ({}, (0, 4), "stereotype_preference", 100.0),
    "stereoset": ({"scorer": "loglikelihood"}, (0, 11), "ss_micro", 1.0),
    "bbq": ({"categories": ["Religion", "Age"]}, (0, 10), "diff_bias_ambig", 1.0),
    "bbnli": ({"protocol": "generative", "every": 6}, None, "a6_aggregate", 1.0),
}


@pytest.mark.parametrize("name", sorted(HEADLINE))
def test_overall_row_is_the_reported_headline(name: str, tmp_path, data_dir) -> None:  # type: ignore[no-untyped-def]
    from biasaudit.api import evaluate
    from biasaudit.profile import profile_of_dir
    from biasaudit.results.io import read_results

    options, shard, metric, factor = HEADLINE[name]
    run_dir = tmp_path / name
    evaluate(
        name,
        "calib:null",
        model_args={"seed": 3},
        options={name: options},
        output_dir=run_dir,
        data_dir=data_dir,
        shard=shard,
        progress=False,
        use_cache=False,
    )
    bench = read_results(run_dir).benchmark(name)
    reported = {m.name: m for m in bench.metrics}
    assert metric in reported, sorted(reported)
    (overall,) = [c for c in profile_of_dir(run_dir).cells if c.axis == OVERALL]
    assert overall.value == pytest.approx(factor * reported[metric].value)
    assert overall.n == reported[metric].n
