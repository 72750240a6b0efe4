"""Helpers of the profile/build.py mutation tests: a toy effect's records, and the oracles
(the documented cell seed, the exact sign-flip p-value by enumeration, a naive contrast
bootstrap loop written from the documented draw order)."""

from __future__ import annotations

import hashlib
import itertools
from collections.abc import Sequence

import numpy as np

from biasaudit.profile_spec import Effect
from biasaudit.results.schema import SampleRecord

BENCH = "toy"
AXES = {"muslim": "religion", "woman": "gender", "man": "gender"}


def score(record: SampleRecord) -> float | None:
    value = record.scores.get("s")
    return None if value is None else float(value)


def rec(
    sid: str,
    level: str | None,
    s: float | None,
    *,
    groups: dict[str, str] | None = None,
    data: dict[str, str] | None = None,
    outcomes: Sequence[str] = ("answered",),
    excluded: bool = False,
) -> SampleRecord:
    g = dict(groups or {})
    if level is not None:
        g["g"] = level
    return SampleRecord(
        benchmark=BENCH,
        sample_id=sid,
        sample_hash="h",
        groups=g,
        data=dict(data or {}),
        outcomes=list(outcomes),
        scores={} if s is None else {"s": s},
        excluded=excluded,
    )


def cell_seed(base: int, *parts: str) -> int:
    """The documented cell seed: the run seed plus the first 4 bytes (big-endian) of the
    sha256 of the NUL-joined benchmark, axis (and group)."""
    digest = hashlib.sha256("\x00".join(parts).encode()).digest()
    return base + int.from_bytes(digest[:4], "big")


def exact_sign_flip(deviations: Sequence[float], clusters: Sequence[str]) -> float:
    sums: dict[str, float] = {}
    for d, c in zip(deviations, clusters, strict=True):
        sums[c] = sums.get(c, 0.0) + d
    nonzero = [s for s in sums.values() if abs(s) > 1e-9]
    observed = abs(sum(nonzero))
    signs = list(itertools.product((1, -1), repeat=len(nonzero)))
    hits = sum(
        abs(sum(a * b for a, b in zip(v, nonzero, strict=True))) >= observed - 1e-9 for v in signs
    )
    return hits / len(signs)


def naive_contrast_ci(
    values: Sequence[float], member: Sequence[bool], clusters: Sequence[str], seed: int
) -> tuple[float, float]:
    """Whole clusters resampled with replacement within the group, then within the others
    (2000 resamples, one generator, clusters in order of first appearance); the 2.5 / 97.5
    percentiles of the difference of the resampled means."""
    sides: dict[bool, dict[str, list[float]]] = {True: {}, False: {}}
    for v, m, c in zip(values, member, clusters, strict=True):
        unit = sides[m].setdefault(c, [0.0, 0.0])
        unit[0] += v
        unit[1] += 1
    rng = np.random.default_rng(seed)
    means: list[list[float]] = []
    for side in (True, False):
        units = list(sides[side].values())
        picks = rng.integers(0, len(units), size=(2000, len(units)))
        means.append(
            [sum(units[k][0] for k in row) / sum(units[k][1] for k in row) for row in picks]
        )
    diffs = [a - b for a, b in zip(means[0], means[1], strict=True)]
    low, high = np.quantile(diffs, [0.025, 0.975])
    return float(low), float(high)


def plain_effect() -> Effect:
    return Effect(
        metric="m", scale="s", unbiased=0.5, direction="d", group_key="g", axes=AXES, value=score
    )
