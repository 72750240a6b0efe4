"""One-sample profile cells and the validity gates of a cell, built from hand-made records of a
toy effect (the plug-in contract's `Effect` with its own score). Oracles: means by hand, the
exact sign-flip p-value by enumerating every sign vector, the interval by the naive bootstrap
loop of `tests/unit/core/bootstrap_oracle.py` with the cell seed computed from hashlib."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from tests.unit.core.bootstrap_oracle import naive_index_ci
from tests.unit.profile.build_oracles import (
    AXES,
    BENCH,
    cell_seed,
    exact_sign_flip,
    plain_effect,
    rec,
    score,
)

from biasaudit.profile.build import benchmark_cells
from biasaudit.profile.model import ProfileCell
from biasaudit.profile_spec import Effect, Gates
from biasaudit.results.schema import SampleRecord

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


def _one(
    records: list[SampleRecord], gates: Gates | None = None, reason: str | None = None
) -> ProfileCell:
    (cell,) = benchmark_cells(BENCH, records, plain_effect(), gates or Gates(), reason, 0)
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
