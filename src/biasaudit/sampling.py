"""Stratified sampling of benchmark items: the one sampler behind suites and ``run --sample``.

`stratified_sample` is pure. Its input is a mapping *unit id -> stratum* (a unit is one
sample, or a cluster of samples kept together, e.g. a BBNLI counterfactual pair); its output
is the chosen unit ids, sorted. The rules:

- **every stratum is present**: each gets at least ``min(min_per_stratum, its size)`` units;
  when those minimums alone exceed `n`, the sample grows to hold them (the realised size is
  returned by `allocate` and recorded in the plan);
- **sizes are proportional** above the minimum: the strata not held at their minimum get
  ``q * size`` units for one common factor ``q`` (water-filling), rounded by largest
  remainder (ties: stratum order), so that the total is exactly the realised size;
- **deterministic under the seed and independent of file order**: within a stratum the
  units are ranked by ``sha256(seed, unit id)`` and the first ones are taken. A larger `n`
  with the same seed keeps every unit a smaller `n` chose in strata whose share grew (a
  ``quick`` suite's items are mostly inside ``standard``'s, so its cached answers are reused).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SerializerFunctionWrapHandler,
    model_serializer,
)

from biasaudit.errors import DeclarationError

#: A stratum label: the values of the stratification keys, in key order.
Stratum = tuple[str, ...]


def _floors(sizes: Mapping[Stratum, int], min_per_stratum: int) -> dict[Stratum, int]:
    return {s: min(min_per_stratum, size) for s, size in sizes.items()}


def allocate(sizes: Mapping[Stratum, int], n: int, min_per_stratum: int = 1) -> dict[Stratum, int]:
    """How many units each stratum gives to a sample of `n` (see the module docstring).

    The result sums to ``max(n, sum of the minimums)``, capped at the number of units.
    """
    if n < 1:
        raise ValueError(f"sample size must be at least 1, got {n}")
    if min_per_stratum < 0:
        raise ValueError(f"min_per_stratum must be 0 or more, got {min_per_stratum}")
    total = sum(sizes.values())
    if n >= total:
        return dict(sizes)
    floors = _floors(sizes, min_per_stratum)
    if sum(floors.values()) >= n:
        return floors
    # water-filling: strata whose proportional share falls below their minimum are held there
    held: set[Stratum] = set()
    while True:
        free = [s for s in sizes if s not in held]
        budget = n - sum(floors[s] for s in held)
        q = budget / sum(sizes[s] for s in free)
        below = {s for s in free if q * sizes[s] < floors[s]}
        if not below:
            break
        held |= below
    exact = {s: float(floors[s]) if s in held else q * sizes[s] for s in sizes}
    shares = {s: int(v) for s, v in exact.items()}
    leftover = n - sum(shares.values())
    order = sorted(sizes, key=lambda s: (-(exact[s] - shares[s]), s))
    for s in order:
        if leftover == 0:
            break
        if shares[s] < sizes[s]:
            shares[s] += 1
            leftover -= 1
    return shares


def rank_key(seed: int, unit: str) -> str:
    """The order in which a stratum's units are taken: a hash of the seed and the unit id."""
    return hashlib.sha256(f"{seed}\x00{unit}".encode()).hexdigest()


def stratified_sample(
    strata: Mapping[str, Stratum], n: int, seed: int, min_per_stratum: int = 1
) -> list[str]:
    """Unit ids of a stratified sample of (at least) `n` of the units in `strata`, sorted."""
    by_stratum: dict[Stratum, list[str]] = {}
    for unit, stratum in strata.items():
        by_stratum.setdefault(stratum, []).append(unit)
    shares = allocate({s: len(u) for s, u in by_stratum.items()}, n, min_per_stratum)
    chosen: list[str] = []
    for stratum, units in by_stratum.items():
        ranked = sorted(units, key=lambda u: (rank_key(seed, u), u))
        chosen.extend(ranked[: shares[stratum]])
    return sorted(chosen)


def preferring_sample(
    strata: Mapping[str, Stratum],
    prefer: Collection[str],
    n: int,
    seed: int,
    min_per_stratum: int = 1,
) -> list[str]:
    """A `stratified_sample` of `n` units drawn from the units in `prefer` first; only when
    they are fewer than `n` is the sample filled up from the other units (stratified too)."""
    first = {u: s for u, s in strata.items() if u in prefer}
    if len(first) >= n:
        return stratified_sample(first, n, seed, min_per_stratum)
    rest = {u: s for u, s in strata.items() if u not in prefer}
    fill = stratified_sample(rest, n - len(first), seed, min_per_stratum) if rest else []
    return sorted([*first, *fill])


def plan_hash(chosen: Sequence[str], settings: Mapping[str, Any]) -> str:
    """sha256 over the plan's settings and its chosen unit ids: equal hashes, equal plans."""
    payload = json.dumps({"settings": dict(settings), "units": sorted(chosen)}, sort_keys=True)
    return hashlib.sha256(payload.encode()).hexdigest()


class SamplePlan(BaseModel):
    """How a benchmark's samples were chosen: recorded in run.json and results.json so that
    `merge` and `compare` can check that two runs sampled alike."""

    model_config = ConfigDict(extra="forbid")

    #: The suite that asked for it ("quick", ...), or None for ``run --sample``.
    suite: str | None = None
    #: Units asked for (samples, or `unit` clusters).
    size: int
    #: The sample group key whose samples are kept together; None: each sample is a unit.
    unit: str | None = None
    #: Sample group keys whose joint values are the strata.
    strata: list[str] = Field(default_factory=list)
    #: Sample group keys every level of which is represented (added after the draw).
    cover: list[str] = Field(default_factory=list)
    min_per_stratum: int = 1
    seed: int
    #: Units and samples chosen, and in the whole population.
    n_units: int
    n_samples: int
    n_units_total: int
    n_samples_total: int
    n_strata: int
    #: sha256 over the settings and the chosen unit ids (see `plan_hash`).
    plan_hash: str
    #: Benchmarks whose drawn samples' statements this sample was drawn from first (a
    #: statement-rating benchmark in an audit, `preferring_sample`); empty: a plain draw.
    joined_with: list[str] = Field(default_factory=list)
    #: Units whose statement occurs in those samples (the units drawn first), when joined.
    n_units_joinable: int | None = None

    @model_serializer(mode="wrap")
    def _plain_as_before(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        """A plain draw is written without the join's fields, as before they existed, so
        that `--resume` of an earlier run finds the same settings in run.json."""
        data: dict[str, Any] = handler(self)
        if not self.joined_with:
            data.pop("joined_with", None)
            data.pop("n_units_joinable", None)
        return data


@dataclass
class Population:
    """What the sampler needs of a benchmark's samples: each unit's stratum, the unit of
    each sample, and the levels of each `cover` key each unit holds."""

    strata: dict[str, Stratum]
    unit_of: dict[str, str]
    levels: dict[str, dict[str, set[str]]]


def population(
    samples: Iterable[Any],
    strata: Sequence[str],
    unit: str | None,
    cover: Sequence[str] = (),
) -> Population:
    """The `Population` of `samples` (objects with `id` and `groups`); a key missing from a
    sample's groups counts as ''. A stratum key that varies within one unit is a
    benchmark's declaration error (a cover key may: the unit holds every level it has)."""
    by_unit: dict[str, Stratum] = {}
    unit_of: dict[str, str] = {}
    levels: dict[str, dict[str, set[str]]] = {k: {} for k in cover}
    unseen = {*strata, *cover, *([unit] if unit is not None else [])}
    for sample in samples:
        unseen.difference_update(sample.groups)
        key = sample.id if unit is None else str(sample.groups.get(unit, sample.id))
        stratum = tuple(str(sample.groups.get(k, "")) for k in strata)
        if by_unit.setdefault(key, stratum) != stratum:
            raise DeclarationError(
                f"sample {sample.id}: strata {list(strata)} vary within {unit} '{key}' "
                f"({by_unit[key]} and {stratum})"
            )
        unit_of[sample.id] = key
        for k in cover:
            levels[k].setdefault(key, set()).add(str(sample.groups.get(k, "")))
    if unseen and unit_of:  # a key no sample has is a misspelt declaration, not a level ''
        raise DeclarationError(
            f"suite keys {sorted(unseen)} are not groups of any sample (a misspelt strata, "
            "cover or unit key in the benchmark's SPEC.suites)"
        )
    return Population(by_unit, unit_of, levels)


def add_cover(chosen: set[str], levels: Mapping[str, Mapping[str, set[str]]], seed: int) -> None:
    """Add to `chosen`, for every level of a cover key that no chosen unit holds, the
    first-ranked unit (`rank_key`) holding it, so that every level is represented."""
    for key in sorted(levels):
        held = {level for u in chosen for level in levels[key].get(u, ())}
        by_level: dict[str, list[str]] = {}
        for u, unit_levels in levels[key].items():
            for level in unit_levels - held:
                by_level.setdefault(level, []).append(u)
        for level in sorted(by_level):
            if any(level in levels[key].get(u, ()) for u in chosen):
                continue  # held by a unit added for an earlier level
            chosen.add(min(by_level[level], key=lambda u: (rank_key(seed, u), u)))


@dataclass(frozen=True)
class Selection:
    """A sample plan and the ids of the samples it keeps (what the runner filters by)."""

    plan: SamplePlan
    ids: frozenset[str]


def plan_samples(
    samples: Iterable[Any],
    size: int,
    *,
    strata: Sequence[str],
    unit: str | None = None,
    seed: int = 0,
    min_per_stratum: int = 1,
    suite: str | None = None,
    cover: Sequence[str] = (),
    prefer: Collection[str] | None = None,
    joined_with: Sequence[str] = (),
) -> Selection:
    """The stratified plan over `samples` and the ids of the samples it keeps; every level
    of each `cover` key is then represented too (`add_cover`). With `prefer` (sample ids),
    the units holding them are drawn first (`preferring_sample`), the join recorded as
    `joined_with` (the benchmarks they come from)."""
    pop = population(samples, strata, unit, cover)
    by_unit, unit_of = pop.strata, pop.unit_of
    joinable = None if prefer is None else {unit_of[s] for s in prefer if s in unit_of}
    if joinable is None:
        chosen = set(stratified_sample(by_unit, size, seed, min_per_stratum))
    else:
        chosen = set(preferring_sample(by_unit, joinable, size, seed, min_per_stratum))
    add_cover(chosen, pop.levels, seed)
    kept = frozenset(s for s, u in unit_of.items() if u in chosen)
    settings = {
        "size": size,
        "unit": unit,
        "strata": list(strata),
        "cover": list(cover),
        "min_per_stratum": min_per_stratum,
        "seed": seed,
    }
    if joinable is not None:  # only then: a plain draw keeps its hash
        settings["joined_with"] = list(joined_with)
    plan = SamplePlan(
        suite=suite,
        size=size,
        unit=unit,
        strata=list(strata),
        cover=list(cover),
        min_per_stratum=min_per_stratum,
        seed=seed,
        n_units=len(chosen),
        n_samples=len(kept),
        n_units_total=len(by_unit),
        n_samples_total=len(unit_of),
        n_strata=len(set(by_unit.values())),
        plan_hash=plan_hash(sorted(chosen), settings),
        joined_with=list(joined_with) if joinable is not None else [],
        n_units_joinable=None if joinable is None else len(joinable),
    )
    return Selection(plan, kept)
