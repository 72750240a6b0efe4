"""How gated numbers are shown everywhere: "not measurable: <reason>" instead of a value.

Used by the terminal summary after `run`, the report, compare, export and the model card,
so that one rule decides whether a number is shown.
"""

from __future__ import annotations

from typing import Any

from biasaudit.profile.validity import (
    answer_rate,
    benchmark_profile,
    group_reason,
    n_reason,
    pct,
    validity_of,
)
from biasaudit.results.schema import (
    BenchmarkResult,
    ContrastValue,
    GroupValue,
    MetricValue,
    RunResult,
)

NOT_MEASURABLE = "not measurable"

#: Exit status of `run --strict` when a benchmark finished but is not measurable.
EXIT_NOT_MEASURABLE = 4


def metric_reason(bench: BenchmarkResult, metric: MetricValue) -> str | None:
    """Why the metric is not shown (None: it is). Metrics that describe answering itself
    (the gates' ``exempt``, e.g. answer_rate) are always shown: they say why."""
    if metric.name in benchmark_profile(bench.benchmark).gates.exempt:
        return None
    return validity_of(bench).reason(metric.name)


def group_value_reason(
    bench: BenchmarkResult, metric: MetricValue, group: GroupValue
) -> str | None:
    return metric_reason(bench, metric) or group_reason(
        group, benchmark_profile(bench.benchmark).gates
    )


def contrast_reason(
    bench: BenchmarkResult, metric: MetricValue, contrast: ContrastValue
) -> str | None:
    """A contrast of a gated metric, or with too few samples on a side, is not shown."""
    gates = benchmark_profile(bench.benchmark).gates
    return (
        metric_reason(bench, metric)
        or n_reason(contrast.n_a, gates)
        or n_reason(contrast.n_b, gates)
    )


def not_measurable(reason: str) -> str:
    return f"{NOT_MEASURABLE}: {reason}"


def metric_row(bench: BenchmarkResult, metric: MetricValue) -> list[Any]:
    """[metric, value, ci_low, ci_high, n, excluded, answered] for the terminal table."""
    rate = answer_rate(metric.outcome_rates)
    answered = pct(rate) if rate is not None else ""
    reason = metric_reason(bench, metric)
    if reason is not None:
        return [metric.name, not_measurable(reason), "", "", metric.n, metric.n_excluded, answered]
    return [
        metric.name,
        metric.value,
        metric.ci_low,
        metric.ci_high,
        metric.n,
        metric.n_excluded,
        answered,
    ]


METRIC_COLUMNS = ["metric", "value", "ci_low", "ci_high", "n", "excluded", "answered"]


def status_lines(bench: BenchmarkResult) -> list[str]:
    """The benchmark's validity status and its warnings, one line each."""
    validity = validity_of(bench)
    lines = [f"validity: {validity.status}"]
    reason = validity.reason(None)
    if reason:
        lines[0] += f" ({reason})"
    lines += [f"note: {w}" for w in validity.warnings(None)]
    return lines


def not_measurable_benchmarks(runs: list[RunResult]) -> list[tuple[str, str, str]]:
    """(model, benchmark, reason) of every benchmark whose status is not measurable."""
    out = []
    for run in runs:
        for bench in run.benchmarks:
            validity = validity_of(bench)
            if validity.status == NOT_MEASURABLE:
                out.append(
                    (
                        run.model.spec,
                        bench.benchmark,
                        validity.reason(None) or "every metric failed a validity gate",
                    )
                )
    return out


def gated_result(run: RunResult) -> RunResult:
    """A copy of `run` in which every gated number is None with its reason.

    A gated metric keeps n and outcome rates (they say why) and gets ``undefined_reason =
    "not measurable: <reason>"``; a gated group of a breakdown (too few samples, too few
    answers) keeps n and rates, with no value or CI. The report, compare and export read
    runs through this, so no gated number reaches them; results.json keeps every value.
    """
    benches = []
    for bench in run.benchmarks:
        validity = validity_of(bench)
        gates = benchmark_profile(bench.benchmark).gates
        metrics = []
        for metric in bench.metrics:
            reason = metric_reason(bench, metric)
            update: dict[str, Any] = {}
            if reason is not None:
                update = {
                    "value": None,
                    "ci_low": None,
                    "ci_high": None,
                    "undefined_reason": not_measurable(reason),
                    "noise_floor": None,
                }
            breakdowns = []
            for breakdown in metric.breakdowns:
                groups = [
                    g.model_copy(update={"value": None, "ci_low": None, "ci_high": None})
                    if reason is not None or group_reason(g, gates) is not None
                    else g
                    for g in breakdown.groups
                ]
                gated: dict[str, Any] = {"groups": groups}
                if reason is not None:
                    gated |= {"gap": None, "ratio": None, "noise_floor": None}
                breakdowns.append(breakdown.model_copy(update=gated))
            contrasts = [_gated_contrast(bench, metric, c) for c in metric.contrasts]
            update |= {"breakdowns": breakdowns, "contrasts": contrasts}
            metrics.append(metric.model_copy(update=update))
        benches.append(bench.model_copy(update={"metrics": metrics, "validity": validity}))
    return run.model_copy(update={"benchmarks": benches})


def _gated_contrast(
    bench: BenchmarkResult, metric: MetricValue, contrast: ContrastValue
) -> ContrastValue:
    reason = contrast_reason(bench, metric, contrast)
    if reason is None:
        return contrast
    withheld = ("value", "value_a", "value_b", "ci_low", "ci_high", "noise_floor")
    return contrast.model_copy(
        update=dict.fromkeys(withheld) | {"undefined_reason": not_measurable(reason)}
    )
