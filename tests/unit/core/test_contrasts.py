"""Signed contrasts (metrics/contrasts.py) against numpy and scipy.stats oracles."""

from __future__ import annotations

import numpy as np
import pytest
from pydantic import ValidationError
from scipy import stats

from biasaudit.metrics import REST, Contrast, MetricSpec, frame
from biasaudit.metrics.contrasts import contrast_value
from biasaudit.results.schema import MetricValue, RunResult, SampleRecord


def _record(i: int, groups: dict[str, str], score: float) -> SampleRecord:
    return SampleRecord(
        benchmark="synthetic",
        sample_id=str(i),
        sample_hash=str(i),
        groups=groups,
        scores={"s": score},
    )


def _independent(seed: int) -> tuple[list[SampleRecord], dict[str, np.ndarray]]:
    """Continuous scores for three religions (independent samples), means 0.6 / 0.5 / 0.45."""
    rng = np.random.default_rng(seed)
    by_group = {
        "Muslim": rng.normal(0.6, 0.3, 40),
        "Christian": rng.normal(0.5, 0.3, 55),
        "Jewish": rng.normal(0.45, 0.3, 25),
    }
    records = [
        _record(i, {"religion": g}, float(v))
        for i, (g, v) in enumerate((g, v) for g, vs in by_group.items() for v in vs)
    ]
    return records, by_group


def _spec(**extra: object) -> MetricSpec:
    fields: dict[str, object] = {
        "name": "m",
        "score": "s",
        "group_by": ["religion"],
        "noise_floor": True,
        "n_resamples": 4000,
        "n_permutations": 4000,
    }
    return MetricSpec.model_validate(fields | extra)


def test_a_minus_b_against_scipy() -> None:
    records, by_group = _independent(0)
    spec = _spec(contrasts=[Contrast(by="religion", a="Muslim", b="Jewish")])
    (contrast,) = frame(records, spec, seed=1).contrasts
    a, b = by_group["Muslim"], by_group["Jewish"]
    assert contrast.name == "religion: Muslim - Jewish"
    assert contrast.value == pytest.approx(a.mean() - b.mean())
    assert (contrast.value_a, contrast.n_a, contrast.n_b) == (pytest.approx(a.mean()), 40, 25)
    boot = stats.bootstrap(
        (a, b),
        lambda x, y, axis: x.mean(axis=axis) - y.mean(axis=axis),
        method="percentile",
        n_resamples=20000,
        random_state=2,
    ).confidence_interval
    assert contrast.ci_low == pytest.approx(boot.low, abs=0.03)
    assert contrast.ci_high == pytest.approx(boot.high, abs=0.03)
    perm = stats.permutation_test(
        (a, b),
        lambda x, y, axis: abs(x.mean(axis=axis) - y.mean(axis=axis)),
        n_resamples=20000,
        alternative="greater",
        random_state=3,
    )
    floor = contrast.noise_floor
    assert floor is not None and floor.p_value is not None
    assert floor.observed == pytest.approx(abs(a.mean() - b.mean()))
    assert 0.01 < perm.pvalue < 0.5  # a case where the two could disagree
    assert floor.p_value == pytest.approx(perm.pvalue, abs=0.015)


def test_group_minus_rest() -> None:
    records, by_group = _independent(4)
    spec = _spec(contrasts=[Contrast(by="religion", a="Muslim", b=REST)])
    (contrast,) = frame(records, spec, seed=1).contrasts
    rest = np.concatenate([by_group["Christian"], by_group["Jewish"]])
    assert contrast.name == "religion: Muslim - rest"
    assert contrast.value == pytest.approx(by_group["Muslim"].mean() - rest.mean())
    assert contrast.n_b == 80 and contrast.value_b == pytest.approx(rest.mean())
    perm = stats.permutation_test(
        (by_group["Muslim"], rest),
        lambda x, y, axis: abs(x.mean(axis=axis) - y.mean(axis=axis)),
        n_resamples=20000,
        alternative="greater",
        random_state=5,
    )
    assert contrast.noise_floor is not None and contrast.noise_floor.p_value is not None
    assert 0.01 < perm.pvalue < 0.5
    assert contrast.noise_floor.p_value == pytest.approx(perm.pvalue, abs=0.015)


def test_clustered_pairs_resample_whole_pairs() -> None:
    """Pairs (one pro, one anti) sharing a strong pair effect: the CI resamples whole pairs,
    so it is much narrower than the two-sample one; oracle: a naive pair bootstrap loop."""
    rng = np.random.default_rng(6)
    effect = rng.normal(0, 1.0, 30)
    pro = effect + 0.3 + rng.normal(0, 0.1, 30)
    anti = effect + rng.normal(0, 0.1, 30)
    records = [_record(2 * i, {"stance": "pro", "pair": str(i)}, pro[i]) for i in range(30)]
    records += [_record(2 * i + 1, {"stance": "anti", "pair": str(i)}, anti[i]) for i in range(30)]
    spec = MetricSpec(
        name="m",
        score="s",
        cluster_by="pair",
        n_resamples=4000,
        contrasts=[Contrast(by="stance", a="pro", b="anti")],
    )
    (contrast,) = frame(records, spec, seed=0).contrasts
    assert contrast.noise_floor is None  # the metric declares no floor
    draws = np.random.default_rng(7).integers(0, 30, size=(20000, 30))
    naive = (pro[draws] - anti[draws]).mean(axis=1)
    low, high = np.quantile(naive, [0.025, 0.975])
    assert contrast.ci_low is not None and contrast.ci_high is not None
    assert contrast.ci_low == pytest.approx(low, abs=0.01)
    assert contrast.ci_high == pytest.approx(high, abs=0.01)
    assert contrast.ci_high - contrast.ci_low < 0.2  # two-sample width would be about 1.0


def test_nested_contrast_permutes_whole_blocks() -> None:
    """`a` and `b` each constant within a permute_within block: whole blocks are shuffled."""
    rng = np.random.default_rng(8)
    records = [
        _record(
            10 * block + i,
            {"stance": "pro" if block % 2 else "anti", "template": f"t{block}"},
            float(rng.random() < (0.9 if block % 2 else 0.2)),
        )
        for block in range(12)
        for i in range(10)
    ]
    spec = _spec(
        group_by=[], permute_within="template", contrasts=[Contrast(by="stance", a="pro", b="anti")]
    )
    (contrast,) = frame(records, spec, seed=0).contrasts
    floor = contrast.noise_floor
    assert floor is not None and floor.permuted_unit == "template" and floor.p_value is not None
    # 6 of 12 blocks per side: the smallest attainable two-sided p is 2 / C(12, 6) = 0.0022.
    assert floor.p_value < 0.02


def test_missing_group_is_undefined_not_zero() -> None:
    records, _ = _independent(9)
    spec = _spec(contrasts=[Contrast(by="religion", a="Hindu", b=REST)])
    (contrast,) = frame(records, spec, seed=0).contrasts
    assert contrast.value is None and contrast.ci_low is None
    assert contrast.undefined_reason == "no scored sample in 'Hindu'"


def test_declaration_rejects_a_equal_b() -> None:
    with pytest.raises(ValidationError, match="must be a group other than b"):
        Contrast(by="stance", a="pro", b="pro")


def test_contrasts_round_trip_and_old_results_read() -> None:
    records, _ = _independent(10)
    spec = _spec(contrasts=[Contrast(by="religion", a="Muslim", b="Christian")])
    value = frame(records, spec, seed=0)
    again = MetricValue.model_validate_json(value.model_dump_json())
    assert again.contrasts == value.contrasts
    old = value.model_dump(exclude={"contrasts"})
    assert MetricValue.model_validate(old).contrasts == []
    assert "ContrastValue" in RunResult.model_json_schema()["$defs"]


def test_missing_b_side_is_named() -> None:
    records, _ = _independent(11)
    spec = _spec(contrasts=[Contrast(by="religion", a="Muslim", b="Hindu")])
    (contrast,) = frame(records, spec, seed=0).contrasts
    assert contrast.value is None and contrast.undefined_reason == "no scored sample in 'Hindu'"


def test_interval_follows_seed_level_and_strata() -> None:
    """Same seed, same interval; a 50 % level is narrower; strata (here: one stratum per
    side's sub-population, whose means differ) make the two-sample interval narrower than
    the pooled one, as a naive stratified loop shows."""
    rng = np.random.default_rng(12)
    records = []
    for i in range(80):
        side = "pro" if i % 2 else "anti"
        stratum = "s1" if i % 4 < 2 else "s2"
        shift = 3.0 if stratum == "s2" else 0.0
        records.append(_record(i, {"stance": side, "s": stratum}, shift + rng.normal(0, 0.5)))
    contrast = [Contrast(by="stance", a="pro", b="anti")]
    plain = MetricSpec(name="m", score="s", contrasts=contrast)
    (first,) = frame(records, plain, seed=5).contrasts
    (again,) = frame(records, plain, seed=5).contrasts
    assert (first.ci_low, first.ci_high) == (again.ci_low, again.ci_high)
    half = plain.model_copy(update={"level": 0.5})
    (narrow,) = frame(records, half, seed=5).contrasts
    assert first.ci_low is not None and first.ci_high is not None
    assert narrow.ci_low is not None and narrow.ci_high is not None
    assert narrow.ci_high - narrow.ci_low < 0.6 * (first.ci_high - first.ci_low)
    stratified = plain.model_copy(update={"stratify_by": "s"})
    (within,) = frame(records, stratified, seed=5).contrasts
    assert within.ci_low is not None and within.ci_high is not None
    values: dict[tuple[str, str], list[float]] = {}
    for r in records:
        values.setdefault((r.groups["stance"], r.groups["s"]), [])
    for r in records:
        values[(r.groups["stance"], r.groups["s"])].append(r.scores["s"])
    draw = np.random.default_rng(13)
    diffs = []
    for _ in range(4000):
        means: dict[str, float] = {}
        for side_name in ("pro", "anti"):
            parts = [draw.choice(values[(side_name, s)], size=20) for s in ("s1", "s2")]
            means[side_name] = float(np.concatenate(parts).mean())
        diffs.append(means["pro"] - means["anti"])
    low, high = np.quantile(diffs, [0.025, 0.975])
    assert within.ci_low == pytest.approx(low, abs=0.05)
    assert within.ci_high == pytest.approx(high, abs=0.05)
    assert within.ci_high - within.ci_low < 0.5 * (first.ci_high - first.ci_low)


def test_contrast_by_the_block_key_has_no_floor_and_says_why() -> None:
    records = [
        _record(i, {"stance": "pro" if i < 10 else "anti"}, float(i % 3 == 0)) for i in range(20)
    ]
    spec = MetricSpec(
        name="m",
        score="s",
        noise_floor=True,
        permute_within="stance",
        contrasts=[Contrast(by="stance", a="pro", b="anti")],
    )
    (contrast,) = frame(records, spec, seed=0).contrasts
    assert contrast.noise_floor is None
    assert contrast.noise_floor_reason == (
        "each group is a single stance: shuffling only renames groups"
    )


def test_contrast_interval_is_the_two_sample_bootstrap_with_the_declared_resamples() -> None:
    """contrast_value's interval equals a naive two-sample bootstrap loop written from the
    documented draw order (bootstrap.py: one stratum per side, in order of first appearance;
    `rng.integers(0, k, size=(B, k))` per stratum), with the declared B = 150 and level 0.9;
    samples of a third group are left out."""
    rng = np.random.default_rng(4)
    labels = ["a", "b", "c"] * 12
    values = [float(v) for v in rng.normal(0.0, 1.0, len(labels))]
    result = contrast_value(
        Contrast(by="g", a="a", b="b"), values, labels,
        clusters=None, strata=None, floor_of=None, seed=3, n_resamples=150, level=0.9,
    )  # fmt: skip
    side_a = [v for v, g in zip(values, labels, strict=True) if g == "a"]
    side_b = [v for v, g in zip(values, labels, strict=True) if g == "b"]
    draw = np.random.default_rng(3)
    picks_a = draw.integers(0, len(side_a), size=(150, len(side_a)))
    picks_b = draw.integers(0, len(side_b), size=(150, len(side_b)))
    diffs = [
        np.mean([side_a[k] for k in picks_a[r]]) - np.mean([side_b[k] for k in picks_b[r]])
        for r in range(150)
    ]
    low, high = np.quantile(diffs, [0.05, 0.95])
    assert result.value == pytest.approx(np.mean(side_a) - np.mean(side_b), abs=1e-12)
    assert (result.ci_low, result.ci_high) == pytest.approx((low, high), abs=1e-12)
