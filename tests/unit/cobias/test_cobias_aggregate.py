"""Dataset-level COBIAS results (`cobias.aggregate`) on hand-made statements.

Every expected value is computed by hand next to the assertion, or by an independent
oracle: scipy's `spearmanr` for the correlations and their p-values, and the naive bootstrap
loop of `tests/unit/core/bootstrap_oracle.py` for the intervals.
"""

from __future__ import annotations

import math
from typing import Any

import pytest
from scipy.stats import spearmanr
from tests.unit.core.bootstrap_oracle import naive_index_ci

from biasaudit.benchmarks.cobias.aggregate import (
    Row,
    aggregate_records,
    aggregate_rows,
    describe,
    rows_from_records,
)
from biasaudit.benchmarks.cobias.estimators import TauSettings
from biasaudit.results.schema import MetricValue, SampleRecord

NOTE = (
    "Eq. 3 as printed: the score rises with cv. The paper reads higher COBIAS as more "
    "reliable (Table 3, human validation) but also as 'possibly insufficient context' "
    "(Fig. 2); cv is reported alongside."
)

# Four scored statements (2, 3, 5 and 6 words), three excluded ones.
ROWS = [
    Row("a", "w w", "cs", 0.2, 1.0, 3, 0.0, None, []),
    Row("b", "w w w", "ss", 0.0, 0.0, 2, 0.5, None, ["no_context_added"]),
    Row("c", "w w w w w", "cs", 0.6, 8.0, 5, 4.0, None, []),
    Row("d", "w w w w w w", "ss", 0.5, 3.0, 4, 2.0, None, ["other"]),
    Row("e", "x", "cs", None, None, 0, None, "error: timeout: 30 s", []),
    Row("f", "y", "ss", None, None, 0, None, "empty", []),
    Row("g", "z", "cs", None, None, 1, None, "error: no answer", []),
]
SCORED_COBIAS = [0.2, 0.0, 0.6, 0.5]
SCORED_CV = [1.0, 0.0, 8.0, 3.0]


def _metrics(metrics: list[MetricValue]) -> dict[str, MetricValue]:
    names = [m.name for m in metrics]
    assert len(names) == len(set(names))
    return {m.name: m for m in metrics}


def _mean_ci(values: list[float], seed: int) -> tuple[float | None, float | None]:
    return naive_index_ci(len(values), lambda idx: sum(values[i] for i in idx) / len(idx), seed)


def test_headline_means_groups_and_intervals() -> None:
    out = _metrics(aggregate_rows(ROWS, seed=5, scorer="S").metrics)
    mean = out["cobias_mean"]
    # (0.2 + 0 + 0.6 + 0.5) / 4; three excluded statements
    assert mean.value == pytest.approx(0.325, abs=1e-12)
    assert (mean.n, mean.n_excluded, mean.score_key) == (4, 3, "cobias")
    assert (mean.ci_low, mean.ci_high) == pytest.approx(_mean_ci(SCORED_COBIAS, 5), abs=1e-12)
    assert mean.description == f"dataset COBIAS: mean of Eq. 3 over statements (S). {NOTE}"
    (breakdown,) = mean.breakdowns
    assert breakdown.by == "source"
    groups = {g.group: g for g in breakdown.groups}
    assert groups["cs"].value == pytest.approx(0.4) and groups["cs"].n == 2  # (0.2 + 0.6) / 2
    assert groups["ss"].value == pytest.approx(0.25) and groups["ss"].n == 2  # (0 + 0.5) / 2
    assert (groups["cs"].ci_low, groups["cs"].ci_high) == pytest.approx(
        _mean_ci([0.2, 0.6], 5), abs=1e-12
    )
    assert breakdown.gap == pytest.approx(0.15)

    cv = out["cv_mean"]
    assert cv.value == pytest.approx(3.0)  # (1 + 0 + 8 + 3) / 4
    assert (cv.n, cv.n_excluded, cv.score_key) == (4, 3, "cv")
    assert (cv.ci_low, cv.ci_high) == pytest.approx(_mean_ci(SCORED_CV, 5), abs=1e-12)
    assert cv.description == "mean context variance, Eq. 2 (S)"
    (cv_breakdown,) = cv.breakdowns
    assert cv_breakdown.by == "source"
    assert {g.group: g.value for g in cv_breakdown.groups} == pytest.approx(
        {"cs": 4.5, "ss": 1.5}  # (1 + 8) / 2, (0 + 3) / 2
    )


def test_spread_median_shares_and_correlations() -> None:
    out = _metrics(aggregate_rows(ROWS, seed=5, scorer="S", flag_threshold=0.5).metrics)
    assert [
        m.name for m in aggregate_rows(ROWS, seed=5, scorer="S", flag_threshold=0.5).metrics
    ] == [
        "cobias_mean",
        "cobias_sd",
        "cv_mean",
        "cv_median",
        "share_no_context_added",
        "share_at_or_above_threshold",
        "spearman_length",
        "spearman_human",
        "spearman_human_p",
    ]
    sd = out["cobias_sd"]
    # deviations from 0.325: -0.125, -0.325, 0.275, 0.175; squares sum 0.2275; / 3
    assert sd.value == pytest.approx(math.sqrt(0.2275 / 3), abs=1e-12)
    assert (sd.n, sd.statistic, sd.description) == (4, "cobias_sd", "sample SD (ddof=1) of COBIAS")
    median = out["cv_median"]
    assert (median.value, median.n) == (2.0, 4)  # sorted 0, 1, 3, 8: (1 + 3) / 2
    assert (median.statistic, median.description) == ("cv_median", "median context variance")
    share = out["share_no_context_added"]
    assert (share.value, share.n) == (0.25, 4)  # only "b" carries the flag
    assert share.description == (
        "statements whose versions all equal the statement (cv = 0, COBIAS = 0)"
    )
    flagged = out["share_at_or_above_threshold"]
    assert (flagged.value, flagged.n) == (0.5, 4)  # 0.6 and 0.5 (at the threshold)
    assert flagged.description == f"statements with COBIAS >= 0.5. {NOTE}"
    assert flagged.statistic == "share_at_or_above_threshold"

    # words 2, 3, 5, 6 vs COBIAS 0.2, 0, 0.6, 0.5: ranks (1,2,3,4) vs (2,1,4,3), d^2 = 4,
    # rho = 1 - 6 * 4 / (4 * 15) = 0.6
    length = out["spearman_length"]
    oracle = spearmanr([2, 3, 5, 6], SCORED_COBIAS)
    assert length.value == pytest.approx(0.6) == oracle.statistic
    assert length.n == 4
    assert length.description == (
        f"Spearman of words per statement vs COBIAS (p = {oracle.pvalue:.3g})"
    )
    # ratings 0, 0.5, 4, 2: ranks (1,2,4,3) vs (2,1,4,3), d^2 = 2, rho = 1 - 12 / 60 = 0.8
    human = out["spearman_human"]
    oracle = spearmanr(SCORED_COBIAS, [0.0, 0.5, 4.0, 2.0])
    assert human.value == pytest.approx(0.8) == oracle.statistic
    assert human.n == 4
    assert human.description == (
        f"Spearman of COBIAS vs mean human Likert rating (p = {oracle.pvalue:.3g}); "
        "the paper reports 0.65 for its scorer"
    )
    p = out["spearman_human_p"]
    assert p.value == pytest.approx(oracle.pvalue, abs=1e-12)
    assert (p.n, p.description, p.statistic) == (4, "p-value of spearman_human", "spearman_human_p")


def test_only_rated_statements_enter_the_human_correlation() -> None:
    # "d" unrated: three pairs left, COBIAS 0.2, 0, 0.6 vs ratings 0, 0.5, 4:
    # ranks (2,1,3) vs (1,2,3), d^2 = 2, rho = 1 - 12 / 24 = 0.5
    rows = [*ROWS[:3], Row("d", "w w w w w w", "ss", 0.5, 3.0, 4), *ROWS[4:]]
    out = _metrics(aggregate_rows(rows, seed=5, scorer="S").metrics)
    assert out["spearman_human"].value == pytest.approx(0.5)
    assert out["spearman_human"].n == 3
    assert "share_at_or_above_threshold" not in out  # no threshold given
    unrated = [Row(r.id, r.sentence, r.group, r.cobias, r.cv, r.n_contexts) for r in ROWS]
    names = [m.name for m in aggregate_rows(unrated, seed=5, scorer="S").metrics]
    assert "spearman_human" not in names and "spearman_human_p" not in names


def test_tables() -> None:
    tables = aggregate_rows(ROWS, seed=5, scorer="S").tables
    assert list(tables) == ["statements", "histogram", "exclusions"]
    statements = tables["statements"]
    assert statements.columns == ["id", "sentence", "cobias", "cv", "n_contexts"]
    assert statements.description == "per-statement COBIAS and cv (S)"
    assert statements.rows == [[r.id, r.sentence, r.cobias, r.cv, r.n_contexts] for r in ROWS]
    histogram = tables["histogram"]
    assert histogram.columns == ["bin", "count"]
    assert histogram.description == "COBIAS distribution: exact zeros, then 10 right-closed bins"
    expected = {"0": 1, "(0.1, 0.2]": 1, "(0.4, 0.5]": 1, "(0.5, 0.6]": 1}  # 0, 0.2, 0.5, 0.6
    assert histogram.rows[0] == ["0", 1]
    assert len(histogram.rows) == 11
    assert {b: c for b, c in histogram.rows if c} == expected
    exclusions = tables["exclusions"]
    assert exclusions.columns == ["reason", "count"]
    assert exclusions.description == "statements not scored, by reason"
    # the reason's first ":"-field: "error" twice (one has two colons), "empty" once
    assert exclusions.rows == [["empty", 1], ["error", 2]]


def test_groups_only_when_every_statement_has_one() -> None:
    rows = [*ROWS[:-1], Row("g", "z", "", None, None, 1, None, "empty")]
    out = _metrics(aggregate_rows(rows, seed=5, scorer="S").metrics)
    assert out["cobias_mean"].breakdowns == [] and out["cv_mean"].breakdowns == []
    assert out["cobias_mean"].value == pytest.approx(0.325)


def test_no_statements_gives_no_values() -> None:
    aggregate = aggregate_rows([], seed=5, scorer="S", flag_threshold=0.5)
    out = _metrics(aggregate.metrics)
    for name in (
        "cobias_mean",
        "cobias_sd",
        "cv_mean",
        "cv_median",
        "share_no_context_added",
        "share_at_or_above_threshold",
        "spearman_length",
    ):
        assert out[name].value is None, name
        assert out[name].n == 0, name
    assert out["cobias_mean"].breakdowns == [] and out["cv_mean"].breakdowns == []
    assert aggregate.tables["statements"].rows == []
    assert aggregate.tables["exclusions"].rows == []
    assert sum(count for _, count in aggregate.tables["histogram"].rows) == 0


def test_excluded_only_gives_no_values() -> None:
    out = _metrics(aggregate_rows(ROWS[4:], seed=5, scorer="S", flag_threshold=0.5).metrics)
    for name in ("cv_median", "share_no_context_added", "share_at_or_above_threshold"):
        assert out[name].value is None and out[name].n == 0, name
    assert out["cobias_mean"].n_excluded == 3


def test_one_statement_has_no_sd_and_a_non_finite_value_is_none() -> None:
    out = _metrics(aggregate_rows(ROWS[:1], seed=5, scorer="S").metrics)
    assert out["cobias_sd"].value is None and out["cobias_sd"].n == 1
    # spearman of fewer than 3 pairs is NaN: reported as None, with its n
    assert out["spearman_length"].value is None and out["spearman_length"].n == 1


def _record(sid: str, **fields: Any) -> SampleRecord:
    return SampleRecord(benchmark="cobias", sample_id=sid, sample_hash="h" + sid, **fields)


def test_rows_from_records() -> None:
    records = [
        _record(
            "1",
            groups={"source": "cs"},
            data={"sentence": "A b.", "human_rating": 3.5, "flags": ["no_context_added"]},
            scores={"cobias": 0.4, "cv": 2.0, "n_contexts": 7},
        ),
        # excluded: its scores and reason-less fields are not used as results
        _record(
            "2",
            scores={"cobias": 0.9, "cv": 5.0},
            excluded=True,
            exclusion_reason="error: x",
        ),
        # a reason on a record that was not excluded is not an exclusion
        _record("3", scores={"cobias": 0.1, "cv": 0.5}, exclusion_reason="stale"),
    ]
    rows = rows_from_records(records)
    assert rows[0] == Row("1", "A b.", "cs", 0.4, 2.0, 7, 3.5, None, ["no_context_added"])
    assert rows[1] == Row("2", "", "", None, None, 0, None, "error: x", [])
    assert rows[2] == Row("3", "", "", 0.1, 0.5, 0, None, None, [])


# six distinct values: the interval's percentiles depend on the seed
VALUES = [0.1, 0.3, 0.7, 0.35, 0.62, 0.05]


def test_describe_and_aggregate_records() -> None:
    settings = TauSettings("causal", "word", lowercase=True, add_special_tokens=False)
    text = "tau estimator=causal, granularity=word, lowercase=True, add_special_tokens=False"
    assert describe(settings) == text
    records = [
        _record(
            str(i),
            groups={"source": "cs"},
            data={"sentence": "w " * (i + 1)},
            scores={"cobias": value, "cv": 1.0 + i, "n_contexts": 3},
        )
        for i, value in enumerate(VALUES)
    ]
    aggregate = aggregate_records(records, seed=3, settings=settings, flag_threshold=0.3)
    out = _metrics(aggregate.metrics)
    assert out["cobias_mean"].value == pytest.approx(2.12 / 6)
    assert (out["cobias_mean"].ci_low, out["cobias_mean"].ci_high) == pytest.approx(
        _mean_ci(VALUES, 3), abs=1e-12
    )
    assert _mean_ci(VALUES, 3) != pytest.approx(_mean_ci(VALUES, 4))
    assert out["cobias_mean"].description.startswith(
        f"dataset COBIAS: mean of Eq. 3 over statements ({text}). "
    )
    # 0.3, 0.7, 0.35, 0.62
    assert out["share_at_or_above_threshold"].value == pytest.approx(4 / 6)
    assert aggregate.tables["statements"].description == f"per-statement COBIAS and cv ({text})"


def test_intervals_follow_the_seed() -> None:
    # eight statements with irregular values: the percentiles move with the seed
    cobias = [0.11, 0.52, 0.37, 0.93, 0.05, 0.68, 0.29, 0.81]
    cv = [1.3, 7.1, 2.2, 40.5, 0.4, 11.9, 3.3, 25.0]
    rows = [
        Row(str(i), "w", "cs" if i % 2 else "ss", c, v, 1)
        for i, (c, v) in enumerate(zip(cobias, cv, strict=True))
    ]
    assert _mean_ci(cobias, 7) != pytest.approx(_mean_ci(cobias, 8))
    out = _metrics(aggregate_rows(rows, seed=7, scorer="S").metrics)
    for name, values in (("cobias_mean", cobias), ("cv_mean", cv)):
        metric = out[name]
        assert (metric.ci_low, metric.ci_high) == pytest.approx(_mean_ci(values, 7), abs=1e-12)
        groups = {g.group: g for g in metric.breakdowns[0].groups}
        odd = [v for i, v in enumerate(values) if i % 2]
        assert (groups["cs"].ci_low, groups["cs"].ci_high) == pytest.approx(
            _mean_ci(odd, 7), abs=1e-12
        )
