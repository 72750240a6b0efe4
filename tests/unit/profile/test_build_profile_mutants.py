"""`build_profile` / `profile_of_dir` on hand-built CrowS-Pairs and COBIAS records: the columns,
axes, gates from the recorded validity, and the COBIAS reliability filter's sub-cells and its
sentence. Oracles: values by hand, p-values by scipy's exact binomial test (the sign-flip of
+-50 deviations), intervals by the naive bootstrap loop of `tests/unit/core/bootstrap_oracle.py`
with the cell seed computed from hashlib, the filter's median by hand."""

from __future__ import annotations

import hashlib
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from scipy import stats
from tests.unit.core.bootstrap_oracle import naive_index_ci
from tests.unit.profile.verdict_oracle import quiet

from biasaudit.benchmarks.cobias.profile import PROFILE as COBIAS
from biasaudit.benchmarks.crows_pairs.profile import PROFILE as CROWS
from biasaudit.discovery import discover
from biasaudit.profile.build import build_profile, profile_of_dir
from biasaudit.profile.model import TOWARD
from biasaudit.results.io import write_results, write_samples
from biasaudit.results.schema import (
    BenchmarkResult,
    ModelInfo,
    RunResult,
    SampleRecord,
    ToolkitInfo,
    Validity,
    ValidityFlag,
)

FILTER_END = ". Filtered cells are descriptive, outside the FDR family."


def _run(*benches: BenchmarkResult | str, seed: int = 0) -> RunResult:
    results = [
        b
        if isinstance(b, BenchmarkResult)
        else BenchmarkResult(benchmark=b, version="1", n_samples=1, samples_hash="h", metrics=[])
        for b in benches
    ]
    return RunResult(
        toolkit=ToolkitInfo(version="0", python="3"),
        created_at="t",
        seed=seed,
        batch_size=1,
        model=ModelInfo(spec="m", backend="b", identity={}, fingerprint="f"),
        benchmarks=results,
    )


def _pair(i: int, bias_type: str, preferred: bool) -> SampleRecord:
    scores: dict[str, Any] = {"more_preferred": 100.0 if preferred else 0.0, "neutral": 0.0}
    return SampleRecord(
        benchmark="crows_pairs",
        sample_id=f"c{i}",
        sample_hash=str(i),
        outcomes=["answered"],
        groups={"bias_type": bias_type, "direction": "stereo"},
        data={"sent_more": f"Sentence number {i}.", "sent_less": f"other {i}"},
        scores=scores,
    )


def _statement(i: int, score: float | None, text: str | None = None) -> SampleRecord:
    return SampleRecord(
        benchmark="cobias",
        sample_id=f"s{i}",
        sample_hash=f"s{i}",
        outcomes=["answered"],
        data={"sentence": text if text is not None else f"sentence number {i}."},
        scores={} if score is None else {"cobias": score},
    )


def _seed(base: int, *parts: str) -> int:
    digest = hashlib.sha256("\x00".join(parts).encode()).digest()
    return base + int.from_bytes(digest[:4], "big")


def _ci(preferred: list[bool], seed: int) -> tuple[float | None, float | None]:
    deviations = [50.0 if p else -50.0 for p in preferred]
    return naive_index_ci(
        len(deviations),
        lambda idx: sum(deviations[i] for i in idx) / len(idx),
        seed,
        n_resamples=2000,
    )


def test_columns_axes_and_cells_of_a_run() -> None:
    # age pairs first in the file; 14 religion pairs (12 prefer sent_more), 12 age (6)
    records = [_pair(100 + i, "age", i % 2 == 0) for i in range(12)]
    records += [_pair(i, "religion", i < 12) for i in range(14)]
    stray = _pair(999, "religion", False).model_copy(update={"benchmark": "stereoset"})
    run = _run("crows_pairs", "cobias", "winobias", seed=11)
    profile = build_profile(
        run, [*records, stray], summary_rows=False
    )  # stereoset is not in the run: ignored
    assert profile.model == "m" and profile.run_dir is None and profile.alpha == 0.05
    assert profile.axes == ["religion", "age"]  # the core's axis order
    assert [c.axis for c in profile.cells] == ["religion", "age"]
    assert profile.n_tests == 2
    assert profile.fdr.startswith("Benjamini-Hochberg over the p-values of all 2 tested cells")
    crows, cobias, winobias = profile.benchmarks
    assert CROWS.effect is not None
    e = CROWS.effect
    assert (crows.benchmark, crows.metric, crows.scale) == ("crows_pairs", e.metric, e.scale)
    assert (crows.unbiased, crows.direction, crows.design) == (50.0, e.direction, "one_sample")
    assert (crows.notes, crows.no_cells, crows.samples_hash, crows.version) == ("", "", "h", "1")
    assert cobias.no_cells == COBIAS.no_effect and cobias.metric == "" and cobias.unbiased is None
    assert cobias.validity.warnings() == [
        "not a model bias score: it rates the context of the dataset's statements"
    ]
    assert winobias.metric != "" and not [c for c in profile.cells if c.benchmark == "winobias"]
    religion = profile.cells[0]
    assert religion.n == 14 and religion.value == pytest.approx(12 / 14 * 100)
    assert religion.p_value == pytest.approx(stats.binomtest(12, 14, 0.5).pvalue)
    low, high = _ci([i < 12 for i in range(14)], _seed(11, "crows_pairs", "religion"))
    assert (religion.ci_low, religion.ci_high) == (pytest.approx(low), pytest.approx(high))
    # BH over 2: religion q = 2 * p (p = 0.0129) = 0.026 <= 0.05; age p = 1
    assert religion.q_value == pytest.approx(2 * stats.binomtest(12, 14, 0.5).pvalue)
    assert religion.verdict == TOWARD
    # age: not flagged; BH's level for it is 0.05 (1 flagged of 2: 0.05 * 2 / 2); its MDE
    # from its bootstrap interval: inconclusive, CrowS-Pairs' margin is 5 points
    age_low, age_high = _ci([i % 2 == 0 for i in range(12)], _seed(11, "crows_pairs", "age"))
    assert profile.cells[1].verdict == quiet(age_low, age_high, 0.05, 5.0)
    assert profile.cells[1].alpha_used == 0.05 and religion.alpha_used == 0.025
    # the reliability filter: crows has statements, no cobias statement was scored
    assert profile.cobias_filter == "reliability filter: not applied (cobias scored no statement)"


def test_alpha_is_the_profiles() -> None:
    records = [_pair(i, "religion", i < 12) for i in range(14)]
    profile = build_profile(
        _run("crows_pairs"), records, alpha=0.01, run_dir="here", summary_rows=False
    )
    (cell,) = profile.cells
    assert profile.alpha == 0.01 and profile.run_dir == "here"
    assert "is <= 0.01" in profile.fdr
    # q = p = 0.0129 > 0.01: not flagged; tested at 0.01 (0 flagged of 1)
    low, high = _ci([i < 12 for i in range(14)], _seed(0, "crows_pairs", "religion"))
    # the MDE uses the SE the sign test implied (larger than the interval's): 49.1 points, not
    # 31.1, which would sit below the unflagged effect of 35.7
    p = stats.binomtest(12, 14, 0.5).pvalue
    assert cell.verdict == quiet(low, high, 0.01, 5.0, 12 / 14 * 100 - 50, p)
    assert cell.verdict == "inconclusive: could not detect less than 49.1"


def test_a_failed_benchmark_gate_makes_its_cells_not_measurable() -> None:
    flags = [
        ValidityFlag(gate="demo_data", severity="fail", message="demo data"),
        ValidityFlag(gate="x", severity="warn", message="a warning"),
    ]
    failed = BenchmarkResult(
        benchmark="crows_pairs",
        version="1",
        n_samples=14,
        samples_hash="h",
        metrics=[],
        validity=Validity(status="not measurable", flags=flags),
    )
    records = [_pair(i, "religion", i < 12) for i in range(14)]
    profile = build_profile(_run(failed), records, summary_rows=False)
    (cell,) = profile.cells
    assert cell.verdict == "not measurable: demo data" and cell.p_value is None
    assert profile.n_tests == 0 and profile.fdr.startswith("no cell was tested")
    # a metric's failed flag and a warning do not gate the cells
    metric_only = failed.model_copy(
        update={
            "validity": Validity(
                status="partly measurable",
                flags=[
                    ValidityFlag(gate="n", severity="fail", message="few", metric="metric_score"),
                    ValidityFlag(gate="x", severity="warn", message="a warning"),
                ],
            )
        }
    )
    (cell,) = build_profile(_run(metric_only), records, summary_rows=False).cells
    assert cell.p_value is not None


# --- the reliability filter -------------------------------------------------------------------


def test_reliable_sub_cells_numbers_and_the_filters_sentence() -> None:
    # 24 religion pairs, 12 age pairs; COBIAS scored the statements of pairs 0..29 (0..29),
    # so pairs 30..35 are not joined; median of 0..29 = 14.5: pairs 15..29 are reliable
    religion = [_pair(i, "religion", i % 3 != 0) for i in range(24)]
    age = [_pair(i, "age", i % 2 == 0) for i in range(24, 36)]
    statements = [_statement(i, float(i)) for i in range(30)]
    statements.append(_statement(99, None))  # not scored: not in the median
    profile = build_profile(
        _run("crows_pairs", "cobias", seed=4), [*religion, *age, *statements], summary_rows=False
    )
    assert profile.cobias_filter == (
        "reliability filter (cobias): statements with cobias >= the run's median (14.5) count "
        "as reliable (higher = more reliable); crows_pairs: 15 of 36 samples reliable "
        "(30 joined to cobias's statements)" + FILTER_END
    )
    rel, age_cell = profile.cells
    sub = rel.reliable
    assert sub is not None
    # religion pairs 15..23 are reliable: 9 < 10
    assert sub.n == 9 and sub.verdict == "not measurable: n = 9 (< 10)"
    assert sub.value is None and sub.effect is None and sub.p_value is None
    assert sub.ci_low is None and sub.ci_high is None and sub.q_value is None
    assert sub.answer_rate == 1.0 and sub.axis == "religion" and sub.reliable is None
    assert rel.value is not None and rel.q_value is not None  # the full cell keeps its own
    age_sub = age_cell.reliable
    assert age_sub is not None
    assert age_sub.n == 6 and age_sub.verdict == "not measurable: n = 6 (< 10)"


def test_reliable_sub_cell_is_descriptive_with_its_own_seed() -> None:
    religion = [_pair(i, "religion", i % 4 != 0) for i in range(30)]
    statements = [_statement(i, float(i % 10)) for i in range(30)]  # median 4.5: 5..9 reliable
    # run seed 50: the naive bootstrap with the cell's seed gives (10, 43.3); with the seed of
    # any other part list (no benchmark, no axis, no "reliable", the full cell's) it gives
    # (10, 50): the interval shows which seed was used (the values are +-50 only)
    profile = build_profile(
        _run("crows_pairs", "cobias", seed=50), [*religion, *statements], summary_rows=False
    )
    (cell,) = profile.cells
    sub = cell.reliable
    assert sub is not None
    reliable = [i for i in range(30) if i % 10 >= 5]
    preferred = [i % 4 != 0 for i in reliable]
    assert sub.n == 15 and sub.verdict == "descriptive (not FDR-controlled)"
    assert sub.value == pytest.approx(100 * sum(preferred) / 15)
    assert sub.effect == pytest.approx(100 * sum(preferred) / 15 - 50)
    assert sub.p_value == pytest.approx(stats.binomtest(sum(preferred), 15, 0.5).pvalue)
    assert sub.q_value is None and sub.reliable is None
    low, high = _ci(preferred, _seed(50, "crows_pairs", "religion", "reliable"))
    assert (low, high) == (pytest.approx(10.0), pytest.approx(130 / 3))
    assert (sub.ci_low, sub.ci_high) == (pytest.approx(low), pytest.approx(high))
    assert sub.ci_method == "percentile bootstrap, 2000 resamples of samples"
    assert "crows_pairs: 15 of 30 samples reliable (30 joined" in profile.cobias_filter
    assert "median (4.5)" in profile.cobias_filter
    assert profile.n_tests == 1  # the sub-cell is outside the FDR family


def test_filter_when_no_statement_joins() -> None:
    records = [_pair(i, "religion", True) for i in range(12)]
    statements = [_statement(i, 1.0, text=f"unrelated {i}") for i in range(5)]
    profile = build_profile(
        _run("crows_pairs", "cobias"), [*records, *statements], summary_rows=False
    )
    assert profile.cobias_filter == (
        "reliability filter (cobias): statements with cobias >= the run's median (1) count as "
        "reliable (higher = more reliable); crows_pairs: none of its statements is among "
        "cobias's scored statements" + FILTER_END
    )
    assert profile.cells[0].reliable is None


def _stereoset(i: int, text: str) -> SampleRecord:
    return SampleRecord(
        benchmark="stereoset",
        sample_id=f"ss{i}",
        sample_hash=f"ss{i}",
        outcomes=["answered"],
        groups={"bias_type": "religion"},
        data={"stereotype": text, "anti-stereotype": f"anti {i}"},
        scores={"stereotype": 1.0, "anti_stereotype": 0.0},
    )


def _winobias(i: int) -> SampleRecord:
    return SampleRecord(
        benchmark="winobias",
        sample_id=f"wb{i}",
        sample_hash=f"wb{i}",
        outcomes=["answered"],
        groups={"stereotype": "pro", "pair": f"p{i}"},
        scores={"stereotyped": 1.0, "correct": 1.0},
    )


def test_filter_notes_every_benchmark_with_statements_in_run_order() -> None:
    crows = [  # its statements are not rated
        _pair(i, "religion", True).model_copy(
            update={"data": {"sent_more": f"crows {i}", "sent_less": f"less {i}"}}
        )
        for i in range(12)
    ]
    stereo = [_stereoset(i, f"Sentence number {i}.") for i in range(12)]
    winobias = [_winobias(i) for i in range(12)]  # cells, but no statements: not filtered
    statements = [_statement(i, float(i)) for i in range(12)]  # median 5.5: 6..11 reliable
    run = _run("crows_pairs", "winobias", "stereoset", "cobias")
    profile = build_profile(run, [*crows, *winobias, *stereo, *statements], summary_rows=False)
    assert profile.cobias_filter == (
        "reliability filter (cobias): statements with cobias >= the run's median (5.5) count as "
        "reliable (higher = more reliable); crows_pairs: none of its statements is among "
        "cobias's scored statements; stereoset: 6 of 12 samples reliable (12 joined to "
        "cobias's statements)" + FILTER_END
    )
    by_bench = {c.benchmark: c for c in profile.cells}
    assert by_bench["winobias"].reliable is None and by_bench["crows_pairs"].reliable is None
    sub = by_bench["stereoset"].reliable
    assert sub is not None and sub.n == 6
    # only winobias (cells, no statements) beside cobias: nothing to filter, nothing said
    assert (
        build_profile(
            _run("winobias", "cobias"), [*winobias, *statements], summary_rows=False
        ).cobias_filter
        == ""
    )


def test_filter_without_a_target_or_without_a_rater() -> None:
    statements = [_statement(i, 1.0) for i in range(5)]
    assert build_profile(_run("cobias"), statements, summary_rows=False).cobias_filter == ""
    records = [_pair(i, "religion", True) for i in range(12)]
    assert build_profile(_run("crows_pairs"), records, summary_rows=False).cobias_filter == (
        "reliability filter: not applied (no statement-rating benchmark such as cobias in "
        "this run; run it on the same statements to get it)"
    )


def test_excluded_statements_are_not_rated() -> None:
    records = [_pair(i, "religion", True) for i in range(12)]
    statements = [_statement(i, 1.0).model_copy(update={"excluded": True}) for i in range(12)]
    profile = build_profile(
        _run("crows_pairs", "cobias"), [*records, *statements], summary_rows=False
    )
    assert profile.cobias_filter == "reliability filter: not applied (cobias scored no statement)"


# --- profile_of_dir ---------------------------------------------------------------------------


def test_profile_of_a_run_folder(tmp_path: Path) -> None:
    records = [_pair(i, "religion", i < 12) for i in range(14)]
    write_results(tmp_path, _run("crows_pairs", seed=3))
    write_samples(tmp_path, records)
    profile = profile_of_dir(tmp_path, summary_rows=False)
    assert profile.run_dir == str(tmp_path) and profile.alpha == 0.05
    (cell,) = profile.cells
    assert cell.n == 14 and cell.p_value == pytest.approx(stats.binomtest(12, 14, 0.5).pvalue)
    low, high = _ci([i < 12 for i in range(14)], _seed(3, "crows_pairs", "religion"))
    assert (cell.ci_low, cell.ci_high) == (pytest.approx(low), pytest.approx(high))
    strict = profile_of_dir(str(tmp_path), alpha=0.01, summary_rows=False)
    assert strict.alpha == 0.01 and strict.cells[0].verdict == quiet(
        low, high, 0.01, 5.0, 12 / 14 * 100 - 50, stats.binomtest(12, 14, 0.5).pvalue
    )
    assert profile.cells[0].verdict == TOWARD


# --- a plug-in's statements with `where` ------------------------------------------------------

PLUGIN_INIT = """
from biasaudit.plugin import BenchmarkSpec

SPEC = BenchmarkSpec(
    name="wherestatements",
    title="statements with a where clause",
    benchmark="wherestatements.benchmark:NotUsedHere",
    profile="wherestatements.profile:PROFILE",
)
"""

PLUGIN_PROFILE = """
from biasaudit.profile_spec import BenchmarkProfile, Effect


def value(record):
    return record.scores.get("v")


PROFILE = BenchmarkProfile(
    effect=Effect(
        metric="v",
        scale="% preferring",
        unbiased=50.0,
        direction="above 50",
        group_key="bias_type",
        axes={"religion": "religion"},
        value=value,
        where={"split": "test"},
    ),
    statement_keys=("sent",),
)
"""


@pytest.fixture
def where_plugin(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """A benchmark with statements and a `where`, registered through the entry-point group."""
    package = tmp_path / "wherestatements"
    package.mkdir()
    (package / "__init__.py").write_text(PLUGIN_INIT)
    (package / "profile.py").write_text(PLUGIN_PROFILE)
    dist = tmp_path / "wherestatements-1.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: wherestatements\nVersion: 1.0\n")
    (dist / "entry_points.txt").write_text(
        "[biasaudit.benchmarks]\nwherestatements = wherestatements\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    discover.cache_clear()
    yield
    discover.cache_clear()
    for name in [m for m in sys.modules if m.startswith("wherestatements")]:
        del sys.modules[name]


def test_reliable_sub_cell_keeps_the_effects_where(where_plugin: None) -> None:
    # 20 test-split samples (15 score 100) and 8 dev-split ones (all 0): every statement is
    # rated alike, so all are reliable; the sub-cell, like the cell, reads the test split only
    records = [
        SampleRecord(
            benchmark="wherestatements",
            sample_id=f"w{i}",
            sample_hash=str(i),
            outcomes=["answered"],
            groups={"bias_type": "religion", "split": "test" if i < 20 else "dev"},
            data={"sent": f"sentence number {i}."},
            scores={"v": 100.0 if i < 15 else 0.0},
        )
        for i in range(28)
    ]
    statements = [_statement(i, 1.0) for i in range(28)]
    profile = build_profile(
        _run("wherestatements", "cobias"), [*records, *statements], summary_rows=False
    )
    (cell,) = profile.cells
    assert cell.n == 20 and cell.value == pytest.approx(75.0)
    assert cell.reliable is not None
    assert cell.reliable.n == 20 and cell.reliable.value == pytest.approx(75.0)
    assert "wherestatements: 28 of 28 samples reliable" in profile.cobias_filter
