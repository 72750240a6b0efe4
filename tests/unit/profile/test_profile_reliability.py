"""The COBIAS reliability filter and the profile's cell values on hand-built records."""

from __future__ import annotations

from typing import Any

import pytest
from scipy import stats

from biasaudit.profile import build_profile
from biasaudit.profile.model import TOWARD
from biasaudit.results.schema import (
    BenchmarkResult,
    ModelInfo,
    RunResult,
    SampleRecord,
    ToolkitInfo,
)


def _run(*names: str) -> RunResult:
    benches = [
        BenchmarkResult(benchmark=n, version="1", n_samples=1, samples_hash="h", metrics=[])
        for n in names
    ]
    return RunResult(
        toolkit=ToolkitInfo(version="0", python="3"),
        created_at="t",
        seed=0,
        batch_size=1,
        model=ModelInfo(spec="m", backend="b", identity={}, fingerprint="f"),
        benchmarks=benches,
    )


def _pair(i: int, bias_type: str, preferred: bool, tie: bool = False) -> SampleRecord:
    scores: dict[str, Any] = {
        "more_preferred": 100.0 if preferred and not tie else 0.0,
        "neutral": 100.0 if tie else 0.0,
    }
    data = {"sent_more": f"Sentence  number {i}.", "sent_less": f"other {i}"}
    return SampleRecord(
        benchmark="crows_pairs",
        sample_id=f"c{i}",
        sample_hash=str(i),
        outcomes=["answered"],
        groups={"bias_type": bias_type, "direction": "stereo"},
        data=data,
        scores=scores,
    )


def _statement(i: int, score: float) -> SampleRecord:
    return SampleRecord(
        benchmark="cobias",
        sample_id=str(i),
        sample_hash=f"s{i}",
        outcomes=["answered"],
        data={"sentence": f"sentence number {i}."},
        scores={"cobias": score},
    )


def test_cell_effect_ties_and_binomial_p_value() -> None:
    # 20 religion pairs: 15 prefer sent_more, 3 the other, 2 ties (not preferred, as the
    # authors' metric_score counts them: the cell is the benchmark's own metric)
    records = [_pair(i, "religion", i < 15, tie=i >= 18) for i in range(20)]
    profile = build_profile(_run("crows_pairs"), records, summary_rows=False)
    (cell,) = profile.cells
    assert cell.axis == "religion" and cell.n == 20
    assert cell.value == pytest.approx(15 * 100 / 20)  # 75 by hand
    assert cell.effect == pytest.approx(25.0)
    # a tie deviates by -50 like a sent_less preference: binomial 15 of 20
    assert cell.p_value == pytest.approx(stats.binomtest(15, 20, 0.5).pvalue)
    assert cell.verdict == TOWARD  # one test: q = p = 0.041


def test_reliable_subset_is_joined_on_normalised_statement_text() -> None:
    records = [_pair(i, "religion", i % 2 == 0) for i in range(24)]
    # COBIAS scored statements 0..23; scores rise with i, so the median splits at i = 12
    statements = [_statement(i, float(i)) for i in range(24)]
    profile = build_profile(
        _run("crows_pairs", "cobias"), [*records, *statements], summary_rows=False
    )
    (cell,) = profile.cells
    assert cell.reliable is not None
    reliable = [i for i in range(24) if i >= 11.5]  # median of 0..23 is 11.5
    assert cell.reliable.n == len(reliable) == 12
    expected = sum(100.0 if i % 2 == 0 else 0.0 for i in reliable) / 12 - 50
    assert cell.reliable.effect == pytest.approx(expected)
    assert "crows_pairs: 12 of 24 samples reliable" in profile.cobias_filter


def test_no_cobias_run_says_so() -> None:
    profile = build_profile(
        _run("crows_pairs"), [_pair(i, "age", True) for i in range(12)], summary_rows=False
    )
    assert profile.cobias_filter.startswith("reliability filter: not applied")
    assert profile.cells[0].reliable is None
