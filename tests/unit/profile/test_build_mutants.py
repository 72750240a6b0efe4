"""Profile cells built from hand-made records of a toy effect (the plug-in contract's `Effect`
with its own score), each number against an independent oracle: means and gaps by hand, the
exact sign-flip p-value by enumerating every sign vector, the intervals by naive bootstrap
loops written from the documented draw order (`tests/unit/core/bootstrap_oracle.py` for one
sample; below for a contrast), cell seeds from hashlib, the verdicts from BH by hand."""

from __future__ import annotations

import hashlib
import itertools
from collections.abc import Sequence

import numpy as np
import pytest
from scipy import stats
from scipy.stats import hypergeom
from tests.unit.core.bootstrap_oracle import naive_index_ci

from biasaudit.profile.build import apply_fdr, benchmark_cells, fdr_text
from biasaudit.profile.model import AGAINST, FAVOURS, NONE_DETECTED, TOWARD, ProfileCell
from biasaudit.profile.spec import Effect, Gates
from biasaudit.results.schema import SampleRecord

BENCH = "toy"
AXES = {"muslim": "religion", "woman": "gender", "man": "gender"}


def score(record: SampleRecord) -> float | None:
    value = record.scores.get("s")
    return None if value is None else float(value)


def rec(
    sid: str,
    level: str | None,
    s: float | None,
    *,
    groups: dict[str, str] | None = None,
    data: dict[str, str] | None = None,
    outcomes: Sequence[str] = ("answered",),
    excluded: bool = False,
) -> SampleRecord:
    g = dict(groups or {})
    if level is not None:
        g["g"] = level
    return SampleRecord(
        benchmark=BENCH,
        sample_id=sid,
        sample_hash="h",
        groups=g,
        data=dict(data or {}),
        outcomes=list(outcomes),
        scores={} if s is None else {"s": s},
        excluded=excluded,
    )


def cell_seed(base: int, *parts: str) -> int:
    """The documented cell seed: the run seed plus the first 4 bytes (big-endian) of the
    sha256 of the NUL-joined benchmark, axis (and group)."""
    digest = hashlib.sha256("\x00".join(parts).encode()).digest()
    return base + int.from_bytes(digest[:4], "big")


def exact_sign_flip(deviations: Sequence[float], clusters: Sequence[str]) -> float:
    sums: dict[str, float] = {}
    for d, c in zip(deviations, clusters, strict=True):
        sums[c] = sums.get(c, 0.0) + d
    nonzero = [s for s in sums.values() if abs(s) > 1e-9]
    observed = abs(sum(nonzero))
    signs = list(itertools.product((1, -1), repeat=len(nonzero)))
    hits = sum(
        abs(sum(a * b for a, b in zip(v, nonzero, strict=True))) >= observed - 1e-9 for v in signs
    )
    return hits / len(signs)


def naive_contrast_ci(
    values: Sequence[float], member: Sequence[bool], clusters: Sequence[str], seed: int
) -> tuple[float, float]:
    """Whole clusters resampled with replacement within the group, then within the others
    (2000 resamples, one generator, clusters in order of first appearance); the 2.5 / 97.5
    percentiles of the difference of the resampled means."""
    sides: dict[bool, dict[str, list[float]]] = {True: {}, False: {}}
    for v, m, c in zip(values, member, clusters, strict=True):
        unit = sides[m].setdefault(c, [0.0, 0.0])
        unit[0] += v
        unit[1] += 1
    rng = np.random.default_rng(seed)
    means: list[list[float]] = []
    for side in (True, False):
        units = list(sides[side].values())
        picks = rng.integers(0, len(units), size=(2000, len(units)))
        means.append(
            [sum(units[k][0] for k in row) / sum(units[k][1] for k in row) for row in picks]
        )
    diffs = [a - b for a, b in zip(means[0], means[1], strict=True)]
    low, high = np.quantile(diffs, [0.025, 0.975])
    return float(low), float(high)


# --- one-sample cells ----------------------------------------------------------------------

PAIRS = [
    (0.9, 0.8),
    (1.0, 0.4),
    (0.2, 0.3),
    (0.8, 0.9),
    (0.7, 0.7),
    (0.1, 0.6),
    (1.0, 1.0),
    (0.6, 0.5),
    (0.9, 0.2),
    (0.4, 0.3),
    (0.8, 0.6),
    (0.5, 0.95),
]


def one_sample_records() -> list[SampleRecord]:
    out = []
    for i, (w, m) in enumerate(PAIRS):
        out.append(rec(f"w{i}", "woman", w, groups={"pair": f"p{i}", "task": "t1"}))
        out.append(rec(f"m{i}", "man", m, groups={"pair": f"p{i}", "task": "t1"}))
    out += [
        # excluded: not scored, its pair not a cluster, but its outcome counts in the rate
        rec("x", "woman", 0.0, groups={"pair": "p99", "task": "t1"}, excluded=True),
        # refused: no score
        rec("r", "man", None, groups={"pair": "p98", "task": "t1"}, outcomes=["refused"]),
        # another task (`where`), an unmapped level, no level at all: in no cell
        rec("t2", "woman", 0.0, groups={"pair": "p97", "task": "t2"}),
        rec("o", "other", 0.0, groups={"pair": "p96", "task": "t1"}),
        rec("n", None, 0.0, groups={"pair": "p95", "task": "t1"}),
    ]
    return out


def one_sample_effect(cluster: str | None = "pair") -> Effect:
    return Effect(
        metric="m",
        scale="share",
        unbiased=0.5,
        direction="above 0.5",
        group_key="g",
        axes=AXES,
        value=score,
        cluster=cluster,
        where={"task": "t1"},
    )


def test_one_sample_cell_numbers_against_hand_enumeration_and_naive_bootstrap() -> None:
    (cell,) = benchmark_cells(BENCH, one_sample_records(), one_sample_effect(), Gates(), None, 7)
    values = [w for w, _ in PAIRS] + [m for _, m in PAIRS]  # members: women, then men
    clusters = [f"p{i}" for i in range(12)] * 2
    deviations = [v - 0.5 for v in values]
    assert (cell.axis, cell.benchmark, cell.metric, cell.group) == ("gender", BENCH, "m", "")
    assert cell.groups == ["man", "woman"] and cell.design == "one_sample"
    assert cell.unbiased == 0.5
    assert cell.n == 24 and cell.n_clusters == 12
    assert cell.answer_rate == pytest.approx(25 / 26)  # 24 + the excluded one of 26 outcomes
    assert cell.value == pytest.approx(sum(values) / 24)
    assert cell.effect == pytest.approx(sum(values) / 24 - 0.5)
    assert cell.p_value == pytest.approx(exact_sign_flip(deviations, clusters), abs=1e-12)
    assert cell.test == "exact sign-flip test over 12 clusters (4096 sign vectors)"
    seed = cell_seed(7, BENCH, "gender")
    low, high = naive_index_ci(
        24,
        lambda idx: sum(deviations[i] for i in idx) / len(idx),
        seed,
        n_resamples=2000,
        clusters=clusters,
    )
    assert (cell.ci_low, cell.ci_high) == (pytest.approx(low), pytest.approx(high))
    assert cell.ci_method == "percentile bootstrap, 2000 resamples of whole pair clusters"
    assert cell.verdict == "not measurable"  # provisional until apply_fdr
    assert cell.q_value is None and cell.reliable is None


def test_one_sample_cell_of_single_samples() -> None:
    records = one_sample_records()
    (cell,) = benchmark_cells(BENCH, records, one_sample_effect(None), Gates(), None, 0)
    values = [w for w, _ in PAIRS] + [m for _, m in PAIRS]
    deviations = [v - 0.5 for v in values]
    ids = [str(i) for i in range(24)]
    assert cell.n == 24 and cell.n_clusters == 24
    # 22 non-zero deviations (a woman and a man score 0.5): 2^22 sign vectors
    assert cell.test == "exact sign-flip test over 24 samples (4194304 sign vectors)"
    assert cell.ci_method == "percentile bootstrap, 2000 resamples of samples"
    low, high = naive_index_ci(
        24,
        lambda idx: sum(deviations[i] for i in idx) / len(idx),
        cell_seed(0, BENCH, "gender"),
        n_resamples=2000,
        clusters=ids,
    )
    assert (cell.ci_low, cell.ci_high) == (pytest.approx(low), pytest.approx(high))


def test_cells_come_in_axis_order_with_their_own_seeds() -> None:
    records = one_sample_records()
    records += [
        rec(f"u{i}", "muslim", (i % 4) / 3, groups={"pair": f"q{i}", "task": "t1"})
        for i in range(12)
    ]
    cells = benchmark_cells(BENCH, records, one_sample_effect(None), Gates(), None, 3)
    assert [c.axis for c in cells] == ["gender", "religion"]  # AXES order, not declared order
    religion = cells[1]
    values = [(i % 4) / 3 for i in range(12)]
    assert religion.groups == ["muslim"] and religion.n == 12
    assert religion.value == pytest.approx(sum(values) / 12)
    deviations = [v - 0.5 for v in values]
    low, high = naive_index_ci(
        12,
        lambda idx: sum(deviations[i] for i in idx) / len(idx),
        cell_seed(3, BENCH, "religion"),
        n_resamples=2000,
    )
    assert (religion.ci_low, religion.ci_high) == (pytest.approx(low), pytest.approx(high))


# --- gates ------------------------------------------------------------------------------------


def _gate_records(
    n_scored: int, n_refused: int, outcomes: Sequence[str] = ("answered",)
) -> list[SampleRecord]:
    scored = [rec(f"a{i}", "woman", float(i % 2), outcomes=outcomes) for i in range(n_scored)]
    refused = [rec(f"r{i}", "woman", None, outcomes=["refused"]) for i in range(n_refused)]
    return scored + refused


def _plain_effect() -> Effect:
    return Effect(
        metric="m", scale="s", unbiased=0.5, direction="d", group_key="g", axes=AXES, value=score
    )


def _one(
    records: list[SampleRecord], gates: Gates | None = None, reason: str | None = None
) -> ProfileCell:
    (cell,) = benchmark_cells(BENCH, records, _plain_effect(), gates or Gates(), reason, 0)
    return cell


def test_answer_rate_gate_is_inclusive_at_the_minimum() -> None:
    at = _one(_gate_records(10, 10))  # 10 of 20 outcomes answered: 50 %, passes
    assert at.answer_rate == 0.5 and at.p_value is not None
    below = _one(_gate_records(10, 11))  # 10 of 21 = 47.6 %
    assert below.verdict == "not measurable: answer rate 47.6 % (< 50 %)"
    assert below.answer_rate == pytest.approx(10 / 21) and below.n == 10
    assert below.value is None and below.p_value is None and below.ci_low is None
    custom = _one(_gate_records(10, 10), Gates(min_answer_rate=0.6))
    assert custom.verdict == "not measurable: answer rate 50 % (< 60 %)"


def test_answer_rate_counts_outcomes_and_unknown_as_an_answer() -> None:
    # each record: one answered and one unknown outcome (2 answers), plus 10 refused: 40 of 50
    cell = _one(_gate_records(20, 10, outcomes=("answered", "unknown")))
    assert cell.answer_rate == pytest.approx(40 / 50)
    unparsed = _one(_gate_records(12, 0, outcomes=("answered", "unparsed", "unparsed")))
    assert unparsed.verdict == "not measurable: answer rate 33.3 % (< 50 %)"


def test_records_without_outcomes_have_no_answer_rate_and_are_not_rate_gated() -> None:
    cell = _one(_gate_records(12, 0, outcomes=()))
    assert cell.answer_rate is None and cell.p_value is not None and cell.n == 12


def test_n_gate_is_inclusive_at_the_minimum() -> None:
    assert _one(_gate_records(10, 0)).p_value is not None
    nine = _one(_gate_records(9, 0))
    assert nine.verdict == "not measurable: n = 9 (< 10)" and nine.p_value is None
    assert _one(_gate_records(11, 0), Gates(min_n=12)).verdict == "not measurable: n = 11 (< 12)"


def test_benchmark_reason_comes_first_and_keeps_the_rate() -> None:
    cell = _one(_gate_records(3, 9), reason="demo data")
    assert cell.verdict == "not measurable: demo data" and cell.answer_rate == 0.25
    assert cell.n == 3 and cell.p_value is None


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
    effect = _plain_effect()
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


def test_fdr_flags_at_q_equal_to_alpha_and_never_a_zero_effect() -> None:
    # three p-values, BH by hand with m = 3 (binary fractions, exact in floating point):
    # 0.125 * 3/1 = 0.375, 0.25 * 3/2 = 0.375, 0.5 * 3/3 = 0.5
    cells = [_tested(0.25, -1.0), _tested(0.125, 2.0), _tested(0.5, 3.0)]
    assert apply_fdr(cells, 0.5) == 3
    assert [c.q_value for c in cells] == [0.375, 0.375, 0.5]
    assert [c.verdict for c in cells] == [AGAINST, TOWARD, TOWARD]  # 0.5 <= 0.5: flagged
    apply_fdr(cells, 0.49)
    assert [c.verdict for c in cells] == [AGAINST, TOWARD, NONE_DETECTED]
    zero = _tested(0.0001, 0.0)
    apply_fdr([zero], 0.05)
    assert zero.verdict == NONE_DETECTED and zero.q_value == pytest.approx(0.0001)
    # a p-value of exactly 0 is a p-value (q = 0), not a missing one
    exact = [_tested(0.0, 1.0), _tested(0.5, 1.0)]
    apply_fdr(exact, 0.05)
    assert exact[0].q_value == 0.0 and exact[0].verdict == TOWARD
    none = _tested(0.0001, None)
    apply_fdr([none], 0.05)
    assert none.verdict == NONE_DETECTED


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
    assert calm.verdict == FAVOURS and other.verdict == NONE_DETECTED
    assert untested.q_value is None and untested.verdict == "not measurable: n = 2 (< 10)"
    assert apply_fdr([], 0.05) == 0


def test_fdr_text() -> None:
    assert (
        fdr_text(0.05, 0) == "no cell was tested: every cell failed a validity gate (no FDR family)"
    )
    assert fdr_text(0.1, 7) == (
        "Benjamini-Hochberg over the p-values of all 7 tested cells of this profile: a cell is "
        "flagged when its adjusted p-value (q) is <= 0.1, so the expected share of false flags "
        "among flagged cells is at most 0.1"
    )
