"""Differences between runs on the same benchmarks, with confidence intervals.

Every run is compared with the first (the baseline): difference = other - baseline, overall
and per group. Two interval methods, and each difference says which one it used:

* ``paired bootstrap``: when both runs saw exactly the same samples (equal `samples_hash`) and
  the metric is a mean of per-sample values recorded by its definition (`report.values`)
  in both runs (reproducing the stored value, by-group values and CI exactly), samples are paired
  by `sample_hash` and resampled together, by the same clusters as the metric's own CI. The
  statistic is the difference of the two runs' means over the resampled pairs, so samples one
  run excluded are handled as in that run's own metric.
* ``conservative``: otherwise (different samples, a metric that is not a per-sample mean,
  such as a range or a spread, and every signed contrast), the interval is
  [low_o - high_b, high_o - low_b] from the two stored CIs. If both CIs hold at level 1 - a,
  this interval holds with probability at least 1 - 2a whatever the dependence between the
  runs (Bonferroni), and for independent runs it is wider than needed (about 99% coverage for
  two 95% CIs of equal width).

Besides the overall value and the groups of the first breakdown, each signed contrast the
metric declares (`MetricSpec.contrasts`: mean(a) - mean(b), e.g. pro - anti) is a row of kind
"contrast": both runs' contrast values with their CIs, n (= n_a + n_b) and permutation-floor
p-values and null 95th percentiles, and the difference of the two contrasts.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from biasaudit.report.runs import LoadedRun
from biasaudit.report.values import SampleValues, ci_resamples, sample_values
from biasaudit.results.schema import BenchmarkResult, ContrastValue, MetricValue

PAIRED = "paired bootstrap"
#: value, ci_low, ci_high, n
_Stat = tuple[float | None, float | None, float | None, int]
#: p-value and null p95 of a contrast's floor (None, None elsewhere)
_Floor = tuple[float | None, float | None]
_NO_FLOOR: _Floor = (None, None)
CONSERVATIVE = "conservative"


@dataclass(frozen=True)
class Difference:
    benchmark: str
    metric: str
    #: "" for the overall value.
    group: str
    baseline: str
    other: str
    baseline_value: float | None
    baseline_ci_low: float | None
    baseline_ci_high: float | None
    baseline_n: int
    other_value: float | None
    other_ci_low: float | None
    other_ci_high: float | None
    other_n: int
    difference: float | None
    ci_low: float | None
    ci_high: float | None
    #: "paired bootstrap (1000, cluster=data.seed_id)", "conservative", or "" without a CI.
    method: str
    higher_is_better: bool | None
    #: "not measurable: <reason> (<run>)" when a validity gate hides either value.
    not_measurable: str = ""
    #: "overall", "group" (of the first breakdown) or "contrast" (group = the contrast's name).
    kind: str = "overall"
    #: A contrast's permutation floor in each run: p-value and null 95th percentile of |a - b|.
    baseline_p_value: float | None = None
    other_p_value: float | None = None
    baseline_null_p95: float | None = None
    other_null_p95: float | None = None

    def as_dict(self) -> dict[str, object]:
        return asdict(self) | {"reading": self.reading()}

    def reading(self) -> str:
        """Plain-words verdict: does the CI of the difference exclude zero, and which way?"""
        if self.not_measurable:
            return self.not_measurable
        if self.ci_low is None or self.ci_high is None:
            return "no CI"
        if self.ci_low <= 0.0 <= self.ci_high:
            return "no clear difference"
        higher = self.ci_low > 0
        direction = "higher" if higher else "lower"
        if self.higher_is_better is None or self.kind == "contrast":  # no better for a - b
            return direction
        return f"{direction} ({'better' if higher == self.higher_is_better else 'worse'})"


def conservative_interval(
    baseline: tuple[float | None, float | None], other: tuple[float | None, float | None]
) -> tuple[float | None, float | None]:
    """[low_o - high_b, high_o - low_b]; None when either CI is missing."""
    (b_low, b_high), (o_low, o_high) = baseline, other
    if None in (b_low, b_high, o_low, o_high):
        return None, None
    assert b_low is not None and b_high is not None and o_low is not None and o_high is not None
    return o_low - b_high, o_high - b_low


def paired_interval(
    baseline: Sequence[float | None],
    other: Sequence[float | None],
    clusters: Sequence[str] | None,
    *,
    seed: int,
    n_resamples: int = 1000,
    level: float = 0.95,
) -> tuple[float | None, float | None]:
    """Percentile bootstrap CI of mean(other) - mean(baseline) over paired samples.

    None marks a sample a run did not count. Pairs (or whole `clusters` of pairs) are drawn
    with the same random draws as `biasaudit.metrics.bootstrap_ci`, so without exclusions
    this equals its CI of the per-pair differences; a resample in which a run has no counted
    sample has no difference and is dropped.
    """
    a = np.array([math.nan if v is None else v for v in baseline], dtype=np.float64)
    b = np.array([math.nan if v is None else v for v in other], dtype=np.float64)
    if a.size != b.size:
        raise ValueError("paired values must have the same length")
    labels = list(clusters) if clusters is not None else [str(i) for i in range(a.size)]
    index = {label: i for i, label in enumerate(dict.fromkeys(labels))}
    if len(index) < 2:
        return None, None
    members = np.array([index[label] for label in labels])

    def totals(values: npt.NDArray[np.float64]) -> tuple[npt.NDArray[Any], npt.NDArray[Any]]:
        """Per-cluster sum and count of the counted (non-NaN) values."""
        counted = ~np.isnan(values)
        sums = np.bincount(members, weights=np.where(counted, values, 0.0), minlength=len(index))
        counts = np.bincount(members, weights=counted.astype(np.float64), minlength=len(index))
        return sums, counts

    rng = np.random.default_rng(seed)
    picks = rng.integers(0, len(index), size=(n_resamples, len(index)))
    (sum_a, n_a), (sum_b, n_b) = totals(a), totals(b)
    with np.errstate(invalid="ignore", divide="ignore"):
        diffs = sum_b[picks].sum(1) / n_b[picks].sum(1) - sum_a[picks].sum(1) / n_a[picks].sum(1)
    diffs = diffs[np.isfinite(diffs)]
    if diffs.size == 0:
        return None, None
    alpha = (1.0 - level) / 2.0
    low, high = np.quantile(diffs, [alpha, 1.0 - alpha])
    return float(low), float(high)


class _Identified:
    """identify() results, computed once per (run, benchmark, metric)."""

    def __init__(self) -> None:
        self._cache: dict[tuple[int, str, str], SampleValues | None] = {}

    def get(self, run: LoadedRun, bench: str, metric: MetricValue) -> SampleValues | None:
        key = (id(run), bench, metric.name)
        if key not in self._cache:
            self._cache[key] = sample_values(metric, run.samples(bench))
        return self._cache[key]


def _paired(
    sv_b: SampleValues,
    sv_o: SampleValues,
    group: str,
    seed: int,
    metric: MetricValue,
) -> tuple[float | None, float | None]:
    hashes = [
        h for h in sv_b.values if h in sv_o.values and (not group or sv_b.groups.get(h) == group)
    ]
    clusters = [sv_b.clusters[h] for h in hashes] if sv_b.cluster_field else None
    return paired_interval(
        [sv_b.values[h] for h in hashes],
        [sv_o.values[h] for h in hashes],
        clusters,
        seed=seed,
        n_resamples=ci_resamples(metric),
        level=metric.ci.level if metric.ci else 0.95,
    )


@dataclass(frozen=True)
class _Row:
    kind: str
    group: str
    base: _Stat
    other: _Stat
    base_floor: _Floor = _NO_FLOOR
    other_floor: _Floor = _NO_FLOOR
    #: A contrast's own "not measurable" reasons (a validity gate), one per run.
    gated: tuple[str | None, str | None] = (None, None)


def _contrast_stat(c: ContrastValue) -> tuple[_Stat, _Floor]:
    floor = c.noise_floor
    stat: _Stat = (c.value, c.ci_low, c.ci_high, c.n_a + c.n_b)
    return stat, (floor.p_value, floor.null_p95) if floor is not None else _NO_FLOOR


def _rows(m_b: MetricValue, m_o: MetricValue) -> list[_Row]:
    """The overall value, the groups of the first breakdown, and the signed contrasts that
    both runs hold."""
    rows = [
        _Row(
            "overall",
            "",
            (m_b.value, m_b.ci_low, m_b.ci_high, m_b.n),
            (m_o.value, m_o.ci_low, m_o.ci_high, m_o.n),
        )
    ]
    first_b = m_b.breakdowns[0] if m_b.breakdowns else None
    first_o = m_o.breakdowns[0] if m_o.breakdowns else None
    if first_b is not None and first_o is not None and first_b.by == first_o.by:
        other_groups = {g.group: g for g in first_o.groups}
        rows += [
            _Row(
                "group",
                g.group,
                (g.value, g.ci_low, g.ci_high, g.n),
                (og.value, og.ci_low, og.ci_high, og.n),
            )
            for g in first_b.groups
            if (og := other_groups.get(g.group)) is not None
        ]
    other_contrasts = {c.name: c for c in m_o.contrasts}
    for c in m_b.contrasts:
        if (oc := other_contrasts.get(c.name)) is not None:
            (b_stat, b_floor), (o_stat, o_floor) = _contrast_stat(c), _contrast_stat(oc)
            gated = (c.undefined_reason, oc.undefined_reason)
            rows.append(_Row("contrast", c.name, b_stat, o_stat, b_floor, o_floor, gated))
    return rows


def _gate_text(reasons: tuple[str | None, str | None], base: LoadedRun, other: LoadedRun) -> str:
    """The "not measurable" reasons of the two runs, each with its run's label."""
    return "; ".join(
        f"{reason} ({run.label})"
        for reason, run in zip(reasons, (base, other), strict=True)
        if reason and reason.startswith("not measurable")
    )


def _compare_metric(
    bench: str,
    base: LoadedRun,
    other: LoadedRun,
    m_b: MetricValue,
    m_o: MetricValue,
    same_samples: bool,
    identified: _Identified,
) -> list[Difference]:
    sv_b = sv_o = None
    if same_samples:
        sv_b = identified.get(base, bench, m_b)
        sv_o = identified.get(other, bench, m_o)
    paired = (
        sv_b is not None
        and sv_o is not None
        and sv_b.score_key == sv_o.score_key
        and sv_b.cluster_field == sv_o.cluster_field
    )
    out = []
    for row in _rows(m_b, m_o):
        reasons = (m_b.undefined_reason, m_o.undefined_reason)
        if row.kind == "contrast" and not _gate_text(reasons, base, other):
            reasons = row.gated
        gated = _gate_text(reasons, base, other)
        (bv, bl, bh, bn), (ov, ol, oh, on) = row.base, row.other
        diff = ov - bv if ov is not None and bv is not None else None
        low: float | None
        high: float | None
        if diff is None:
            low, high, method = None, None, ""
        elif paired and row.kind != "contrast":
            assert sv_b is not None and sv_o is not None
            low, high = _paired(sv_b, sv_o, row.group, base.result.seed, m_b)
            cluster = f", cluster={sv_b.cluster_field}" if sv_b.cluster_field else ""
            method = f"{PAIRED} ({ci_resamples(m_b)}{cluster})" if low is not None else ""
        else:
            low, high = conservative_interval((bl, bh), (ol, oh))
            method = CONSERVATIVE if low is not None else ""
        out.append(
            Difference(
                benchmark=bench,
                metric=m_b.name,
                group=row.group,
                baseline=base.label,
                other=other.label,
                baseline_value=bv,
                baseline_ci_low=bl,
                baseline_ci_high=bh,
                baseline_n=bn,
                other_value=ov,
                other_ci_low=ol,
                other_ci_high=oh,
                other_n=on,
                difference=diff,
                ci_low=low,
                ci_high=high,
                method=method,
                higher_is_better=m_b.higher_is_better,
                not_measurable=gated,
                kind=row.kind,
                baseline_p_value=row.base_floor[0],
                other_p_value=row.other_floor[0],
                baseline_null_p95=row.base_floor[1],
                other_null_p95=row.other_floor[1],
            )
        )
    return out


def _shared(base: BenchmarkResult, other: BenchmarkResult) -> list[tuple[MetricValue, MetricValue]]:
    other_metrics = {m.name: m for m in other.metrics}
    return [(m, other_metrics[m.name]) for m in base.metrics if m.name in other_metrics]


def compare_runs(runs: Sequence[LoadedRun]) -> list[Difference]:
    """Differences of every later run from the first, on the benchmarks they share."""
    identified = _Identified()
    out: list[Difference] = []
    base = runs[0]
    for other in runs[1:]:
        for b_bench in base.result.benchmarks:
            o_bench = other.benchmark(b_bench.benchmark)
            if o_bench is None:
                continue
            same = b_bench.samples_hash == o_bench.samples_hash
            for m_b, m_o in _shared(b_bench, o_bench):
                out.extend(
                    _compare_metric(b_bench.benchmark, base, other, m_b, m_o, same, identified)
                )
    return out
