"""The stratified sampler against a naive oracle: counting the chosen units per stratum."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from fractions import Fraction

import pytest

from biasaudit.sampling import allocate, plan_samples, stratified_sample


def _population(sizes: dict[str, int]) -> dict[str, tuple[str, ...]]:
    """unit id -> stratum, with `sizes[stratum]` units per stratum."""
    return {f"{s}-{i}": (s,) for s, n in sizes.items() for i in range(n)}


def _naive_counts(
    strata: dict[str, tuple[str, ...]], chosen: list[str]
) -> Counter[tuple[str, ...]]:
    counts: Counter[tuple[str, ...]] = Counter()
    for unit in chosen:
        counts[strata[unit]] += 1
    return counts


def _check_proportional(
    sizes: dict[str, int], counts: Counter[tuple[str, ...]], n: int, minimum: int
) -> None:
    """The oracle: every stratum has its minimum; those above it are within one unit of a
    common share q * size (q from the units left after the held minimums); total is exact."""
    floors = {s: min(minimum, size) for s, size in sizes.items()}
    realised = max(n, sum(floors.values())) if n < sum(sizes.values()) else sum(sizes.values())
    assert sum(counts.values()) == realised
    for s, size in sizes.items():
        assert floors[s] <= counts[(s,)] <= size
    free = [s for s in sizes if counts[(s,)] > floors[s]]
    if len(free) < 2:
        return
    budget = realised - sum(counts[(s,)] for s in sizes if s not in free)
    q = Fraction(budget, sum(sizes[s] for s in free))
    for s in free:
        assert abs(counts[(s,)] - q * sizes[s]) < 1, (s, counts[(s,)], float(q * sizes[s]))


def test_hand_computed_allocation() -> None:
    # 100 units of a, 50 of b, 10 of c, 1 of d; n = 20, minimum 2.
    # d is held at 1 (all it has); c's share 19 * 10/160 = 1.19 < 2: held at 2;
    # a and b share 17 over 150: a = 11.33, b = 5.67 -> largest remainder: a 11, b 6.
    shares = allocate({("a",): 100, ("b",): 50, ("c",): 10, ("d",): 1}, 20, 2)
    assert shares == {("a",): 11, ("b",): 6, ("c",): 2, ("d",): 1}


def test_minimums_beyond_n_grow_the_sample() -> None:
    shares = allocate({("a",): 5, ("b",): 5, ("c",): 1}, 2, 2)
    assert shares == {("a",): 2, ("b",): 2, ("c",): 1}


def test_n_beyond_population_takes_all() -> None:
    assert allocate({("a",): 3, ("b",): 4}, 50) == {("a",): 3, ("b",): 4}


@pytest.mark.parametrize("trial", range(40))
def test_random_populations_against_counting(trial: int) -> None:
    rng = random.Random(trial)
    sizes = {f"s{i}": rng.choice([1, 2, 3, 7, 20, 150]) for i in range(rng.randint(1, 12))}
    total = sum(sizes.values())
    n = rng.randint(1, total + 3)
    minimum = rng.randint(0, 3)
    strata = _population(sizes)
    chosen = stratified_sample(strata, n, seed=trial, min_per_stratum=minimum)
    assert len(set(chosen)) == len(chosen)
    _check_proportional(sizes, _naive_counts(strata, chosen), n, minimum)
    if minimum >= 1:  # every stratum present
        assert {strata[u] for u in chosen} == set(strata.values())


def test_deterministic_and_independent_of_order() -> None:
    strata = _population({"low": 30, "moderate": 90, "high": 30})
    first = stratified_sample(strata, 25, seed=7)
    shuffled = list(strata.items())
    random.Random(1).shuffle(shuffled)
    assert stratified_sample(dict(shuffled), 25, seed=7) == first
    assert stratified_sample(strata, 25, seed=8) != first


def test_not_the_first_items() -> None:
    strata = _population({"a": 200})
    chosen = stratified_sample(strata, 10, seed=0)
    assert chosen != sorted(f"a-{i}" for i in range(10))


def test_joint_strata_over_two_keys() -> None:
    strata = {
        f"{sev}-{dem}-{i}": (sev, dem)
        for sev in ("low", "high")
        for dem in ("x", "y", "z")
        for i in range(10 if sev == "low" else 2)
    }
    chosen = stratified_sample(strata, 8, seed=3)
    assert {strata[u] for u in chosen} == set(strata.values())  # 6 cells, all present
    assert len(chosen) == 8


@dataclass(frozen=True)
class _S:
    id: str
    groups: dict[str, str] = field(default_factory=dict)


def test_units_keep_their_samples_together() -> None:
    samples = [
        _S(f"{p}-{side}", {"pair": p, "domain": "d1" if p < 6 else "d2", "stance": side})
        for p in range(10)
        for side in ("pro", "anti")
    ]
    selection = plan_samples(samples, 4, strata=["domain"], unit="pair", seed=0)
    plan, kept = selection.plan, selection.ids
    pairs = Counter(s.split("-")[0] for s in kept)
    assert set(pairs.values()) == {2}  # both members of each chosen pair
    assert plan.n_units == 4 and plan.n_samples == 8 and plan.n_strata == 2
    assert plan.n_units_total == 10 and plan.n_samples_total == 20
    again = plan_samples(list(reversed(samples)), 4, strata=["domain"], unit="pair", seed=0)
    assert again.plan.plan_hash == plan.plan_hash


def test_stratum_varying_within_a_unit_is_refused() -> None:
    samples = [_S("a", {"pair": "p", "stance": "pro"}), _S("b", {"pair": "p", "stance": "anti"})]
    with pytest.raises(ValueError, match="vary within pair"):
        plan_samples(samples, 1, strata=["stance"], unit="pair")


def test_cover_represents_every_level_of_a_finer_key() -> None:
    # 45 sub-groups (5 per group), a draw of 9 by group alone cannot hold them all
    samples = [
        _S(f"{g}-{sub}-{i}", {"group": f"g{g}", "sub": f"g{g}.{sub}"})
        for g in range(9)
        for sub in range(5)
        for i in range(4)
    ]
    plain = plan_samples(samples, 9, strata=["group"], seed=1)
    covered = plan_samples(samples, 9, strata=["group"], seed=1, cover=["sub"])
    subs = {s.groups["sub"] for s in samples}
    chosen_subs = {s.groups["sub"] for s in samples if s.id in covered.ids}
    assert chosen_subs == subs  # naive count: all 45 present
    assert plain.ids <= covered.ids  # the draw is kept; cover only adds
    assert covered.plan.n_units == 45  # one per sub-group: the 9 drawn ones and 36 added
    assert len({s.groups["sub"] for s in samples if s.id in plain.ids}) < len(subs)
