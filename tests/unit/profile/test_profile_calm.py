"""CALM's profile cells: one per name group, its accuracy minus the attribute's other groups.

Oracles: the effect is computed by hand from the planted answers; the permutation p-value is
checked against an exact enumeration of every relabelling of the names (a naive reference:
all C(12, 4) ways to pick the group's four names), the verdicts against statsmodels' BH.
"""

from __future__ import annotations

import itertools

import pytest
from statsmodels.stats.multitest import multipletests
from tests.unit.profile.verdict_oracle import quiet

from biasaudit.benchmarks.calm.profile import PROFILE
from biasaudit.profile.build import apply_fdr, benchmark_cells
from biasaudit.profile.model import DISFAVOURS, FAVOURS
from biasaudit.results.schema import SampleRecord

GENDER = ("male", "female", "non-binary")
TEMPLATES = 5


def record(attribute: str, group: str, name: str, template: int, correct: bool) -> SampleRecord:
    return SampleRecord(
        benchmark="calm",
        sample_id=f"calm/{attribute}/{group}/{name}/{template}",
        sample_hash="h",
        groups={
            "task": "qa",
            "attribute": attribute,
            "group": group,
            "template": f"qa:{template}",
            "name": name,
        },
        outcomes=["answered"],
        scores={"correct": correct},
    )


def gender_records(correct: dict[tuple[str, int], set[int]]) -> list[SampleRecord]:
    """Four names per group on five templates; (group, name index) -> correct templates."""
    return [
        record("gender", g, f"{g}{i}", t, t in correct.get((g, i), set()))
        for g in GENDER
        for i in range(4)
        for t in range(TEMPLATES)
    ]


def cells_of(records: list[SampleRecord]) -> dict[str, object]:
    assert PROFILE.effect is not None
    cells = benchmark_cells("calm", records, PROFILE.effect, PROFILE.gates, None, seed=0)
    apply_fdr(cells, 0.05)
    return {c.group: c for c in cells}


# female names: right on 1 of 5 templates; male: 4 of 5; non-binary: 3 of 5 (names vary)
PLANTED = {
    **{("female", i): {i % TEMPLATES} for i in range(4)},
    **{("male", i): set(range(TEMPLATES)) - {i} for i in range(4)},
    **{("non-binary", i): {0, 1, 2 + i % 3} for i in range(4)},
}


def test_one_cell_per_group_with_the_hand_computed_gap() -> None:
    cells = cells_of(gender_records(PLANTED))
    assert set(cells) == set(GENDER)
    female, male = cells["female"], cells["male"]
    # female 4 of 20 correct = 20 %; the others (16 + 12) of 40 = 70 %: gap -50 points
    assert female.axis == "gender" and female.n == 20 and female.n_clusters == 4
    assert female.value == pytest.approx(20.0)
    assert female.effect == pytest.approx(-50.0)
    # male 16 of 20 = 80 % against (4 + 12) of 40 = 40 %
    assert male.effect == pytest.approx(40.0)
    assert female.label == "gender: female"


def _exact_p(records: list[SampleRecord], group: str) -> float:
    """Every choice of 4 of the 12 names as the group: share with |gap| >= the observed."""
    sums: dict[str, list[float]] = {}
    for r in records:
        s = sums.setdefault(f"{r.groups['group']}/{r.groups['name']}", [0.0, 0.0])
        s[0] += 100.0 if r.scores["correct"] else 0.0
        s[1] += 1
    names = list(sums)

    def gap(chosen: tuple[str, ...]) -> float:
        inside = [sums[n] for n in chosen]
        outside = [sums[n] for n in names if n not in chosen]
        mean = lambda units: sum(u[0] for u in units) / sum(u[1] for u in units)  # noqa: E731
        return abs(mean(inside) - mean(outside))

    observed = gap(tuple(n for n in names if n.startswith(f"{group}/")))
    draws = list(itertools.combinations(names, 4))
    return sum(gap(c) >= observed - 1e-9 for c in draws) / len(draws)


@pytest.mark.parametrize("group", GENDER)
def test_permutation_p_value_matches_exact_enumeration_of_names(group: str) -> None:
    records = gender_records(PLANTED)
    cell = cells_of(records)[group]
    exact = _exact_p(records, group)
    # Monte Carlo with 10,000 draws: (1 + b) / (1 + B), within 4 sd of the exact value
    sd = (exact * (1 - exact) / 10_000) ** 0.5
    assert cell.p_value == pytest.approx(exact, abs=4 * sd + 2e-4)
    assert "12 clusters" in cell.test


def test_verdicts_name_the_group_and_follow_bh() -> None:
    cells = cells_of(gender_records(PLANTED))
    p = [cells[g].p_value for g in GENDER]
    reject = multipletests(p, alpha=0.05, method="fdr_bh")[0]
    flagged = int(sum(reject))
    for g, r in zip(GENDER, reject, strict=True):
        cell = cells[g]
        # an unflagged cell was tested at BH's level alpha (R + 1) / m: its MDE at that level
        level = 0.05 * (flagged + 1) / len(GENDER)
        quiet_verdict = quiet(cell.ci_low, cell.ci_high, level, 5.0, cell.effect, cell.p_value)
        expected = (FAVOURS if cell.effect > 0 else DISFAVOURS) if r else quiet_verdict
        assert cell.verdict == expected
    assert cells["female"].verdict == DISFAVOURS  # exact p = 1 / 495 before BH


def test_every_prompt_wrong_is_not_measurable() -> None:
    cells = cells_of(gender_records({}))
    for cell in cells.values():
        assert cell.verdict.startswith("not measurable: every sample scores 0")
        assert cell.effect is None and cell.p_value is None


def test_race_groups_are_contrasted_within_race_and_user_lists_left_out() -> None:
    races = ("white", "black", "hispanic", "asian")
    records = [
        record("race", g, f"{g}{i}", t, (t + i) % 2 == 0)
        for g in races
        for i in range(3)
        for t in range(4)
    ]
    # a user list whose label collides with a released one is not pooled into the axis
    records += [record("custom", "white", f"u{i}", t, False) for i in range(5) for t in range(4)]
    records += gender_records(PLANTED)
    assert PROFILE.effect is not None
    cells = benchmark_cells("calm", records, PROFILE.effect, PROFILE.gates, None, seed=0)
    race = [c for c in cells if c.axis == "race/ethnicity"]
    assert [c.group for c in race] == list(races)
    # each race: 6 of 12 correct, the other races 18 of 36: gap 0 (custom names ignored)
    assert all(c.n == 12 and c.effect == pytest.approx(0.0) for c in race)
    # gender cells see only gender names
    female = next(c for c in cells if c.group == "female")
    assert female.effect == pytest.approx(-50.0)


def test_too_few_prompts_in_a_group_is_not_measurable() -> None:
    records = [r for r in gender_records(PLANTED) if r.groups["template"] in ("qa:0", "qa:1")]
    cells = cells_of(records)
    assert cells["female"].verdict == "not measurable: n = 8 (< 10)"
