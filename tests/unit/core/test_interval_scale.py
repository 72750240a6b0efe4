"""A declared proportion scale (MetricSpec.scale): all-zero percentages get a percent interval.

Oracle: statsmodels' Wilson interval (`proportion_confint(method="wilson")`), times 100.
Before the declaration, 1,508 CrowS-Pairs pairs that all scored 0 (pct_neutral) read as a 0/1
proportion and got the upper bound 0.0025 on a percent scale instead of 0.25.
"""

from __future__ import annotations

import pytest
from statsmodels.stats.proportion import proportion_confint

from biasaudit.metrics import MetricSpec, frame
from biasaudit.metrics.intervals import mean_interval, proportion_scale
from biasaudit.results.schema import SampleRecord


def test_declared_scale_reads_all_zero_values_in_percent() -> None:
    assert proportion_scale([0.0, 0.0]) == 1.0
    assert proportion_scale([0.0, 0.0], 100.0) == 100.0
    assert proportion_scale([0.0, 1.0], 100.0) is None  # not 0/100: no Wilson on that scale
    interval = mean_interval(
        [0.0] * 1508, clusters=None, strata=None, seed=0, n_resamples=10, level=0.95, scale=100.0
    )
    low, high = proportion_confint(0, 1508, alpha=0.05, method="wilson")
    assert interval.method == "wilson"
    assert interval.low == pytest.approx(100 * low, abs=1e-12)
    assert interval.high == pytest.approx(100 * high)
    assert 0.25 < interval.high < 0.26


def test_frame_passes_the_declared_scale() -> None:
    records = [
        SampleRecord(
            benchmark="b",
            sample_id=str(i),
            sample_hash=f"{i:064x}",
            groups={"g": "ab"[i % 2]},
            scores={"flag": 0.0},
        )
        for i in range(40)
    ]
    spec = MetricSpec(name="m", score="flag", group_by=["g"], scale=100.0)
    metric = frame(records, spec, seed=0)
    assert metric.ci_high == pytest.approx(100 * proportion_confint(0, 40, method="wilson")[1])
    group = metric.breakdowns[0].groups[0]
    assert group.ci_high == pytest.approx(100 * proportion_confint(0, 20, method="wilson")[1])
    inferred = frame(records, spec.model_copy(update={"scale": None}), seed=0)
    assert inferred.ci_high == pytest.approx(proportion_confint(0, 40, method="wilson")[1])
