"""Pooled axes: one row per axis combining the benchmarks that measure it.

Each benchmark's axis cell is taken to the common scale "points of preference for the
stereotyped option" (-50..50; 0 unbiased) by the factor its profile declares
(`Effect.common`, with `common_note` saying why: CrowS-Pairs, StereoSet and WinoBias are
already there as score - 50; BBQ's and BBNLI's -1..1 scores are multiplied by 50). Contrast
designs (a gap between groups, not a preference) are not pooled.

The pooled estimate is the DerSimonian-Laird random-effects mean (DerSimonian & Laird 1986):
with y_i the cells' effects, v_i their variances (SE read off each cell's 95 % bootstrap CI,
`metrics.power.cell_se`, or its own test's when larger), w_i = 1/v_i,

    Q = sum w_i (y_i - y_FE)^2,   tau^2 = max(0, (Q - (k-1)) / (sum w - sum w^2 / sum w)),
    mu = sum w*_i y_i / sum w*_i  with w*_i = 1 / (v_i + tau^2),   SE(mu) = 1 / sqrt(sum w*),

I^2 = max(0, (Q - (k-1)) / Q) (Higgins & Thompson 2002); a two-sided z test of mu = 0 and
mu +- 1.96 SE. The pooled p-values join the Benjamini-Hochberg family of the whole profile.
Benchmarks measure an axis on different items and constructs: tau^2 and I^2 say how much
they disagree, and a pooled row is read with them.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from statistics import NormalDist

from biasaudit.metrics.power import cell_se
from biasaudit.profile.model import OVERALL, POOLED, ProfileCell

COMMON_SCALE = "points of preference for the stereotyped option (-50..50, 0 = unbiased)"


@dataclass(frozen=True)
class Pooled:
    mean: float
    se: float
    tau2: float
    i2: float
    q: float
    k: int


def random_effects(effects: Sequence[float], variances: Sequence[float]) -> Pooled:
    """DerSimonian-Laird random-effects pooling (see the module docstring)."""
    if not effects or len(effects) != len(variances) or any(v <= 0 for v in variances):
        raise ValueError("random_effects needs one positive variance per effect")
    w = [1.0 / v for v in variances]
    total = sum(w)
    fixed = sum(wi * y for wi, y in zip(w, effects, strict=True)) / total
    q = sum(wi * (y - fixed) ** 2 for wi, y in zip(w, effects, strict=True))
    k = len(effects)
    c = total - sum(wi * wi for wi in w) / total
    tau2 = max(0.0, (q - (k - 1)) / c) if k > 1 and c > 0 else 0.0
    star = [1.0 / (v + tau2) for v in variances]
    mean = sum(s * y for s, y in zip(star, effects, strict=True)) / sum(star)
    i2 = max(0.0, (q - (k - 1)) / q) if q > 0 else 0.0
    return Pooled(mean, math.sqrt(1.0 / sum(star)), tau2, 100.0 * i2, q, k)


def common_se(cell: ProfileCell, factor: float) -> float:
    """A cell's standard error on the common scale: its interval's or its test's (`cell_se`).

    A zero-width interval (every unit deviating the same way: a planted or saturated bias)
    has no usable variance; it gets the Agresti-Coull standard error of an all-or-nothing
    proportion over its k clusters, 100 sqrt(p (1 - p) / (k + 4)) with p = 2 / (k + 4)
    (Agresti & Coull 1998), the smallest the data can support."""
    se = cell_se(cell.ci_low or 0.0, cell.ci_high or 0.0, cell.effect, cell.p_value) * abs(factor)
    k = max(cell.n_clusters, cell.n, 1)
    p = 2.0 / (k + 4)
    return max(se, 100.0 * math.sqrt(p * (1.0 - p) / (k + 4)))


def pooled_cells(cells: Sequence[ProfileCell], factors: Mapping[str, float]) -> list[ProfileCell]:
    """One pooled cell per axis holding at least one poolable measured cell."""
    by_axis: dict[str, list[ProfileCell]] = {}
    for cell in cells:
        factor = factors.get(cell.benchmark)
        if (
            factor is None
            or cell.axis == OVERALL
            or cell.group
            or cell.design != "one_sample"
            or cell.p_value is None  # gated (verdicts are set after pooling)
            or cell.effect is None
            or cell.ci_low is None
            or cell.ci_high is None
            or cell.ci_high < cell.ci_low
        ):
            continue
        by_axis.setdefault(cell.axis, []).append(cell)
    out = []
    z = NormalDist()
    for axis, parts in by_axis.items():
        effects = [(c.effect or 0.0) * factors[c.benchmark] for c in parts]
        variances = [common_se(c, factors[c.benchmark]) ** 2 for c in parts]
        pooled = random_effects(effects, variances)
        p = 2.0 * (1.0 - z.cdf(abs(pooled.mean) / pooled.se))
        out.append(
            ProfileCell(
                axis=axis,
                benchmark=POOLED,
                metric="pooled preference",
                groups=sorted(c.benchmark for c in parts),
                design="random-effects meta-analysis",
                unbiased=0.0,
                value=pooled.mean,
                effect=pooled.mean,
                ci_low=pooled.mean - 1.959964 * pooled.se,
                ci_high=pooled.mean + 1.959964 * pooled.se,
                ci_method="DerSimonian-Laird random effects, normal interval; cell SEs from "
                "their bootstrap intervals",
                p_value=p,
                test=f"z test of the random-effects mean over {pooled.k} benchmark(s)",
                n=sum(c.n for c in parts),
                n_clusters=sum(c.n_clusters for c in parts),
                k=pooled.k,
                tau2=pooled.tau2,
                i2=pooled.i2,
                margin=5.0,
            )
        )
    return out
