"""Per-sample value recovery and differences between runs."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from report_runs import N, correct_a, toy_records, toy_run, write_run

from biasaudit.metrics import bootstrap_ci
from biasaudit.report.compare import (
    CONSERVATIVE,
    Difference,
    compare_runs,
    conservative_interval,
    paired_interval,
)
from biasaudit.report.runs import load_runs
from biasaudit.report.values import sample_values
from biasaudit.results.schema import MetricValue


def test_sample_values_follow_the_recorded_definition() -> None:
    records = toy_records(correct_a)
    accuracy, accuracy_hi, spread = toy_run(records, "m").benchmarks[0].metrics
    found = sample_values(accuracy, records)
    assert found is not None
    assert (found.score_key, found.cluster_field) == ("correct", "cluster")
    assert found.values[records[7].sample_hash] is None  # excluded sample
    assert sum(v is not None for v in found.values.values()) == accuracy.n
    assert found.clusters[records[5].sample_hash] == "c1"  # data.cluster of sample 5
    assert found.groups[records[5].sample_hash] == "b"

    hi = sample_values(accuracy_hi, records)
    assert hi is not None and hi.cluster_field is None
    assert len(hi.values) == N // 2  # only the samples of level "hi" (the metric's filter)
    assert sample_values(spread, records) is None  # a range is not a per-sample mean


def test_sample_values_of_v1_metrics_are_unknown() -> None:
    records = toy_records(correct_a)
    v1 = MetricValue.model_validate(
        {"name": "accuracy", "value": 0.5, "n": 3, "ci_method": "bootstrap(1000, cluster)"}
    )
    assert v1.ci is not None and v1.ci.method.startswith("v1")
    assert sample_values(v1, records) is None


def test_conservative_interval() -> None:
    assert conservative_interval((0.2, 0.4), (0.5, 0.9)) == pytest.approx((0.1, 0.7))
    assert conservative_interval((None, 0.4), (0.5, 0.9)) == (None, None)


def test_paired_interval_constant_difference_and_exclusions() -> None:
    # Every pair differs by exactly 0.5: every resample gives 0.5.
    assert paired_interval([0.0, 0.5, 0.2], [0.5, 1.0, 0.7], None, seed=0) == pytest.approx(
        (0.5, 0.5)
    )
    # A sample excluded in one run only is left out of that run's mean, as in its metric.
    low, high = paired_interval([0.0, 1.0, None], [1.0, 1.0, 1.0], None, seed=0)
    assert low is not None and high is not None and 0.0 <= low <= high <= 1.0


def test_paired_interval_equals_bootstrap_of_differences_without_exclusions() -> None:
    rng = np.random.default_rng(1)
    a = rng.random(30)
    b = a + rng.normal(0.1, 0.05, 30)
    expected = bootstrap_ci(b - a, seed=3, n_resamples=200)
    got = paired_interval(list(a), list(b), None, seed=3, n_resamples=200)
    assert got == pytest.approx(expected)


def _by(diffs: list[Difference], metric: str, group: str = "") -> Difference:
    return next(d for d in diffs if d.metric == metric and d.group == group)


def test_compare_same_samples_is_paired(run_a: Path, run_b: Path) -> None:
    diffs = compare_runs(load_runs([run_a, run_b]))
    acc = _by(diffs, "accuracy")
    assert acc.method == "paired bootstrap (1000, cluster=cluster)"
    assert acc.difference == pytest.approx(acc.other_value - acc.baseline_value)
    assert acc.ci_low is not None and acc.ci_high is not None
    assert acc.ci_low <= acc.difference <= acc.ci_high
    # Run b only changes group "a" (even samples): group "b" differs by exactly zero.
    same = _by(diffs, "accuracy", "b")
    assert (same.difference, same.ci_low, same.ci_high) == (0.0, 0.0, 0.0)
    assert same.reading() == "no clear difference"
    # The paired interval is narrower than the conservative one from the same two CIs.
    cons = conservative_interval(
        (acc.baseline_ci_low, acc.baseline_ci_high), (acc.other_ci_low, acc.other_ci_high)
    )
    assert acc.ci_high - acc.ci_low < cons[1] - cons[0]  # type: ignore[operator]
    spread = _by(diffs, "range")
    assert spread.method == CONSERVATIVE
    assert (spread.ci_low, spread.ci_high) == (-1.0, 1.0)


def test_compare_different_samples_is_conservative(run_a: Path, tmp_path: Path) -> None:
    # the same answers to other samples (another sample hash each)
    records = [
        r.model_copy(update={"sample_hash": "x" + r.sample_hash}) for r in toy_records(correct_a)
    ]
    other = write_run(tmp_path / "other", toy_run(records, "model-c"), records)
    diffs = compare_runs(load_runs([run_a, other]))
    acc = _by(diffs, "accuracy")
    assert acc.method == CONSERVATIVE
    assert acc.difference == 0.0
    assert acc.ci_low == pytest.approx(acc.other_ci_low - acc.baseline_ci_high)
    assert acc.ci_high == pytest.approx(acc.other_ci_high - acc.baseline_ci_low)


def test_reading() -> None:
    base = dict(
        benchmark="b",
        metric="m",
        group="",
        baseline="x",
        other="y",
        baseline_value=0.1,
        baseline_ci_low=0.0,
        baseline_ci_high=0.2,
        baseline_n=3,
        other_value=0.5,
        other_ci_low=0.4,
        other_ci_high=0.6,
        other_n=3,
        difference=0.4,
        method=CONSERVATIVE,
    )
    assert Difference(**base, ci_low=0.2, ci_high=0.6, higher_is_better=False).reading() == (
        "higher (worse)"
    )
    assert Difference(**base, ci_low=-0.1, ci_high=0.6, higher_is_better=True).reading() == (
        "no clear difference"
    )
    assert Difference(**base, ci_low=None, ci_high=None, higher_is_better=None).reading() == "no CI"


def test_duplicate_labels_are_made_unique(run_a: Path, tmp_path: Path) -> None:
    records = toy_records(correct_a)
    again = write_run(tmp_path / "again", toy_run(records, "model-a"), records)
    labels = [r.label for r in load_runs([run_a, again])]
    assert labels == ["model-a (run-a)", "model-a (again)"]


def test_compare_constant_run_is_still_paired(run_a: Path, tmp_path: Path) -> None:
    # A run that fails everything: every clustering reproduces its CI (0, 0), and other
    # all-zero scores match too; the clusters found in the baseline still pair it.
    records = toy_records(lambda i: 0.0)
    for r in records:
        r.scores["zero"] = 0
    flat = write_run(tmp_path / "flat", toy_run(records, "model-z"), records)
    acc = _by(compare_runs(load_runs([run_a, flat])), "accuracy")
    assert acc.method == "paired bootstrap (1000, cluster=cluster)"
    assert acc.ci_high is not None and acc.ci_high < 0
