"""Choosing subsets of templates, stratified by source dataset, deterministically."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")


def allocate(counts: dict[str, int], k: int, rng: random.Random | None = None) -> dict[str, int]:
    """Split `k` picks over strata proportionally to their sizes (largest remainder).

    Every stratum gets at least one pick when `k` allows it; no stratum gets more than it
    has. Ties of the remainder are broken by `rng` (else by stratum order).
    """
    total = sum(counts.values())
    k = min(k, total)
    if k <= 0 or total == 0:
        return {s: 0 for s in counts}
    base = {s: 1 if k >= len(counts) and n > 0 else 0 for s, n in counts.items()}
    remaining = k - sum(base.values())
    room = {s: counts[s] - base[s] for s in counts}
    room_total = sum(room.values())
    quotas = {s: remaining * room[s] / room_total if room_total else 0.0 for s in counts}
    shares = {s: base[s] + int(q) for s, q in quotas.items()}
    leftover = k - sum(shares.values())
    names = list(counts)
    tiebreak = {s: rng.random() if rng is not None else names.index(s) for s in names}
    order = sorted(names, key=lambda s: (-(quotas[s] - int(quotas[s])), tiebreak[s]))
    for s in order:
        if leftover == 0:
            break
        if shares[s] < counts[s]:
            shares[s] += 1
            leftover -= 1
    return shares


def stratified_sample(items: Sequence[T], strata: Sequence[str], k: int, seed: str) -> list[T]:
    """`k` of `items`, proportionally from each stratum, in their original order."""
    groups: dict[str, list[int]] = {}
    for index, stratum in enumerate(strata):
        groups.setdefault(stratum, []).append(index)
    rng = random.Random(seed)
    shares = allocate({s: len(v) for s, v in groups.items()}, k, rng)
    chosen: set[int] = set()
    for stratum, indices in groups.items():
        chosen.update(rng.sample(indices, shares[stratum]))
    return [items[i] for i in sorted(chosen)]
