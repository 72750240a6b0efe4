"""Seeded percentile bootstrap: plain, cluster, stratified and stratified-cluster.

One module serves every metric (the fairlearn `_bootstrap` design). A *cluster* bootstrap
resamples whole clusters (prompts from one template, progressions from one seed, a
counterfactual pair) because their members are not independent; a *stratified* bootstrap
resamples within each stratum, so a fixed design mix (STOP's 20/60/20 severities, CALM's
tasks) is held constant instead of adding its own noise to the interval (Efron & Tibshirani
1993, §6.8 and §8.3; Davison & Hinkley 1997, §3.8).

Draws are taken per stratum, in order of first appearance, one `(n_resamples, k)` block of
cluster indices each; without strata this is the draw the toolkit has always made, so
plain and cluster intervals are unchanged from schema v1.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import numpy as np
import numpy.typing as npt

Statistic = Callable[[npt.NDArray[np.float64]], float]
IndexStatistic = Callable[[Sequence[int]], float | None]


def _units(
    n: int, clusters: Sequence[str] | None, strata: Sequence[str] | None
) -> list[list[npt.NDArray[np.intp]]]:
    """Resampling units (arrays of sample indices), grouped by stratum."""
    if clusters is not None and len(clusters) != n:
        raise ValueError("clusters must have one label per value")
    if strata is not None and len(strata) != n:
        raise ValueError("strata must have one label per value")
    cluster_labels = list(clusters) if clusters is not None else [str(i) for i in range(n)]
    stratum_labels = list(strata) if strata is not None else [""] * n
    # A cluster that spans strata is split: its part in each stratum is one unit there.
    members: dict[tuple[str, str], list[int]] = {}
    for index, key in enumerate(zip(stratum_labels, cluster_labels, strict=True)):
        members.setdefault(key, []).append(index)
    by_stratum: dict[str, list[npt.NDArray[np.intp]]] = {}
    for (stratum, _), indices in members.items():
        by_stratum.setdefault(stratum, []).append(np.asarray(indices, dtype=np.intp))
    return list(by_stratum.values())


def _draws(
    units: list[list[npt.NDArray[np.intp]]], n_resamples: int, seed: int
) -> list[npt.NDArray[np.intp]]:
    rng = np.random.default_rng(seed)
    return [rng.integers(0, len(stratum), size=(n_resamples, len(stratum))) for stratum in units]


def _percentiles(stats: npt.NDArray[np.float64], level: float) -> tuple[float | None, float | None]:
    if stats.size == 0 or np.isnan(stats).any():
        return None, None
    alpha = (1.0 - level) / 2.0
    low, high = np.quantile(stats, [alpha, 1.0 - alpha])
    return float(low), float(high)


def bootstrap_ci(
    values: Sequence[float] | npt.NDArray[np.float64],
    *,
    seed: int,
    statistic: Statistic | None = None,
    n_resamples: int = 1000,
    level: float = 0.95,
    clusters: Sequence[str] | None = None,
    strata: Sequence[str] | None = None,
) -> tuple[float | None, float | None]:
    """Percentile bootstrap CI of `statistic` (default: the mean) over `values`.

    Returns (None, None) when there are fewer than two values or fewer than two resampling
    units (clusters) in total: one unit has no sampling variability to estimate.
    """
    data = np.asarray(values, dtype=np.float64)
    if data.size < 2:
        return None, None
    units = _units(data.size, clusters, strata)
    if sum(len(s) for s in units) < 2:
        return None, None
    draws = _draws(units, n_resamples, seed)
    if statistic is None:
        # The mean of concatenated clusters is (sum of cluster sums) / (sum of cluster sizes).
        total = np.zeros(n_resamples)
        count = np.zeros(n_resamples)
        for stratum, picks in zip(units, draws, strict=True):
            sums = np.array([data[m].sum() for m in stratum])
            sizes = np.array([m.size for m in stratum], dtype=np.float64)
            total += sums[picks].sum(axis=1)
            count += sizes[picks].sum(axis=1)
        return _percentiles(total / count, level)
    stats = np.array(
        [
            statistic(
                data[
                    np.concatenate(
                        [
                            stratum[i]
                            for stratum, picks in zip(units, draws, strict=True)
                            for i in picks[r]
                        ]
                    )
                ]
            )
            for r in range(n_resamples)
        ]
    )
    return _percentiles(stats, level)


def bootstrap_index_ci(
    n: int,
    statistic: IndexStatistic,
    *,
    seed: int,
    n_resamples: int = 1000,
    level: float = 0.95,
    clusters: Sequence[str] | None = None,
    strata: Sequence[str] | None = None,
) -> tuple[float | None, float | None]:
    """Bootstrap CI of a statistic of a *subset of sample indices* (gaps, ranges, spreads).

    For statistics that are not per-sample means (STOP's severity range, CALM's template
    score). An undefined statistic (None or NaN) in any resample gives (None, None).
    """

    def over_indices(idx: npt.NDArray[np.float64]) -> float:
        value = statistic([int(i) for i in idx])
        return math.nan if value is None else float(value)

    return bootstrap_ci(
        np.arange(n, dtype=np.float64),
        seed=seed,
        statistic=over_indices,
        n_resamples=n_resamples,
        level=level,
        clusters=clusters,
        strata=strata,
    )


def bootstrap_difference_ci(
    values: Sequence[float] | npt.NDArray[np.float64],
    in_a: Sequence[bool],
    *,
    seed: int,
    n_resamples: int = 1000,
    level: float = 0.95,
    clusters: Sequence[str] | None = None,
    strata: Sequence[str] | None = None,
) -> tuple[float | None, float | None]:
    """Percentile bootstrap CI of mean(a) - mean(b), b being the values not in a.

    Without clusters the two groups are resampled separately (within `strata`): the
    two-sample bootstrap, which keeps both group sizes (Efron & Tibshirani 1993, §8.3). With
    clusters whole clusters are resampled (a cluster may hold both groups, e.g. a pair), and
    a resample missing either group is dropped; more than 10 % such resamples, or fewer than
    two units, give (None, None).
    """
    data = np.asarray(values, dtype=np.float64)
    side = np.asarray(in_a, dtype=bool)
    if side.size != data.size:
        raise ValueError("in_a must have one flag per value")
    if clusters is None:
        stratum = list(strata) if strata is not None else [""] * data.size
        strata = [f"{s}\x1f{int(a)}" for s, a in zip(stratum, side, strict=True)]
    units = _units(data.size, clusters, strata)
    if sum(len(s) for s in units) < 2:
        return None, None
    totals = np.zeros((4, n_resamples))
    for stratum_units, picks in zip(units, _draws(units, n_resamples, seed), strict=True):
        per_unit = np.array(
            [
                [data[m][side[m]].sum(), side[m].sum(), data[m][~side[m]].sum(), (~side[m]).sum()]
                for m in stratum_units
            ],
            dtype=np.float64,
        )
        totals += per_unit[picks].sum(axis=1).T
    defined = (totals[1] > 0) & (totals[3] > 0)
    if defined.mean() < 0.9:
        return None, None
    diff = totals[0][defined] / totals[1][defined] - totals[2][defined] / totals[3][defined]
    return _percentiles(diff, level)
