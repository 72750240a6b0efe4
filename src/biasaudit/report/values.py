"""Recover the per-sample values behind a stored metric, by recomputing it.

results.json stores each metric's value, n, CI and by-group values, but not which per-sample
score it averages. Paired comparisons and the sample browser need those per-sample values, so
`identify` searches samples.jsonl for a numeric score (over all samples, or over the samples of
one group) whose mean reproduces the stored value, n and every by-group value, and whose seeded
bootstrap reproduces the stored CI exactly (trying the candidate cluster labels when the CI was
a cluster bootstrap). Anything short of an exact reproduction returns None, and callers fall
back to methods that need only the stored numbers. Non-mean metrics (ranges, spreads) are never
identified.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np
import numpy.typing as npt

from biasaudit.metrics import bootstrap_ci
from biasaudit.results.schema import MetricValue, SampleRecord

_TOL = 1e-9


@dataclass(frozen=True)
class SampleValues:
    """The per-sample values a metric is the mean of (None = not counted)."""

    metric: str
    score_key: str
    #: (group key, group value) when the metric covers one group's samples only.
    subset: tuple[str, str] | None
    #: The field whose values the CI's cluster bootstrap resampled, e.g. "data.seed_id".
    cluster_field: str | None
    #: Keyed by sample_hash, in samples.jsonl order.
    values: dict[str, float | None]
    clusters: dict[str, str]
    groups: dict[str, str]


def numeric(value: object) -> float | None:
    if isinstance(value, bool):
        return float(value)
    if isinstance(value, int | float) and math.isfinite(value):
        return float(value)
    return None


def _close(a: float | None, b: float | None) -> bool:
    if a is None or b is None:
        return a is None and b is None
    return abs(a - b) <= _TOL * max(1.0, abs(a), abs(b))


def _near(a: float, b: float) -> bool:
    """Equal up to the rounding of a differently ordered sum (for screening only)."""
    return abs(a - b) <= 1e-7 * max(1.0, abs(a), abs(b))


def _mean_n(values: Sequence[float | None]) -> tuple[float | None, int]:
    kept = [v for v in values if v is not None]
    return (float(np.mean(kept)) if kept else None), len(kept)


def _field(record: SampleRecord, name: str) -> str | None:
    source, _, key = name.partition(".")
    if source == "sample_id":
        return record.sample_id
    container = record.data if source == "data" else record.groups
    value = container.get(key)
    return None if value is None or isinstance(value, dict | list) else str(value)


def _cluster_fields(records: Sequence[SampleRecord]) -> list[str]:
    fields = {f"groups.{k}" for r in records for k in r.groups}
    fields |= {
        f"data.{k}"
        for r in records
        for k, v in r.data.items()
        if isinstance(v, str | int) and not isinstance(v, bool)
    }
    return ["sample_id", *sorted(fields)]


def _matches(metric: MetricValue, members: Sequence[SampleRecord], key: str) -> list[float | None]:
    """The member values if their means reproduce the metric's value, n and by-group values."""
    values = [None if r.excluded else numeric(r.scores.get(key)) for r in members]
    mean, n = _mean_n(values)
    if n != metric.n or not _close(mean, metric.value):
        return []
    for group in metric.by_group:
        if metric.group_by is None:
            return []
        in_group = [
            v for v, r in zip(values, members, strict=True) if _group(r, metric) == group.group
        ]
        g_mean, g_n = _mean_n(in_group)
        if g_n != group.n or not _close(g_mean, group.value):
            return []
    return values


def _group(record: SampleRecord, metric: MetricValue) -> str | None:
    return record.groups.get(metric.group_by) if metric.group_by else None


def ci_resamples(metric: MetricValue) -> int:
    """The bootstrap resample count named in `ci_method` (1000 when not stated)."""
    found = re.search(r"bootstrap\((\d+)", metric.ci_method or "")
    return int(found.group(1)) if found else 1000


def _fast_cluster_ci(
    data: npt.NDArray[np.float64],
    partition: Sequence[int],
    *,
    seed: int,
    n_resamples: int,
    level: float,
) -> tuple[float, float] | None:
    """The percentile CI `bootstrap_ci` gives for the mean, from the same random draws.

    Vectorised over per-cluster sums, so screening many candidate clusterings is cheap; it
    equals `bootstrap_ci` up to float rounding, and a match is confirmed with the real one.
    """
    members = np.asarray(partition)
    k = int(members.max()) + 1
    if k < 2:
        return None
    sums = np.bincount(members, weights=data, minlength=k)
    counts = np.bincount(members, minlength=k).astype(np.float64)
    picks = np.random.default_rng(seed).integers(0, k, size=(n_resamples, k))
    stats = sums[picks].sum(1) / counts[picks].sum(1)
    alpha = (1.0 - level) / 2.0
    low, high = np.quantile(stats, [alpha, 1.0 - alpha])
    return float(low), float(high)


def _reproduces_ci(
    metric: MetricValue,
    members: Sequence[SampleRecord],
    values: Sequence[float | None],
    seed: int,
    cluster_fields: Sequence[str] | None,
) -> tuple[bool, str | None]:
    """(True, cluster field or None for a plain bootstrap) if the stored CI is reproduced."""
    clustered = "cluster" in (metric.ci_method or "")
    if metric.ci_low is None or metric.ci_high is None:
        # No CI to reproduce: fine for a plain bootstrap, but the clusters stay unknown.
        return not clustered, None
    kept = [i for i, v in enumerate(values) if v is not None]
    data = np.array([values[i] for i in kept], dtype=np.float64)
    if not clustered:
        candidates: list[str | None] = [None]
    else:
        candidates = [*(cluster_fields if cluster_fields is not None else _cluster_fields(members))]
    n_resamples, level = ci_resamples(metric), metric.ci_level
    found: dict[tuple[int, ...], str | None] = {}
    tried: set[tuple[int, ...]] = set()
    for field_name in candidates:
        labels = None
        if field_name is not None:
            raw = [_field(members[i], field_name) for i in kept]
            if any(label is None for label in raw):
                continue
            labels = [str(label) for label in raw]
        partition = _partition(labels, len(kept))
        if partition in tried:
            continue
        tried.add(partition)
        fast = _fast_cluster_ci(data, partition, seed=seed, n_resamples=n_resamples, level=level)
        if fast is None or not (_near(fast[0], metric.ci_low) and _near(fast[1], metric.ci_high)):
            continue
        low, high = bootstrap_ci(
            data, seed=seed, clusters=labels, n_resamples=n_resamples, level=level
        )
        if _close(low, metric.ci_low) and _close(high, metric.ci_high):
            found[partition] = field_name
    # Several different clusterings reproducing the CI (possible with few discrete values)
    # leave the clusters unknown.
    if len(found) != 1:
        return False, None
    return True, next(iter(found.values()))


def _partition(labels: Sequence[str] | None, n: int) -> tuple[int, ...]:
    """Labels renamed by first occurrence, so equal groupings compare equal."""
    names = labels if labels is not None else [str(i) for i in range(n)]
    first: dict[str, int] = {}
    return tuple(first.setdefault(name, len(first)) for name in names)


def recover(metric: MetricValue, records: Sequence[SampleRecord]) -> SampleValues | None:
    """The per-sample values whose means reproduce `metric`'s value, n and by-group values.

    Enough to rank samples; pairing also needs the CI reproduced (`identify`). The result
    has no cluster field.
    """
    if metric.value is None or not records:
        return None
    keys = sorted({k for r in records for k, v in r.scores.items() if numeric(v) is not None})
    subsets: list[tuple[str, str] | None] = [None]
    subsets += sorted({(k, v) for r in records for k, v in r.groups.items()})
    found: list[tuple[str, tuple[str, str] | None, list[SampleRecord], list[float | None]]] = []
    for subset in subsets:
        members = [r for r in records if subset is None or r.groups.get(subset[0]) == subset[1]]
        if len(members) < metric.n:
            continue
        for key in keys:
            values = _matches(metric, members, key)
            if values:
                found.append((key, subset, members, values))
    distinct = {
        tuple((r.sample_hash, v) for r, v in zip(m, vals, strict=True)) for _, _, m, vals in found
    }
    if len(distinct) != 1:
        return None  # nothing matched, or several different per-sample vectors did
    key, subset, members, values = found[0]
    return SampleValues(
        metric=metric.name,
        score_key=key,
        subset=subset,
        cluster_field=None,
        values={r.sample_hash: v for r, v in zip(members, values, strict=True)},
        clusters={r.sample_hash: r.sample_hash for r in members},
        groups={r.sample_hash: g for r in members if (g := _group(r, metric)) is not None},
    )


def identify(
    metric: MetricValue,
    records: Sequence[SampleRecord],
    seed: int,
    *,
    cluster_fields: Sequence[str] | None = None,
) -> SampleValues | None:
    """`recover`, then require the seeded bootstrap to reproduce the stored CI exactly.

    `cluster_fields` restricts the clusterings tried (e.g. to the one found for the same
    metric in another run on the same samples, when this run's CI cannot tell them apart).
    """
    found = recover(metric, records)
    if found is None:
        return None
    by_hash = {r.sample_hash: r for r in records}
    members = [by_hash[h] for h in found.values]
    values = list(found.values.values())
    reproduced, cluster_field = _reproduces_ci(metric, members, values, seed, cluster_fields)
    if not reproduced:
        return None
    if cluster_field is None:
        return found
    clusters = {r.sample_hash: _field(r, cluster_field) or r.sample_hash for r in members}
    return replace(found, cluster_field=cluster_field, clusters=clusters)
