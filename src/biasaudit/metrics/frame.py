"""Declared metrics computed one way: overall, every breakdown, gaps, CIs and noise floors.

A benchmark declares `MetricSpec`s (which per-sample score, which statistic, which groupings,
which clusters and strata the bootstrap respects); `frame` computes each one into a
`MetricValue` that records that definition, the fairlearn `MetricFrame` design with
inspect_ai's recorded metric definitions. Statistics that are not per-sample means are
computed by the benchmark (`Benchmark.extra_metrics`) through `metric_from_statistic`,
which uses the same bootstrap.

Undefined values: the formula functions raise or return None; aggregation reports None with
`undefined_reason` and never an ideal value for empty input.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Literal

import numpy as np
from pydantic import BaseModel, ConfigDict, Field

from biasaudit.metrics.bootstrap import bootstrap_ci, bootstrap_index_ci
from biasaudit.metrics.grouped import outcome_rates
from biasaudit.metrics.permutation import PermutationNull, permutation_null
from biasaudit.results.schema import (
    Breakdown,
    CIInfo,
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


def sample_key(record: SampleRecord, key: str) -> str:
    """A grouping / cluster / stratum label: from the sample's groups, else its data.

    ``"a+b"`` is the combination of two keys, labelled ``"<a>/<b>"``.
    """
    if "+" in key:
        return "/".join(sample_key(record, part) for part in key.split("+"))
    if key in record.groups:
        return record.groups[key]
    if key in record.data:
        return str(record.data[key])
    raise KeyError(f"sample {record.sample_id} has no group or data field '{key}'")


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


def ci_info(spec: MetricSpec) -> CIInfo:
    return CIInfo(
        method="bootstrap",
        n_resamples=spec.n_resamples,
        level=spec.level,
        cluster_by=spec.cluster_by,
        stratify_by=spec.stratify_by,
    )


def _labels(records: Sequence[SampleRecord], key: str | None) -> list[str] | None:
    return None if key is None else [sample_key(r, key) for r in records]


def _mean_ci(
    records: Sequence[SampleRecord], values: Sequence[float], spec: MetricSpec, seed: int
) -> tuple[float | None, float | None]:
    return bootstrap_ci(
        np.asarray(values, dtype=np.float64),
        seed=seed,
        n_resamples=spec.n_resamples,
        level=spec.level,
        clusters=_labels(records, spec.cluster_by),
        strata=_labels(records, spec.stratify_by),
    )


def _gap_ratio(groups: Sequence[GroupValue]) -> tuple[float | None, float | None]:
    present = [g.value for g in groups if g.value is not None]
    if len(present) < 2:
        return None, None
    gap = max(present) - min(present)
    ratio = min(present) / max(present) if max(present) > 0 else None
    return gap, ratio


def _breakdown(
    by: str,
    scored: Sequence[tuple[SampleRecord, float]],
    members_outcomes: dict[str, list[str]],
    spec: MetricSpec,
    seed: int,
) -> Breakdown:
    labels = [sample_key(r, by) for r, _ in scored]
    groups: list[GroupValue] = []
    for group in sorted(set(labels) | members_outcomes.keys()):
        part = [(r, v) for (r, v), label in zip(scored, labels, strict=True) if label == group]
        low, high = _mean_ci([r for r, _ in part], [v for _, v in part], spec, seed)
        groups.append(
            GroupValue(
                group=group,
                value=float(np.mean([v for _, v in part])) if part else None,
                n=len(part),
                ci_low=low,
                ci_high=high,
                outcome_rates=outcome_rates(members_outcomes.get(group, [])),
            )
        )
    gap, ratio = _gap_ratio(groups)
    floor = None
    # Shuffling labels within the very grouping they label changes nothing: no floor there.
    if spec.noise_floor and gap is not None and by != spec.permute_within:
        null = permutation_null(
            [v for _, v in scored],
            labels,
            seed=seed,
            strata=_labels([r for r, _ in scored], spec.permute_within),
            n_permutations=spec.n_permutations,
        )
        floor = noise_floor(null, spec.permute_within)
    return Breakdown(by=by, groups=groups, gap=gap, ratio=ratio, noise_floor=floor)


def noise_floor(null: PermutationNull | None, within: str | None) -> NoiseFloor | None:
    """The schema's record of a permutation null (None stays None)."""
    if null is None:
        return None
    return NoiseFloor(
        n_permutations=null.n_permutations,
        permuted_within=within,
        observed=null.observed,
        null_mean=null.null_mean,
        null_p95=null.null_p95,
        p_value=null.p_value,
    )


def frame(records: Sequence[SampleRecord], spec: MetricSpec, seed: int) -> MetricValue:
    """Compute a declared metric over scored sample records.

    The value is the mean of the per-sample score over samples that have one; the CI is a
    percentile bootstrap resampling what the spec says (clusters within strata); each
    breakdown gives the per-group means with CIs, max - min gap and min / max ratio, and,
    when asked, the permutation noise floor of that gap.
    """
    chosen = [r for r in records if all(r.groups.get(k) == v for k, v in spec.where.items())]
    values = [_score(r, spec) for r in chosen]
    scored = [(r, v) for r, v in zip(chosen, values, strict=True) if v is not None]
    outcomes = [o for r, v in zip(chosen, values, strict=True) for o in _outcomes(r, spec, v)]
    low, high = _mean_ci([r for r, _ in scored], [v for _, v in scored], spec, seed)
    breakdowns = []
    for by in spec.group_by:
        by_group: dict[str, list[str]] = {}
        for r, v in zip(chosen, values, strict=True):
            by_group.setdefault(sample_key(r, by), []).extend(_outcomes(r, spec, v))
        breakdowns.append(_breakdown(by, scored, by_group, spec, seed))
    return MetricValue(
        name=spec.name,
        value=float(np.mean([v for _, v in scored])) if scored else None,
        n=len(scored),
        ci_low=low,
        ci_high=high,
        ci=ci_info(spec),
        description=spec.description,
        higher_is_better=spec.higher_is_better,
        score_key=spec.score,
        statistic=spec.statistic,
        reference=spec.reference,
        where=dict(spec.where),
        include_excluded=spec.include_excluded,
        breakdowns=breakdowns,
        outcome_rates=outcome_rates(outcomes),
        n_excluded=len(chosen) - len(scored),
        undefined_reason=None if scored else "no sample has this score",
    )


def metric_from_statistic(
    name: str,
    records: Sequence[SampleRecord],
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
    """
    everything = list(range(len(records)))
    clusters = _labels(records, cluster_by)
    strata = _labels(records, stratify_by)
    low, high = bootstrap_index_ci(
        len(records),
        statistic,
        seed=seed,
        n_resamples=n_resamples,
        level=level,
        clusters=clusters,
        strata=strata,
    )
    breakdowns = []
    for by in group_by:
        labels = [sample_key(r, by) for r in records]
        groups = []
        for group in sorted(set(labels)):
            members = [i for i in everything if labels[i] == group]
            g_low: float | None = None
            g_high: float | None = None
            if group_ci:
                g_low, g_high = bootstrap_index_ci(
                    len(members),
                    lambda idx, m=members: statistic([m[i] for i in idx]),  # type: ignore[misc]
                    seed=seed,
                    n_resamples=n_resamples,
                    level=level,
                    clusters=[clusters[i] for i in members] if clusters else None,
                    strata=[strata[i] for i in members] if strata else None,
                )
            groups.append(
                GroupValue(
                    group=group,
                    value=statistic(members),
                    n=len(members),
                    ci_low=g_low,
                    ci_high=g_high,
                    outcome_rates=outcome_rates([o for i in members for o in records[i].outcomes]),
                )
            )
        gap, ratio = _gap_ratio(groups)
        breakdowns.append(Breakdown(by=by, groups=groups, gap=gap, ratio=ratio))
    value = statistic(everything) if records else None
    return MetricValue(
        name=name,
        value=value,
        n=len(records),
        ci_low=low,
        ci_high=high,
        ci=CIInfo(
            method="bootstrap",
            n_resamples=n_resamples,
            level=level,
            cluster_by=cluster_by,
            stratify_by=stratify_by,
        ),
        description=description,
        higher_is_better=higher_is_better,
        score_key=None,
        statistic=statistic_name,
        reference=reference,
        breakdowns=breakdowns,
        outcome_rates=outcome_rates([o for r in records for o in r.outcomes]),
        n_excluded=n_excluded,
        undefined_reason=None if value is not None else "the statistic is undefined here",
    )
