"""Declared metrics computed one way: overall, every breakdown, gaps, CIs and noise floors.

A benchmark declares `MetricSpec`s (which per-sample score, which statistic, which groupings,
which clusters and strata the bootstrap respects); `frame` computes each one into a
`MetricValue` that records that definition, the fairlearn `MetricFrame` design with
inspect_ai's recorded metric definitions. Statistics that are not per-sample means are
declared as a `StatisticSpec` (metrics/statistic.py) and computed by `frame` as well, with the
same bootstrap: `frame` is the one MetricValue builder.

The statistical rules live in their own modules and are summarised in docs/statistics.md:
which interval (Wilson for proportions of independent samples, else the percentile
bootstrap; none when zero-width or excluding the estimate): `intervals`; which labels a
noise floor shuffles (whole `permute_within` blocks or clusters when the breakdown is
constant within them, so a nested breakdown no longer gets floor = gap, p = 1): `floors`;
signed contrasts mean(a) - mean(b) declared as `MetricSpec(contrasts=[Contrast(...)])`:
`contrasts`.

Undefined values: the formula functions raise or return None; aggregation reports None with
`undefined_reason` and never an ideal value for empty input.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Literal

import numpy as np
from pydantic import BaseModel, ConfigDict, Field

from biasaudit.metrics.contrasts import Contrast, contrast_value
from biasaudit.metrics.floors import Design, permutation_design
from biasaudit.metrics.grouped import outcome_rates
from biasaudit.metrics.intervals import Interval, mean_interval
from biasaudit.metrics.keys import gap_ratio, sample_key
from biasaudit.metrics.permutation import (
    GapStatistic,
    PermutationNull,
    max_minus_min,
    permutation_null,
)
from biasaudit.metrics.statistic import StatisticSpec, statistic_frame
from biasaudit.results.schema import (
    Breakdown,
    CIInfo,
    ContrastValue,
    GroupValue,
    MetricValue,
    NoiseFloor,
    SampleRecord,
)


class MetricSpec(BaseModel):
    """The declaration of one metric; see `frame` for what is computed from it."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str
    #: Key of the per-sample score in `SampleScore.scores`; None or missing = not counted.
    score: str
    statistic: Literal["mean"] = "mean"
    #: Keys of `Sample.groups` ("a+b" combines two): one breakdown each.
    group_by: list[str] = Field(default_factory=list)
    #: Key (of groups, else data) whose samples are resampled together.
    cluster_by: str | None = None
    #: Key (of groups, else data) within whose levels the bootstrap resamples.
    stratify_by: str | None = None
    #: Only samples whose groups match, e.g. {"severity": "low"}.
    where: dict[str, str] = Field(default_factory=dict)
    higher_is_better: bool | None = None
    description: str = ""
    #: Citation of the formula.
    reference: str = ""
    #: Add a permutation noise floor to each breakdown's gap.
    noise_floor: bool = False
    #: Key within whose levels group labels are shuffled for the floor (e.g. a template).
    permute_within: str | None = None
    #: Count excluded samples too (their score must then be present).
    include_excluded: bool = False
    #: Which parse outcomes the rates describe: all of a sample's, its last, or none.
    outcomes: Literal["all", "last", "none"] = "all"
    n_resamples: int = 1000
    n_permutations: int = 1000
    level: float = 0.95
    #: Signed contrasts mean(a) - mean(b) between two groups of a key (metrics/contrasts.py).
    contrasts: list[Contrast] = Field(default_factory=list)
    #: A proportion's scale (1 or 100) when every score is 0 or this value: then Wilson
    #: intervals are on this scale even when every score is 0 (None: inferred, intervals.py).
    scale: float | None = None

    def keys(self) -> list[str]:
        """The keys whose labels the metric reads (breakdowns, contrasts, design; not `where`)."""
        design = (self.cluster_by, self.stratify_by, self.permute_within)
        used = [*self.group_by, *(c.by for c in self.contrasts), *(k for k in design if k)]
        return list(dict.fromkeys(used))


def _score(record: SampleRecord, spec: MetricSpec) -> float | None:
    if record.excluded and not spec.include_excluded:
        return None
    value = record.scores.get(spec.score)
    if value is None:
        return None
    return float(value)


def _outcomes(record: SampleRecord, spec: MetricSpec, value: float | None) -> list[str]:
    if spec.outcomes == "none":
        return []
    if spec.outcomes == "last":
        return record.outcomes[-1:] if value is not None else []
    return list(record.outcomes)


def ci_info(spec: MetricSpec, interval: Interval | None = None) -> CIInfo:
    """The record of how the metric's interval was computed (intervals.py's rule)."""
    method = interval.method if interval is not None else "bootstrap"
    return CIInfo(
        method=method,
        n_resamples=spec.n_resamples if method == "bootstrap" else None,
        level=spec.level,
        cluster_by=spec.cluster_by,
        stratify_by=spec.stratify_by,
        unavailable_reason=interval.reason if interval is not None else None,
    )


@dataclass
class _Columns:
    """What `frame` reads of the records, taken in one pass (no record is kept).

    `values` and `labels` are over the scored samples (those with a value), in record order;
    `member_outcomes` is, per breakdown key and group, the outcomes of every chosen sample.
    """

    values: list[float] = field(default_factory=list)
    labels: dict[str, list[str]] = field(default_factory=dict)
    outcomes: list[str] = field(default_factory=list)
    member_outcomes: dict[str, dict[str, list[str]]] = field(default_factory=dict)
    n_chosen: int = 0

    def of(self, key: str | None) -> list[str] | None:
        """The labels of `key` over the scored samples; None for no key."""
        return self.labels[key] if key else None


def _columns(records: Iterable[SampleRecord], spec: MetricSpec) -> _Columns:
    """Scores, group / cluster / stratum labels and outcomes of the records `spec` counts."""
    keys = spec.keys()
    cols = _Columns(
        labels={key: [] for key in keys},
        member_outcomes={by: {} for by in spec.group_by},
    )
    for record in records:
        if not all(record.groups.get(k) == v for k, v in spec.where.items()):
            continue
        cols.n_chosen += 1
        value = _score(record, spec)
        outcomes = _outcomes(record, spec, value)
        cols.outcomes.extend(outcomes)
        for by in spec.group_by:
            label = sample_key(record, by)
            cols.member_outcomes[by].setdefault(label, []).extend(outcomes)
        if value is None:
            continue
        cols.values.append(value)
        for key in keys:
            cols.labels[key].append(sample_key(record, key))
    return cols


def _mean_ci(
    values: Sequence[float],
    clusters: Sequence[str] | None,
    strata: Sequence[str] | None,
    spec: MetricSpec,
    seed: int,
) -> Interval:
    return mean_interval(
        values,
        clusters=clusters,
        strata=strata,
        seed=seed,
        n_resamples=spec.n_resamples,
        level=spec.level,
        scale=spec.scale,
    )


def _group_method(interval: Interval, n: int, overall: Interval) -> str | None:
    """A group's `ci_method`: None when it is the metric's, else the method or why none."""
    if interval.reason is not None:
        return f"none: {interval.reason}" if n else None
    return None if interval.method == overall.method else interval.method


def _subset(labels: list[str] | None, members: Sequence[int]) -> list[str] | None:
    return None if labels is None else [labels[i] for i in members]


def _breakdown(
    by: str, cols: _Columns, spec: MetricSpec, seed: int, overall: Interval
) -> Breakdown:
    labels = cols.labels[by]
    clusters, strata = cols.of(spec.cluster_by), cols.of(spec.stratify_by)
    members_outcomes = cols.member_outcomes[by]
    groups: list[GroupValue] = []
    for group in sorted(set(labels) | members_outcomes.keys()):
        members = [i for i, label in enumerate(labels) if label == group]
        part = [cols.values[i] for i in members]
        ci = _mean_ci(part, _subset(clusters, members), _subset(strata, members), spec, seed)
        groups.append(
            GroupValue(
                group=group,
                value=float(np.mean(part)) if part else None,
                n=len(part),
                ci_low=ci.low,
                ci_high=ci.high,
                outcome_rates=outcome_rates(members_outcomes.get(group, [])),
                ci_method=_group_method(ci, len(part), overall),
            )
        )
    gap, ratio = gap_ratio(groups)
    floor, reason = None, None
    if spec.noise_floor and gap is not None:
        floor, reason = _floor(cols.values, labels, cols, spec, seed)
    return Breakdown(
        by=by, groups=groups, gap=gap, ratio=ratio, noise_floor=floor, noise_floor_reason=reason
    )


def permutation_design_of(labels: Sequence[str], cols: _Columns, spec: MetricSpec) -> Design:
    """The permutation design `spec` implies for a breakdown with these `labels`."""
    return permutation_design(
        labels,
        within=spec.permute_within,
        blocks=cols.of(spec.permute_within),
        cluster=spec.cluster_by,
        clusters=cols.of(spec.cluster_by),
    )


def _floor(
    values: Sequence[float],
    labels: Sequence[str],
    cols: _Columns,
    spec: MetricSpec,
    seed: int,
    statistic: GapStatistic = max_minus_min,
) -> tuple[NoiseFloor | None, str | None]:
    """The permutation floor of a gap over `labels` (a floor, or None and why)."""
    design = permutation_design_of(labels, cols, spec)
    if design.reason is not None:
        return None, design.reason
    null = permutation_null(
        values,
        labels,
        seed=seed,
        strata=design.strata,
        units=design.units,
        n_permutations=spec.n_permutations,
        statistic=statistic,
    )
    return noise_floor(null, design.within, design.unit), None


def _contrast(contrast: Contrast, cols: _Columns, spec: MetricSpec, seed: int) -> ContrastValue:
    def floor_of(
        values: list[float], sides: list[str], kept: list[int]
    ) -> tuple[NoiseFloor | None, str | None]:
        part = _Columns(labels={k: [v[i] for i in kept] for k, v in cols.labels.items()})
        return _floor(values, sides, part, spec, seed)

    return contrast_value(
        contrast,
        cols.values,
        cols.labels[contrast.by],
        clusters=cols.of(spec.cluster_by),
        strata=cols.of(spec.stratify_by),
        floor_of=floor_of if spec.noise_floor else None,
        seed=seed,
        n_resamples=spec.n_resamples,
        level=spec.level,
    )


def noise_floor(
    null: PermutationNull | None, within: str | None, unit: str | None = None
) -> NoiseFloor | None:
    """The schema's record of a permutation null (None stays None)."""
    if null is None:
        return None
    return NoiseFloor(
        n_permutations=null.n_permutations,
        permuted_within=within,
        permuted_unit=unit,
        observed=null.observed,
        null_mean=null.null_mean,
        null_p95=null.null_p95,
        p_value=null.p_value,
    )


def frame(
    records: Iterable[SampleRecord], spec: MetricSpec | StatisticSpec, seed: int
) -> MetricValue:
    """Compute a declared metric over scored sample records: the one MetricValue builder.

    A `StatisticSpec` (a statistic of a set of records, not a mean) is computed by
    `metrics.statistic` with the same bootstrap; the rest of this text is about a
    `MetricSpec`.

    The value is the mean of the per-sample score over samples that have one; the CI follows
    `intervals.mean_interval` (Wilson, or a bootstrap resampling what the spec says:
    clusters within strata); each breakdown gives the per-group means with CIs, max - min
    gap and min / max ratio, and, when asked, the permutation noise floor of that gap
    (`floors`); each declared contrast gives mean(a) - mean(b) with CI and floor.

    `records` is read once, in order (it may be a lazy sequence: runner/compact.py); what
    the metric needs is taken from each record as columns (scores, labels, outcomes).
    """
    if isinstance(spec, StatisticSpec):
        return statistic_frame(records, spec, seed)
    cols = _columns(records, spec)
    values = cols.values
    clusters, strata = cols.of(spec.cluster_by), cols.of(spec.stratify_by)
    ci = _mean_ci(values, clusters, strata, spec, seed)
    breakdowns = [_breakdown(by, cols, spec, seed, ci) for by in spec.group_by]
    contrasts = [_contrast(contrast, cols, spec, seed) for contrast in spec.contrasts]
    return MetricValue(
        name=spec.name,
        value=float(np.mean(values)) if values else None,
        n=len(values),
        ci_low=ci.low,
        ci_high=ci.high,
        ci=ci_info(spec, ci if values else None),
        description=spec.description,
        higher_is_better=spec.higher_is_better,
        score_key=spec.score,
        statistic=spec.statistic,
        reference=spec.reference,
        where=dict(spec.where),
        include_excluded=spec.include_excluded,
        breakdowns=breakdowns,
        contrasts=contrasts,
        outcome_rates=outcome_rates(cols.outcomes),
        n_excluded=cols.n_chosen - len(values),
        undefined_reason=None if values else "no sample has this score",
    )


__all__ = ["MetricSpec", "StatisticSpec", "ci_info", "frame", "noise_floor", "sample_key"]
