"""A naive bootstrap loop, written from the documented draw order of
`biasaudit.metrics.bootstrap`, as the oracle of the interval tests."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np


def naive_index_ci(
    n: int,
    statistic: Callable[[list[int]], float | None],
    seed: int,
    n_resamples: int = 1000,
    level: float = 0.95,
    clusters: Sequence[str] | None = None,
    strata: Sequence[str] | None = None,
) -> tuple[float | None, float | None]:
    clusters = list(clusters) if clusters is not None else [str(i) for i in range(n)]
    strata = list(strata) if strata is not None else [""] * n
    order: dict[str, dict[str, list[int]]] = {}
    for i in range(n):
        order.setdefault(strata[i], {}).setdefault(clusters[i], []).append(i)
    blocks = [list(by_cluster.values()) for by_cluster in order.values()]
    if n < 2 or sum(len(b) for b in blocks) < 2:
        return None, None
    rng = np.random.default_rng(seed)
    draws = [rng.integers(0, len(b), size=(n_resamples, len(b))) for b in blocks]
    stats = []
    for r in range(n_resamples):
        picked = [i for b, d in zip(blocks, draws, strict=True) for k in d[r] for i in b[k]]
        value = statistic(picked)
        if value is None:
            return None, None
        stats.append(value)
    a = (1 - level) / 2
    low, high = np.quantile(stats, [a, 1 - a])
    return float(low), float(high)
