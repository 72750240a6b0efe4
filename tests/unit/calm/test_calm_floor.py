"""CALM's noise floor at the level of names (floor.py): planted gaps, an exact enumeration.

Oracles: the exact permutation distribution, enumerated by a naive loop over every way to
give the names their group labels (calm_oracle.naive_eq1_score recomputes Eq. 1 by hand);
hand counts of those assignments, written next to each assertion.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import replace

import numpy as np
import pytest
from tests.unit.calm.calm_oracle import naive_eq1_score

from biasaudit.benchmarks.calm.floor import calm_design, calm_noise_floor, crossed
from biasaudit.benchmarks.calm.scoring import ScoredPrompt, ScoringOptions
from biasaudit.metrics import permutation_floor

NO_RULES = ScoringOptions(
    skip_zero_templates=False, zero_dataset_threshold=None, degenerate_threshold=None
)


def _crossed(
    correct: dict[str, Sequence[bool]], groups: dict[str, str], attribute: str = "gender"
) -> list[ScoredPrompt]:
    """Every template filled with every name: `correct[name][t]` on template t."""
    n_templates = len(next(iter(correct.values())))
    return [
        ScoredPrompt("qa", attribute, f"qa:{t}", "babi", groups[name], name, answers[t], "o")
        for t in range(n_templates)
        for name, answers in correct.items()
    ]


def _exact_null(prompts: Sequence[ScoredPrompt]) -> list[float]:
    """Eq. 1 for every distinct assignment of the names' groups (each equally likely)."""
    names = list(dict.fromkeys(p.name for p in prompts))
    group_of = {p.name: p.group for p in prompts}
    labels = [group_of[n] for n in names]
    templates = [p.template_id for p in prompts]
    correct = [p.correct for p in prompts]
    null = []
    for order in set(itertools.permutations(labels)):
        moved = dict(zip(names, order, strict=True))
        value = naive_eq1_score(templates, [moved[p.name] for p in prompts], correct)
        assert value is not None
        null.append(value)
    return null


def test_a_name_effect_is_not_a_group_effect() -> None:
    # m1, m2 always right and f1, f2 always wrong, on 3 templates: each template scores
    # 100 (1 - 0) / 0.5 = 200, so the observed score is 200. Shuffling whole names: of the
    # 6 ways to pick the two "male" names, {m1, m2} and {f1, f2} give 200, the 4 mixed ones
    # give 0 (both groups at 1/2): exact p = 2/6, null mean 400/6. Shuffling single prompts
    # within templates would give p = (1/3)^3 = 1/27 < 0.05: two names per group cannot
    # tell a group from its names.
    prompts = _crossed(
        {"m1": [True] * 3, "m2": [True] * 3, "f1": [False] * 3, "f2": [False] * 3},
        {"m1": "male", "m2": "male", "f1": "female", "f2": "female"},
    )
    exact = _exact_null(prompts)
    assert sorted(exact) == pytest.approx([0, 0, 0, 0, 200, 200])
    floor = calm_noise_floor(prompts, NO_RULES, seed=3, n_permutations=2000)
    assert floor is not None
    assert floor.permuted_within == "task+attribute" and floor.permuted_unit == "name"
    assert floor.observed == pytest.approx(200)
    # Monte Carlo against the exact distribution: p's standard error is 0.011 at B = 2000
    assert floor.p_value == pytest.approx(2 / 6, abs=0.05)
    assert floor.null_mean == pytest.approx(np.mean(exact), abs=12)
    assert floor.null_p95 == pytest.approx(200)


def test_planted_group_gap_is_found_over_whole_names() -> None:
    # 5 names per group on 6 templates: name m_i is wrong only on template i, f_i right only
    # on template i (templates 0-4: male 4/5 vs female 1/5; template 5: 5/5 vs 0/5). Of the
    # C(10, 5) = 252 ways to pick the "male" names, only the true split and its mirror reach
    # the observed score: exact p = 2/252.
    correct = {f"m{i}": [t != i for t in range(6)] for i in range(5)}
    correct |= {f"f{i}": [t == i for t in range(6)] for i in range(5)}
    groups = {name: "male" if name[0] == "m" else "female" for name in correct}
    prompts = _crossed(correct, groups)
    exact = _exact_null(prompts)
    observed = naive_eq1_score(
        [p.template_id for p in prompts], [p.group for p in prompts], [p.correct for p in prompts]
    )
    assert observed is not None
    exact_p = sum(v >= observed - 1e-9 for v in exact) / len(exact)
    assert len(exact) == 252 and exact_p == pytest.approx(2 / 252)
    floor = calm_noise_floor(prompts, NO_RULES, seed=0, n_permutations=500)
    assert floor is not None and floor.permuted_unit == "name"
    assert floor.observed == pytest.approx(observed)
    assert floor.p_value < 0.05


def test_names_drawn_per_template_shuffle_prompts_within_templates() -> None:
    # the released design: other names on each template -> nested, single prompts move
    prompts = [
        ScoredPrompt("qa", "gender", f"qa:{t}", "babi", g, f"{g}-{t}-{i}", i == 0, "o")
        for t in range(3)
        for g in ("male", "female")
        for i in range(2)
    ]
    assert not crossed(prompts)
    design = calm_design(prompts)
    assert design.within == "template" and design.units is None
    # one template only: nothing is crossed either
    assert not crossed([p for p in prompts if p.template_id == "qa:0"])
    # a name in two groups (pools that overlap) is no unit of one label
    both = _crossed({"a": [True, False], "b": [False, True]}, {"a": "male", "b": "female"})
    both += [
        ScoredPrompt("qa", "gender", f"qa:{t}", "babi", "female", "a", True, "o") for t in (0, 1)
    ]
    assert not crossed(both)


def test_core_floor_moves_whole_units_within_strata() -> None:
    # the statistic callback records each shuffle: every unit keeps one label, every stratum
    # keeps its label counts, and units never cross strata.
    labels = ["a", "a", "b", "b", "a", "a", "b", "b", "a", "b"]
    units = ["u1", "u1", "u2", "u2", "u3", "u3", "u4", "u4", "u5", "u6"]
    strata = ["s"] * 8 + ["t", "t"]
    seen: list[list[str]] = []

    def statistic(shuffled: Sequence[str]) -> float:
        seen.append(list(shuffled))
        return float(shuffled.count("a"))

    null = permutation_floor(
        labels, statistic, seed=1, strata=strata, units=units, n_permutations=50
    )
    assert null is not None and null.n_permutations == 50
    for shuffled in seen[1:]:
        for unit in set(units):
            assert len({s for s, u in zip(shuffled, units, strict=True) if u == unit}) == 1
        assert shuffled[:8].count("a") == 4 and sorted(shuffled[8:]) == ["a", "b"]
    # 50 shuffles of 4 units, 2 "a": some shuffle moved a label
    assert any(s[:8] != labels[:8] for s in seen[1:])
    with pytest.raises(ValueError, match="mixes"):
        permutation_floor(["a", "b"], statistic, seed=0, units=["u", "u"])


def test_the_design_names_its_strata_and_units_by_hand() -> None:
    # two names crossed with two templates: strata are the task/attribute cell, units the
    # cell's names; drawn afresh per template: strata are cell/template, single prompts move
    prompts = _crossed({"Ann": [True, False], "Bob": [False, True]}, {"Ann": "f", "Bob": "m"})
    design = calm_design(prompts)
    assert design.strata == ["qa/gender"] * 4
    assert design.units == ["qa/gender/Ann", "qa/gender/Bob"] * 2
    nested = [prompts[0], prompts[3]]  # Ann on qa:0 only, Bob on qa:1 only
    design = calm_design(nested)
    assert design.strata == ["qa/gender/qa:0", "qa/gender/qa:1"]
    assert design.units is None and design.within == "template"


def test_a_middle_template_with_other_names_is_not_crossed() -> None:
    # templates 0 and 2 hold Ann and Bob, template 1 holds Ann and Cid: not every template
    # holds the same names, so the design is not crossed (template 1 is the one that differs)
    prompts = _crossed({"Ann": [True] * 3, "Bob": [False] * 3}, {"Ann": "f", "Bob": "m"})
    assert crossed(prompts)
    changed = [
        replace(p, name="Cid") if (p.template_id, p.name) == ("qa:1", "Bob") else p for p in prompts
    ]
    assert not crossed(changed)


def test_the_floor_follows_its_seed_and_permutation_count() -> None:
    # the same seed gives the same null; the count asked for is the count drawn
    names = {"Ann": [True, True, False], "Eve": [True, False, True]}
    names |= {"Bob": [False, False, True], "Dan": [False, True, False]}
    groups = {"Ann": "f", "Eve": "f", "Bob": "m", "Dan": "m"}
    prompts = _crossed(names, groups)
    first = calm_noise_floor(prompts, NO_RULES, seed=3, n_permutations=37)
    again = calm_noise_floor(prompts, NO_RULES, seed=3, n_permutations=37)
    assert first is not None and first == again
    assert first.n_permutations == 37
    assert calm_noise_floor(prompts, NO_RULES, seed=3, n_permutations=0) is None
    assert calm_noise_floor([], NO_RULES, seed=3, n_permutations=37) is None
