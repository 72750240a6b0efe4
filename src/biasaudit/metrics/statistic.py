"""Metrics whose statistic is not a per-sample mean (a function of a set of records).

A benchmark declares one as a `StatisticSpec` and builds it with `frame(records, spec, seed)`,
the one MetricValue builder (metrics/frame.py dispatches here); the CI is the percentile
bootstrap of `frame`, over record indices, checked by `intervals.checked` (no interval when
zero-width or when it excludes its estimate, with the reason in `CIInfo.unavailable_reason`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from biasaudit.metrics.bootstrap import bootstrap_index_ci
from biasaudit.metrics.grouped import outcome_rates
from biasaudit.metrics.intervals import checked
from biasaudit.metrics.keys import gap_ratio, sample_key
from biasaudit.results.schema import Breakdown, CIInfo, GroupValue, MetricValue, SampleRecord


@dataclass(frozen=True)
class StatisticSpec:
    """The declaration of a metric whose statistic is a function of a set of record indices
    (not a mean): `frame(records, StatisticSpec(...), seed)` computes it (see
    `metric_from_statistic` for what each field does)."""

    name: str
    statistic: Callable[[Sequence[int]], float | None]
    statistic_name: str
    group_by: Sequence[str] = ()
    cluster_by: str | None = None
    stratify_by: str | None = None
    n_resamples: int = 1000
    level: float = 0.95
    description: str = ""
    higher_is_better: bool | None = None
    reference: str = ""
    n_excluded: int = 0
    group_ci: bool = False


def statistic_frame(records: Iterable[SampleRecord], spec: StatisticSpec, seed: int) -> MetricValue:
    """`frame` of a `StatisticSpec`."""
    return metric_from_statistic(
        spec.name,
        records,
        spec.statistic,
        seed=seed,
        statistic_name=spec.statistic_name,
        group_by=spec.group_by,
        cluster_by=spec.cluster_by,
        stratify_by=spec.stratify_by,
        n_resamples=spec.n_resamples,
        level=spec.level,
        description=spec.description,
        higher_is_better=spec.higher_is_better,
        reference=spec.reference,
        n_excluded=spec.n_excluded,
        group_ci=spec.group_ci,
    )


def metric_from_statistic(
    name: str,
    records: Iterable[SampleRecord],
    statistic: Callable[[Sequence[int]], float | None],
    *,
    seed: int,
    statistic_name: str,
    group_by: Sequence[str] = (),
    cluster_by: str | None = None,
    stratify_by: str | None = None,
    n_resamples: int = 1000,
    level: float = 0.95,
    description: str = "",
    higher_is_better: bool | None = None,
    reference: str = "",
    n_excluded: int = 0,
    group_ci: bool = False,
) -> MetricValue:
    """A metric whose statistic is a function of a set of record indices (not a mean).

    The CI resamples indices through the same bootstrap as `frame` (clusters within strata).
    Breakdowns evaluate the statistic on each group's indices (with a CI if `group_ci`).
    Outcome rates are over every outcome of `records` (overall and per group), as `frame`'s.
    `records` is read once, in order (it may be a lazy sequence).
    """
    keys = list(dict.fromkeys([*group_by, *(k for k in (cluster_by, stratify_by) if k)]))
    labels_of: dict[str, list[str]] = {key: [] for key in keys}
    outcomes_of: list[list[str]] = []
    for record in records:
        outcomes_of.append(record.outcomes)
        for key in keys:
            labels_of[key].append(sample_key(record, key))
    n = len(outcomes_of)
    everything = list(range(n))
    clusters = labels_of[cluster_by] if cluster_by else None
    strata = labels_of[stratify_by] if stratify_by else None
    value = statistic(everything) if n else None
    ci = checked(
        value,
        *bootstrap_index_ci(
            n,
            statistic,
            seed=seed,
            n_resamples=n_resamples,
            level=level,
            clusters=clusters,
            strata=strata,
        ),
    )
    breakdowns = []
    for by in group_by:
        labels = labels_of[by]
        groups = []
        for group in sorted(set(labels)):
            members = [i for i in everything if labels[i] == group]
            g_value = statistic(members)
            g_ci = None
            if group_ci:
                g_ci = checked(
                    g_value,
                    *bootstrap_index_ci(
                        len(members),
                        lambda idx, m=members: statistic([m[i] for i in idx]),  # type: ignore[misc]
                        seed=seed,
                        n_resamples=n_resamples,
                        level=level,
                        clusters=[clusters[i] for i in members] if clusters else None,
                        strata=[strata[i] for i in members] if strata else None,
                    ),
                )
            groups.append(
                GroupValue(
                    group=group,
                    value=g_value,
                    n=len(members),
                    ci_low=g_ci.low if g_ci else None,
                    ci_high=g_ci.high if g_ci else None,
                    outcome_rates=outcome_rates([o for i in members for o in outcomes_of[i]]),
                    ci_method=f"none: {g_ci.reason}" if g_ci and g_ci.reason else None,
                )
            )
        gap, ratio = gap_ratio(groups)
        breakdowns.append(Breakdown(by=by, groups=groups, gap=gap, ratio=ratio))
    return MetricValue(
        name=name,
        value=value,
        n=n,
        ci_low=ci.low,
        ci_high=ci.high,
        ci=CIInfo(
            method="bootstrap",
            n_resamples=n_resamples,
            level=level,
            cluster_by=cluster_by,
            stratify_by=stratify_by,
            unavailable_reason=ci.reason,
        ),
        description=description,
        higher_is_better=higher_is_better,
        score_key=None,
        statistic=statistic_name,
        reference=reference,
        breakdowns=breakdowns,
        outcome_rates=outcome_rates([o for outcomes in outcomes_of for o in outcomes]),
        n_excluded=n_excluded,
        undefined_reason=None if value is not None else "the statistic is undefined here",
    )
