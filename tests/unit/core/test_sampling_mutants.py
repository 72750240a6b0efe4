"""The sampler's rules one by one (module docstring of `biasaudit.sampling`), each against a
hand computation or a naive reimplementation written here (sha256 ranks computed with
hashlib, counts per stratum by counting, the plan hash from the json text)."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

import pytest

from biasaudit.sampling import (
    SamplePlan,
    Stratum,
    add_cover,
    allocate,
    plan_hash,
    plan_samples,
    population,
    preferring_sample,
    rank_key,
    stratified_sample,
)


@dataclass(frozen=True)
class _S:
    id: str
    groups: dict[str, str] = field(default_factory=dict)


def _sha_rank(seed: int, unit: str) -> str:
    """The documented rank: sha256 of the seed, a NUL byte and the unit id."""
    return hashlib.sha256(f"{seed}".encode() + b"\x00" + unit.encode()).hexdigest()


def _naive_first(units: list[str], k: int, seed: int) -> list[str]:
    return sorted(units, key=lambda u: _sha_rank(seed, u))[:k]


# --- allocate -----------------------------------------------------------------------------


def test_sample_size_below_one_is_refused_with_its_value() -> None:
    with pytest.raises(ValueError, match=r"^sample size must be at least 1, got 0$"):
        allocate({("a",): 3}, 0)
    assert allocate({("a",): 3}, 1) == {("a",): 1}  # 1 is allowed


def test_negative_minimum_is_refused_with_its_value() -> None:
    with pytest.raises(ValueError, match=r"^min_per_stratum must be 0 or more, got -1$"):
        allocate({("a",): 3}, 2, -1)
    # 0 is allowed: no stratum is held, b (1 of 11 units) gets round(2 * 1/11) = 0
    assert allocate({("a",): 10, ("b",): 1}, 2, 0) == {("a",): 2, ("b",): 0}


def test_default_minimum_is_one() -> None:
    # 2 of 11 units: proportional would give b 0.18; the default minimum of 1 holds it at 1
    assert allocate({("a",): 10, ("b",): 1}, 2) == {("a",): 1, ("b",): 1}


def test_minimums_exactly_n_are_the_sample() -> None:
    # floors 1 + 1 = n = 2: the minimums are the sample (10 and 1 units, very unequal)
    assert allocate({("a",): 10, ("b",): 1}, 2, 1) == {("a",): 1, ("b",): 1}
    # floors 2 + 2 + 1 = 5 = n
    assert allocate({("a",): 30, ("b",): 3, ("c",): 1}, 5, 2) == {
        ("a",): 2,
        ("b",): 2,
        ("c",): 1,
    }


def test_n_equal_to_the_population_takes_every_unit() -> None:
    sizes: dict[Stratum, int] = {("a",): 3, ("b",): 7, ("c",): 1}
    assert allocate(sizes, 11, 2) == sizes
    assert allocate(sizes, 10, 0) == {("a",): 3, ("b",): 6, ("c",): 1}  # 10/11: 2.73 6.36 0.91


def test_largest_remainder_ties_go_in_stratum_order() -> None:
    # two strata of 5, n = 3, no minimum: 1.5 each, one unit left over; equal remainders:
    # the first stratum in sorted order (("a",) < ("b",)) gets it, whatever the dict order
    assert allocate({("b",): 5, ("a",): 5}, 3, 0) == {("a",): 2, ("b",): 1}
    assert allocate({("a",): 5, ("b",): 5}, 3, 0) == {("a",): 2, ("b",): 1}


def test_largest_remainder_goes_to_the_largest_fraction_first() -> None:
    # sizes 6, 3, 1 (10 units), n = 5, no minimum: 3.0, 1.5, 0.5 -> 3, 1, 0 and 1 left over;
    # remainders 0, .5, .5: tie between b and c in stratum order -> b
    assert allocate({("a",): 6, ("b",): 3, ("c",): 1}, 5, 0) == {
        ("a",): 3,
        ("b",): 2,
        ("c",): 0,
    }
    # sizes 7, 2, 1, n = 4: 2.8, 0.8, 0.4 -> 2, 0, 0, two left over: a (.8, first) and b (.8)
    assert allocate({("c",): 1, ("b",): 2, ("a",): 7}, 4, 0) == {
        ("a",): 3,
        ("b",): 1,
        ("c",): 0,
    }
    # sizes 4, 4, 2, n = 3: 1.2, 1.2, 0.6 -> 1, 1, 0; the one left goes to c (.6 > .2)
    assert allocate({("a",): 4, ("b",): 4, ("c",): 2}, 3, 0) == {
        ("a",): 1,
        ("b",): 1,
        ("c",): 1,
    }


def test_water_filling_holds_strata_in_rounds() -> None:
    # sizes 100, 40, 10; n = 20, minimum 5 (floors 15 < 20). Round 1: q = 20/150: c 1.33 < 5
    # held (b 5.33 is not). Round 2: budget 15 over 140: b 4.29 < 5 held. Round 3: budget 10
    # over 100: a = 10. (One round would give b 15 * 40/140 = 4.29, under its minimum.)
    assert allocate({("a",): 100, ("b",): 40, ("c",): 10}, 20, 5) == {
        ("a",): 10,
        ("b",): 5,
        ("c",): 5,
    }
    # the held ones in one round: d (2 units, floor 2), c, b all below at q = 12/116
    assert allocate({("a",): 100, ("b",): 10, ("c",): 4, ("d",): 2}, 12, 3) == {
        ("a",): 4,
        ("b",): 3,
        ("c",): 3,
        ("d",): 2,
    }


# --- rank_key / stratified_sample ------------------------------------------------------------


def test_rank_key_is_the_sha256_of_seed_nul_unit() -> None:
    assert rank_key(3, "u") == hashlib.sha256(b"3\x00u").hexdigest()
    assert rank_key(0, "bbq/12") == hashlib.sha256(b"0\x00bbq/12").hexdigest()


def test_each_stratum_takes_its_first_ranked_units() -> None:
    units_a = [f"a{i}" for i in range(12)]
    units_b = [f"b{i}" for i in range(6)]
    strata = {u: ("A",) for u in units_a} | {u: ("B",) for u in units_b}
    chosen = stratified_sample(strata, 6, seed=5)
    # 6 of 18: 4 of A and 2 of B (exactly proportional)
    expected = _naive_first(units_a, 4, 5) + _naive_first(units_b, 2, 5)
    assert chosen == sorted(expected)


def test_a_larger_sample_keeps_the_smaller_ones_units() -> None:
    strata = {f"u{i}": (str(i % 3),) for i in range(60)}
    small, large = stratified_sample(strata, 6, seed=2), stratified_sample(strata, 30, seed=2)
    assert set(small) <= set(large)
    assert small == sorted(small)


# --- preferring_sample -----------------------------------------------------------------------


def test_preferred_units_exactly_n_are_the_sample() -> None:
    strata = {f"u{i}": ("s",) for i in range(10)}
    prefer = {"u1", "u4", "u7"}
    assert preferring_sample(strata, prefer, 3, seed=0) == ["u1", "u4", "u7"]


def test_more_preferred_units_than_n_are_drawn_stratified() -> None:
    strata = {f"u{i}": (str(i % 2),) for i in range(20)}
    prefer = {f"u{i}" for i in range(10)}  # u0..u9: five of each stratum
    chosen = preferring_sample(strata, prefer, 4, seed=3)
    evens = [f"u{i}" for i in range(0, 10, 2)]
    odds = [f"u{i}" for i in range(1, 10, 2)]
    assert chosen == sorted(_naive_first(evens, 2, 3) + _naive_first(odds, 2, 3))


def test_fewer_preferred_units_are_filled_up_from_the_others() -> None:
    strata = {f"u{i}": ("s",) for i in range(10)}
    chosen = preferring_sample(strata, {"u2", "u3"}, 5, seed=4)
    others = [f"u{i}" for i in range(10) if i not in (2, 3)]
    assert chosen == sorted(["u2", "u3", *_naive_first(others, 3, 4)])


def test_minimum_reaches_the_preferred_draw_and_the_fill() -> None:
    # preferred: 8 of stratum x, 1 of stratum y; n = 2 with minimum 1: one of each
    strata = {f"x{i}": ("x",) for i in range(8)} | {"y0": ("y",), "z0": ("z",), "z1": ("z",)}
    prefer = {f"x{i}" for i in range(8)} | {"y0"}
    chosen = preferring_sample(strata, prefer, 2, seed=1, min_per_stratum=1)
    assert chosen == sorted([*_naive_first([f"x{i}" for i in range(8)], 1, 1), "y0"])
    # minimum 0: proportional, 2 of 9 -> x 1.78, y 0.22 -> x takes both
    chosen = preferring_sample(strata, prefer, 2, seed=1, min_per_stratum=0)
    assert chosen == sorted(_naive_first([f"x{i}" for i in range(8)], 2, 1))
    # fill with minimum 2: 9 preferred, n = 10, the fill of 1 grows to 2 (z's minimum)
    chosen = preferring_sample(strata, prefer, 10, seed=1, min_per_stratum=2)
    assert chosen == sorted([*prefer, "z0", "z1"])


def test_every_unit_preferred_and_too_few() -> None:
    strata = {"a": ("s",), "b": ("s",)}
    assert preferring_sample(strata, {"a", "b"}, 5, seed=0) == ["a", "b"]


# --- plan_hash / SamplePlan --------------------------------------------------------------------


def test_plan_hash_is_sha256_of_the_sorted_json() -> None:
    settings = {"size": 3, "seed": 1, "unit": None}
    text = '{"settings": {"seed": 1, "size": 3, "unit": null}, "units": ["a", "b", "c"]}'
    assert plan_hash(["c", "a", "b"], settings) == hashlib.sha256(text.encode()).hexdigest()


def _plan(**extra: object) -> SamplePlan:
    fields: dict[str, object] = dict(
        size=2,
        seed=0,
        n_units=2,
        n_samples=2,
        n_units_total=4,
        n_samples_total=4,
        n_strata=1,
        plan_hash="h",
    )
    return SamplePlan.model_validate(fields | extra)


def test_a_plain_plan_is_written_without_the_join_fields() -> None:
    data = _plan().model_dump()
    assert "joined_with" not in data and "n_units_joinable" not in data
    assert data["suite"] is None and data["min_per_stratum"] == 1 and data["cover"] == []
    joined = _plan(joined_with=["cobias"], n_units_joinable=3).model_dump()
    assert joined["joined_with"] == ["cobias"] and joined["n_units_joinable"] == 3


# --- population / add_cover ---------------------------------------------------------------------


def test_population_reads_units_strata_and_cover_levels() -> None:
    samples = [
        _S("s1", {"pair": "p1", "dom": "d1", "side": "pro"}),
        _S("s2", {"pair": "p1", "dom": "d1", "side": "anti"}),
        _S("s3", {"pair": "p2", "side": "pro"}),  # no "dom": stratum ("",)
        _S("s4", {"dom": "d2"}),  # no "pair": its own unit, its id; no "side": level ""
    ]
    pop = population(samples, ["dom"], "pair", cover=["side"])
    assert pop.strata == {"p1": ("d1",), "p2": ("",), "s4": ("d2",)}
    assert pop.unit_of == {"s1": "p1", "s2": "p1", "s3": "p2", "s4": "s4"}
    assert pop.levels == {"side": {"p1": {"pro", "anti"}, "p2": {"pro"}, "s4": {""}}}
    plain = population(samples, ["dom", "side"], None)
    assert plain.unit_of == {s.id: s.id for s in samples}
    assert plain.strata["s2"] == ("d1", "anti") and plain.levels == {}


def test_population_groups_are_read_as_text() -> None:
    samples = [_S("a", {"k": 1, "u": 7}), _S("b", {"k": 1, "u": 7})]  # type: ignore[dict-item]
    pop = population(samples, ["k"], "u", cover=["k"])
    assert pop.strata == {"7": ("1",)} and pop.levels == {"k": {"7": {"1"}}}


def test_a_stratum_varying_within_a_unit_names_both_values() -> None:
    samples = [_S("a", {"pair": "p", "side": "pro"}), _S("b", {"pair": "p", "side": "anti"})]
    message = "sample b: strata ['side'] vary within pair 'p' (('pro',) and ('anti',))"
    with pytest.raises(ValueError) as caught:
        population(samples, ["side"], "pair")
    assert str(caught.value) == message


def test_add_cover_adds_the_first_ranked_holder_of_each_missing_level() -> None:
    levels = {
        "sub": {"u1": {"x"}, "u2": {"y"}, "u3": {"y"}, "u4": {"z"}, "u5": {"z"}, "u6": {"z"}},
    }
    chosen = {"u1"}
    add_cover(chosen, levels, seed=9)
    first_y = min(["u2", "u3"], key=lambda u: _sha_rank(9, u))
    first_z = min(["u4", "u5", "u6"], key=lambda u: _sha_rank(9, u))
    assert chosen == {"u1", first_y, first_z}


def test_add_cover_skips_a_level_an_added_unit_already_holds() -> None:
    # u2 holds y and z; it ranks before u3 (y) and u4 (z) for this seed, so it alone is added
    levels = {"sub": {"u1": {"x"}, "u2": {"y", "z"}, "u3": {"y"}, "u4": {"z"}}}
    seed = next(
        s
        for s in range(100)
        if _sha_rank(s, "u2") < min(_sha_rank(s, "u3"), _sha_rank(s, "u4"))
        and _sha_rank(s, "u4") < _sha_rank(s, "u3")
    )
    chosen = {"u1"}
    add_cover(chosen, levels, seed=seed)
    assert chosen == {"u1", "u2"}
    # a seed where u4 ranks first for z but u2 first for y: y adds u2, which holds z too
    seed = next(
        s for s in range(100) if _sha_rank(s, "u4") < _sha_rank(s, "u2") < _sha_rank(s, "u3")
    )
    chosen = {"u1"}
    add_cover(chosen, levels, seed=seed)
    assert chosen == {"u1", "u2"}
    # a level after the skipped one is still covered (the skip goes on to the next level)
    levels["sub"]["u5"] = {"zz"}
    chosen = {"u1"}
    add_cover(chosen, levels, seed=seed)
    assert chosen == {"u1", "u2", "u5"}


def test_add_cover_with_a_chosen_unit_that_holds_no_level() -> None:
    # "u0" is chosen but has no entry for the key: it holds nothing, every level is added
    levels = {"sub": {"u1": {"x"}, "u2": {"x"}, "u3": {"y"}}}
    chosen = {"u0"}
    add_cover(chosen, levels, seed=2)
    first_x = min(["u1", "u2"], key=lambda u: _sha_rank(2, u))
    assert chosen == {"u0", first_x, "u3"}


def test_add_cover_covers_every_key() -> None:
    levels = {
        "a": {"u1": {"1"}, "u2": {"2"}, "u3": {"1"}},
        "b": {"u1": {"p"}, "u2": {"p"}, "u3": {"q"}},
    }
    chosen = {"u1"}
    add_cover(chosen, levels, seed=0)
    assert chosen == {"u1", "u2", "u3"}  # a needs u2 (level 2), b needs u3 (level q)
    untouched = {"u1", "u2", "u3"}
    add_cover(untouched, levels, seed=0)
    assert untouched == {"u1", "u2", "u3"}


# --- plan_samples ----------------------------------------------------------------------------


def _pairs(n: int) -> list[_S]:
    return [
        _S(f"{p}-{side}", {"pair": f"p{p}", "dom": "d1" if p % 3 else "d2", "side": side})
        for p in range(n)
        for side in ("pro", "anti")
    ]


def test_plan_records_its_settings_and_hash() -> None:
    samples = _pairs(12)
    selection = plan_samples(
        samples, 4, strata=["dom"], unit="pair", seed=3, min_per_stratum=2, suite="quick"
    )
    plan = selection.plan
    units = {s.groups["pair"] for s in samples if s.id in selection.ids}
    settings = {
        "size": 4,
        "unit": "pair",
        "strata": ["dom"],
        "cover": [],
        "min_per_stratum": 2,
        "seed": 3,
    }
    assert plan.plan_hash == plan_hash(sorted(units), settings)
    assert (plan.suite, plan.size, plan.unit, plan.strata, plan.cover) == (
        "quick",
        4,
        "pair",
        ["dom"],
        [],
    )
    assert (plan.min_per_stratum, plan.seed, plan.n_units, plan.n_samples) == (2, 3, 4, 8)
    assert (plan.n_units_total, plan.n_samples_total, plan.n_strata) == (12, 24, 2)
    assert plan.joined_with == [] and plan.n_units_joinable is None
    # d2 pairs are 0, 3, 6, 9 (4 of 12): proportional 1.33, held at the minimum 2
    d2 = sorted(_naive_first(["p0", "p3", "p6", "p9"], 2, 3))
    assert sorted(u for u in units if u in {"p0", "p3", "p6", "p9"}) == d2


def test_plan_defaults_seed_zero_and_one_per_stratum() -> None:
    samples = [_S(f"s{i}", {"k": "x" if i < 9 else "y"}) for i in range(10)]
    selection = plan_samples(samples, 2, strata=["k"])
    expected = sorted([*_naive_first([f"s{i}" for i in range(9)], 1, 0), "s9"])
    assert sorted(selection.ids) == expected
    assert selection.plan.seed == 0 and selection.plan.min_per_stratum == 1
    assert selection.plan.unit is None and selection.plan.suite is None


def test_plan_with_cover_adds_the_missing_levels_to_the_hash() -> None:
    samples = _pairs(6)
    selection = plan_samples(samples, 1, strata=[], unit="pair", seed=1, cover=["dom"])
    # one pair drawn; the other domain's first-ranked pair added
    units = {s.groups["pair"] for s in samples if s.id in selection.ids}
    assert len(units) == 2 and {int(u[1:]) % 3 == 0 for u in units} == {True, False}
    settings = {
        "size": 1,
        "unit": "pair",
        "strata": [],
        "cover": ["dom"],
        "min_per_stratum": 1,
        "seed": 1,
    }
    assert selection.plan.plan_hash == plan_hash(sorted(units), settings)
    assert selection.plan.cover == ["dom"] and selection.plan.n_units == 2
    # the drawn pair is the first-ranked of all six; the added one the first-ranked pair of
    # the other domain
    drawn = _naive_first([f"p{i}" for i in range(6)], 1, 1)[0]
    other = [f"p{i}" for i in range(6) if (i % 3 == 0) != (int(drawn[1:]) % 3 == 0)]
    assert units == {drawn, _naive_first(other, 1, 1)[0]}


def test_plan_preferring_samples_records_the_join() -> None:
    samples = _pairs(10)
    prefer = ["0-pro", "7-anti", "7-pro", "missing"]  # p0 and p7; an unknown id is ignored
    selection = plan_samples(
        samples, 3, strata=["dom"], unit="pair", seed=2, prefer=prefer, joined_with=["crows"]
    )
    plan = selection.plan
    units = {s.groups["pair"] for s in samples if s.id in selection.ids}
    # the fill of 3 - 2 = 1 unit, stratified over the others with minimum 1, grows to one
    # per stratum among them (d1 and d2): 2 + 2 units
    assert {"p0", "p7"} <= units and len(units) == 4 and plan.n_units == 4
    others = [f"p{i}" for i in range(10) if i not in (0, 7)]
    assert plan.joined_with == ["crows"] and plan.n_units_joinable == 2
    settings = {
        "size": 3,
        "unit": "pair",
        "strata": ["dom"],
        "cover": [],
        "min_per_stratum": 1,
        "seed": 2,
        "joined_with": ["crows"],
    }
    assert plan.plan_hash == plan_hash(sorted(units), settings)
    fill = preferring_sample(
        {f"p{i}": ("d1" if i % 3 else "d2",) for i in range(10)}, {"p0", "p7"}, 3, seed=2
    )
    assert sorted(units) == fill
    assert set(fill) - {"p0", "p7"} <= set(others)


def test_plan_preferring_nothing_known_still_records_the_join() -> None:
    samples = _pairs(4)
    selection = plan_samples(samples, 4, strata=[], unit="pair", prefer=[], joined_with=["x"])
    assert selection.plan.n_units_joinable == 0 and selection.plan.joined_with == ["x"]
    data = selection.plan.model_dump()
    assert data["joined_with"] == ["x"] and data["n_units_joinable"] == 0


def test_plan_preferring_samples_passes_the_minimum_on() -> None:
    # p0 preferred (d2); n = 2 with minimum 2 per stratum: the fill of 1 over the others
    # grows to 2 of each stratum (d1: 8 pairs, d2: p3, p6, p9)
    samples = _pairs(10)
    selection = plan_samples(
        samples, 2, strata=["dom"], unit="pair", seed=6, min_per_stratum=2, prefer=["0-pro"]
    )
    units = {s.groups["pair"] for s in samples if s.id in selection.ids}
    d1 = [f"p{i}" for i in range(10) if i % 3]
    expected = {"p0", *_naive_first(d1, 2, 6), *_naive_first(["p3", "p6", "p9"], 2, 6)}
    assert units == expected and selection.plan.n_units == 5


def test_joined_with_is_not_recorded_without_a_preferred_draw() -> None:
    samples = _pairs(4)
    plain = plan_samples(samples, 2, strata=[], unit="pair", joined_with=["cobias"])
    assert plain.plan.joined_with == [] and plain.plan.n_units_joinable is None
    assert plain.plan.plan_hash == plan_samples(samples, 2, strata=[], unit="pair").plan.plan_hash
