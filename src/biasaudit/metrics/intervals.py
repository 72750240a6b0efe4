"""Which confidence interval a metric reports, and when it reports none.

The rule (one for every metric; `CIInfo.method` records what was used):

- **Proportions** (every per-sample score is 0 or 1, or 0 or 100 for percentages) of
  independent samples (no `cluster_by`, no `stratify_by`) get the **Wilson score interval**
  at every n (Wilson 1927; Brown, Cai & DasGupta 2001 recommend it over the Wald-like
  percentile bootstrap, whose coverage collapses at small n and which is zero-width when all
  n answers agree: 4/4 gave [100, 100]). `method="wilson"`. The test is on the values, so a
  score in [0, 1] that happens to be all 0/1 also gets Wilson: among variables on [0, 1]
  with a given mean the Bernoulli has the largest variance, so that is not anti-conservative.
- Everything else gets the percentile bootstrap (`bootstrap.py`) with the metric's clusters
  and strata. `method="bootstrap"`.
- A bootstrap interval of zero width says only that no resample differed. For a proportion
  the interval falls back to Wilson with n = the number of resampling units (clusters), the
  smallest effective sample size a design effect allows, so it is conservative
  (`method="wilson-clusters"`); for any other statistic there is no interval.
- An interval that does not contain its point estimate is not reported: a percentile
  bootstrap of a non-linear statistic (StereoSet's mean of per-term iCATs, whose
  min(ss, 100 - ss) is concave in noisy per-term proportions) can sit wholly below the
  estimate, i.e. the bootstrap shows the statistic's bias, not its sampling spread; bias
  correction (BC/BCa) cannot move the interval over the estimate in that case either.

When there is no interval, `ci_low`/`ci_high` are None and the reason is recorded
(`CIInfo.unavailable_reason`, or `GroupValue.ci_method` = "none: <reason>" for a group).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from statistics import NormalDist

import numpy as np

from biasaudit.metrics.bootstrap import bootstrap_ci

#: Scales a proportion's per-sample scores may use (1: shares, 100: percentages).
SCALES = (1.0, 100.0)
TOO_FEW = "fewer than two resampling units"
NO_SPREAD = "every bootstrap resample gave the same value (no variation to resample)"
EXCLUDES = "the bootstrap distribution excludes the estimate (a biased, non-linear statistic)"


@dataclass(frozen=True)
class Interval:
    low: float | None
    high: float | None
    method: str
    #: Why there is no interval (low and high are then None).
    reason: str | None = None


def proportion_scale(values: Sequence[float], declared: float | None = None) -> float | None:
    """The scale c when every value is 0 or c (c in SCALES, or the `declared` one), else None.

    Values that are all 0 fit every scale; they read as 0/1 unless the metric declares its
    scale (a percentage whose samples all score 0 must get an upper bound in percent).
    """
    present = set(values)
    for scale in (declared,) if declared is not None else SCALES:
        if present <= {0.0, scale}:
            return scale
    return None


def wilson(successes: float, n: float, level: float = 0.95) -> tuple[float, float]:
    """Wilson score interval of a binomial proportion (Wilson 1927, eq. in Brown et al. 2001
    §2.2): (p + z²/2n ± z·sqrt(p(1-p)/n + z²/4n²)) / (1 + z²/n)."""
    if n <= 0:
        raise ValueError("the Wilson interval needs n >= 1")
    z = NormalDist().inv_cdf(0.5 + level / 2.0)
    p = successes / n
    centre = p + z * z / (2 * n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    denominator = 1 + z * z / n
    return max(0.0, (centre - half) / denominator), min(1.0, (centre + half) / denominator)


def checked(estimate: float | None, low: float | None, high: float | None) -> Interval:
    """A bootstrap interval, or none when it is zero-width or excludes its estimate."""
    if low is None or high is None or estimate is None:
        return Interval(None, None, "bootstrap", None if estimate is None else TOO_FEW)
    if high - low <= 1e-12 * max(1.0, abs(estimate)):
        return Interval(None, None, "bootstrap", NO_SPREAD)
    tolerance = 1e-9 * max(1.0, abs(estimate))
    if not low - tolerance <= estimate <= high + tolerance:
        return Interval(None, None, "bootstrap", EXCLUDES)
    return Interval(low, high, "bootstrap")


def _n_units(clusters: Sequence[str] | None, strata: Sequence[str] | None, n: int) -> int:
    if clusters is None:
        return n
    if strata is None:
        return len(set(clusters))
    return len(set(zip(strata, clusters, strict=True)))


def mean_interval(
    values: Sequence[float],
    *,
    clusters: Sequence[str] | None,
    strata: Sequence[str] | None,
    seed: int,
    n_resamples: int,
    level: float,
    scale: float | None = None,
) -> Interval:
    """The interval of a mean under the module's rule; `scale`: the declared proportion scale
    (`MetricSpec.scale`), else inferred from the values."""
    if not values:
        return Interval(None, None, "none", "no sample")
    estimate = float(np.mean(values))
    scale = proportion_scale(values, scale)
    if scale is not None and clusters is None and strata is None:
        low, high = wilson(estimate / scale * len(values), len(values), level)
        return Interval(low * scale, high * scale, "wilson")
    b_low, b_high = bootstrap_ci(
        np.asarray(values, dtype=np.float64),
        seed=seed,
        n_resamples=n_resamples,
        level=level,
        clusters=clusters,
        strata=strata,
    )
    interval = checked(estimate, b_low, b_high)
    if interval.reason in (NO_SPREAD, TOO_FEW) and scale is not None:
        units = _n_units(clusters, strata, len(values))
        low, high = wilson(estimate / scale * units, units, level)
        return Interval(low * scale, high * scale, "wilson-clusters")
    return interval
