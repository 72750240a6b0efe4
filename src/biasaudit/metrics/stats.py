"""Seeded bootstrap confidence intervals, plain or clustered."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
import numpy.typing as npt

Statistic = Callable[[npt.NDArray[np.float64]], float]


def _mean(values: npt.NDArray[np.float64]) -> float:
    return float(np.mean(values))


def bootstrap_ci(
    values: Sequence[float] | npt.NDArray[np.float64],
    *,
    seed: int,
    statistic: Statistic = _mean,
    n_resamples: int = 1000,
    level: float = 0.95,
    clusters: Sequence[str] | None = None,
) -> tuple[float | None, float | None]:
    """Percentile bootstrap CI of `statistic` over `values`.

    With `clusters`, whole clusters are resampled (a cluster bootstrap): use it when samples
    are not independent, e.g. prompts instantiated from the same template or counterfactual
    pairs. Returns (None, None) for fewer than two values (or clusters).
    """
    data = np.asarray(values, dtype=np.float64)
    if data.size < 2:
        return None, None
    rng = np.random.default_rng(seed)
    alpha = (1.0 - level) / 2.0
    if clusters is None:
        indices = rng.integers(0, data.size, size=(n_resamples, data.size))
        stats = np.array([statistic(data[row]) for row in indices])
    else:
        if len(clusters) != data.size:
            raise ValueError("clusters must have one label per value")
        labels = np.asarray(clusters)
        members = [np.flatnonzero(labels == c) for c in dict.fromkeys(clusters)]
        if len(members) < 2:
            return None, None
        picks = rng.integers(0, len(members), size=(n_resamples, len(members)))
        stats = np.array(
            [statistic(data[np.concatenate([members[i] for i in row])]) for row in picks]
        )
    low, high = np.quantile(stats, [alpha, 1.0 - alpha])
    return float(low), float(high)
