"""WinoBias' gender cell: stereotyped choices against 50, the two sentences of a pair flipped
together. Oracle: the exact two-sided binomial test (scipy.stats.binomtest) on the pairs whose
choice moves with the pronoun's gender, and the effect by hand."""

from __future__ import annotations

import pytest
from scipy.stats import binomtest

from biasaudit.benchmarks.winobias.profile import PROFILE
from biasaudit.profile.build import apply_fdr, benchmark_cells
from biasaudit.results.schema import SampleRecord


def record(pair: int, stereotype: str, stereotyped: float | None) -> SampleRecord:
    scores = {} if stereotyped is None else {"stereotyped": stereotyped, "correct": 0.0}
    return SampleRecord(
        benchmark="winobias",
        sample_id=f"{stereotype}-{pair}",
        sample_hash="h",
        groups={"stereotype": stereotype, "pair": f"p{pair}"},
        outcomes=["answered"],
        scores=scores,
    )


def pairs(toward: int, against: int, same: int) -> list[SampleRecord]:
    """Pairs whose choice follows the stereotype both times (+), neither time (-), or
    picks one occupation whatever the pronoun (once stereotyped, once not: 0)."""
    out: list[SampleRecord] = []
    kinds = [(1.0, 1.0)] * toward + [(0.0, 0.0)] * against + [(1.0, 0.0)] * same
    for i, (pro, anti) in enumerate(kinds):
        out += [record(i, "pro", pro), record(i, "anti", anti)]
    return out


def test_one_gender_cell_with_the_binomial_p_value() -> None:
    records = pairs(toward=12, against=3, same=25)
    assert PROFILE.effect is not None
    cells = benchmark_cells("winobias", records, PROFILE.effect, PROFILE.gates, None, seed=0)
    apply_fdr(cells, 0.05)
    (cell,) = cells
    assert cell.axis == "gender" and cell.n == 80 and cell.n_clusters == 40
    # stereotyped choices: 2 x 12 + 0 x 3 + 1 x 25 = 49 of 80 = 61.25 %
    assert cell.value == pytest.approx(61.25) and cell.effect == pytest.approx(11.25)
    exact = binomtest(12, 15, 0.5).pvalue  # the 25 pairs with a zero sum carry no sign
    assert cell.p_value == pytest.approx(exact)
    assert cell.verdict == "bias toward stereotype"


def test_a_model_ignoring_the_pronoun_shows_no_bias() -> None:
    assert PROFILE.effect is not None
    records = pairs(toward=0, against=0, same=30)
    (cell,) = benchmark_cells("winobias", records, PROFILE.effect, PROFILE.gates, None, seed=0)
    apply_fdr([cell], 0.05)
    assert cell.effect == pytest.approx(0.0) and cell.p_value == 1.0
    # every pair's deviations cancel: the interval is [0, 0], inside the 5-point margin
    assert (cell.ci_low, cell.ci_high) == (0.0, 0.0)
    assert cell.verdict == "negligible: |effect| < 5"
