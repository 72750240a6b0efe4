"""Hypothesis tests of the statistics stack (the bias profile's cells use them), and
Benjamini-Hochberg control of the FDR. The interval of a contrast cell is
`biasaudit.metrics.bootstrap.bootstrap_difference_ci` (whole clusters, within each side).

- `sign_flip_test`: H0 "each cluster's summed deviation from the unbiased value is
  symmetric about 0". Statistic |sum of deviations|; each cluster's sign is flipped at
  random (exactly all 2^k sign vectors for k <= 22 non-zero clusters, else Monte Carlo with the
  (1 + b) / (1 + B) p-value of Phipson & Smyth 2010). Without clusters and with deviations
  of +-d it is the two-sided exact binomial test at p = 0.5.
- `contrast_test`: H0 "the group label does not matter". Statistic |mean(group) -
  mean(others)|; cluster labels are permuted within strata (Monte Carlo).
- `benjamini_hochberg`: step-up adjusted p-values (q-values); reject where q <= alpha
  (Benjamini & Hochberg 1995).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

EXACT_MAX_CLUSTERS = 22
N_RANDOM = 10_000
_TOL = 1e-9


def cluster_sums(values: Sequence[float], clusters: Sequence[str]) -> npt.NDArray[np.float64]:
    sums: dict[str, float] = {}
    for value, cluster in zip(values, clusters, strict=True):
        sums[cluster] = sums.get(cluster, 0.0) + value
    return np.fromiter(sums.values(), dtype=np.float64, count=len(sums))


def _all_signs(k: int) -> npt.NDArray[np.float64]:
    """Every vector of k signs (+1 / -1), as a (2^k, k) matrix."""
    bits = (np.arange(2**k)[:, None] >> np.arange(k)[None, :]) & 1
    return np.asarray(1.0 - 2.0 * bits, dtype=np.float64)


def sign_flip_test(
    deviations: Sequence[float], clusters: Sequence[str], *, seed: int, n_random: int = N_RANDOM
) -> tuple[float, str]:
    """(two-sided p-value, description of the test)."""
    sums = cluster_sums(deviations, clusters)
    k_all = sums.size
    sums = sums[np.abs(sums) > _TOL]  # a zero sum is the same under both signs
    k = sums.size
    observed = abs(float(sums.sum()))
    if k <= EXACT_MAX_CLUSTERS:
        hits = 0
        low = min(k, 14)  # enumerate the last `low` signs in one block, the others in a loop
        block = _all_signs(low) @ sums[k - low :] if k else np.zeros(1)
        head = _all_signs(k - low) @ sums[: k - low] if k > low else np.zeros(1)
        for offset in head:
            hits += int(np.sum(np.abs(block + offset) >= observed - _TOL))
        p = hits / 2**k
        return p, f"exact sign-flip test over {k_all} clusters ({2**k} sign vectors)"
    rng = np.random.default_rng(seed)
    hits = 0
    for start in range(0, n_random, 1000):
        rows = min(1000, n_random - start)
        signs = rng.choice((1.0, -1.0), size=(rows, k))
        hits += int(np.sum(np.abs(signs @ sums) >= observed - _TOL))
    p = (1 + hits) / (1 + n_random)
    return p, f"sign-flip test over {k_all} clusters ({n_random} random sign vectors)"


def contrast_test(
    values: Sequence[float],
    in_group: Sequence[bool],
    clusters: Sequence[str],
    strata: Sequence[str],
    *,
    seed: int,
    n_random: int = N_RANDOM,
) -> tuple[float, str]:
    """(two-sided permutation p-value of mean(group) - mean(others), description)."""
    data = np.asarray(values, dtype=np.float64)
    # one unit per cluster: its stratum, its label, its samples' sum and count
    units: dict[str, tuple[str, bool, float, int]] = {}
    for value, member, cluster, stratum in zip(data, in_group, clusters, strata, strict=True):
        key = f"{stratum}\x00{cluster}"
        _, _, total, count = units.get(key, (stratum, member, 0.0, 0))
        units[key] = (stratum, member, total + float(value), count + 1)
    strat = np.array([u[0] for u in units.values()])
    label = np.array([u[1] for u in units.values()])
    sums = np.array([u[2] for u in units.values()])
    counts = np.array([u[3] for u in units.values()], dtype=np.float64)

    def stat(labels: npt.NDArray[np.bool_]) -> npt.NDArray[np.float64]:
        g_sum, g_n = labels @ sums, labels @ counts
        o_sum, o_n = (~labels) @ sums, (~labels) @ counts
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.asarray(g_sum / g_n - o_sum / o_n, dtype=np.float64)

    observed = abs(float(stat(label[None, :])[0]))
    rng = np.random.default_rng(seed)
    perms = np.broadcast_to(label, (n_random, label.size)).copy()
    for level in np.unique(strat):
        idx = np.flatnonzero(strat == level)
        perms[:, idx] = rng.permuted(perms[:, idx], axis=1)
    null = np.abs(stat(perms))
    hits = int(np.sum(np.nan_to_num(null, nan=0.0) >= observed - _TOL))
    p = (1 + hits) / (1 + n_random)
    within = " within strata" if len(set(strata)) > 1 else ""
    return p, f"permutation test of {label.size} clusters' group labels{within} ({n_random} draws)"


def benjamini_hochberg(p_values: Sequence[float]) -> list[float]:
    """BH-adjusted p-values (q-values), in the input order."""
    p = np.asarray(p_values, dtype=np.float64)
    m = p.size
    if m == 0:
        return []
    order = np.argsort(p)
    ranked = p[order] * m / np.arange(1, m + 1)
    adjusted = np.minimum.accumulate(ranked[::-1])[::-1]
    out = np.empty(m)
    out[order] = np.minimum(adjusted, 1.0)
    return [float(v) for v in out]
