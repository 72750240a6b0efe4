"""BEADs' profile cells (stereotype task): a target group's agreement against its axis' others.

Oracles: the effect by hand from planted answers; the p-value against scipy's
permutation_test of the same statistic with labels permuted within topic (an independent
implementation of the same null).
"""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from biasaudit.benchmarks.beads.profile import LESS, MORE, PROFILE, TARGET_GROUPS
from biasaudit.profile.build import apply_fdr, benchmark_cells
from biasaudit.profile.model import ProfileCell
from biasaudit.results.schema import SampleRecord

TOPICS = [f"topic {i}" for i in range(12)]


def record(group: str, topic: str, agree: float | None, outcome: str = "") -> SampleRecord:
    outcome = outcome or ("answered" if agree is not None else "unknown")
    return SampleRecord(
        benchmark="beads",
        sample_id=f"stereotype:{group}:{topic}",
        sample_hash="h",
        groups={"target_group": group, "topic": topic},
        outcomes=[outcome],
        scores={"agree": agree},
    )


def cells(records: list[SampleRecord], reason: str | None = None) -> dict[str, ProfileCell]:
    assert PROFILE.effect is not None
    found = benchmark_cells("beads", records, PROFILE.effect, PROFILE.gates, reason, seed=0)
    apply_fdr(found, 0.05)
    return {c.group: c for c in found}


def test_every_target_group_of_app_d1_is_mapped() -> None:
    groups = [
        "Muslims",
        "Black people",
        "Physically disabled people",
        "Asians",
        "Women",
        "Old people",
        "Poor people",
        "Immigrants",
        "Mexicans",
        "Latin Americans",
        "Men",
        "Christians",
        "White people",
        "Able-bodied people",
        "Canadians",
        "Young people",
        "Rich people",
        "Europeans",
        "Atheists",
        "Americans",
        "Caucasians",
        "Buddhists",
    ]
    assert sorted(TARGET_GROUPS) == sorted(groups)


def test_women_against_men_on_the_same_topics() -> None:
    # agrees with every label about women, with labels about men on topics 0-2 only
    records = [record("Women", t, 1.0) for t in TOPICS]
    records += [record("Men", t, 1.0 if i < 3 else 0.0) for i, t in enumerate(TOPICS)]
    records += [record("Muslims", t, float(i % 2)) for i, t in enumerate(TOPICS)]
    found = cells(records)
    women, men = found["Women"], found["Men"]
    assert women.axis == men.axis == "gender"
    assert women.effect == pytest.approx(1.0 - 3 / 12) and men.effect == pytest.approx(-0.75)
    # the religion cell has no other religion group here: not measurable
    assert found["Muslims"].verdict == "not measurable: only 0 samples in the other groups (< 10)"
    # oracle: scipy's permutation test of the mean difference, labels permuted per topic
    women_v = np.array([1.0] * 12)
    men_v = np.array([1.0 if i < 3 else 0.0 for i in range(12)])
    pairs = np.stack([women_v, men_v], axis=1)

    def statistic(swapped: np.ndarray, axis: int = -1) -> np.ndarray:
        return np.mean(swapped[..., 0] - swapped[..., 1], axis=axis)

    # within a topic (one statement per group), permuting the labels = swapping the pair
    ref = stats.permutation_test(
        (pairs[:, 0], pairs[:, 1]),
        lambda a, b, axis: np.mean(a - b, axis=axis),
        permutation_type="samples",
        n_resamples=np.inf,
        alternative="two-sided",
    )
    assert women.p_value == pytest.approx(ref.pvalue, abs=0.01)
    assert women.verdict == MORE and men.verdict == LESS


def test_demo_data_and_unclear_answers() -> None:
    records = [record("Women", t, 1.0) for t in TOPICS] + [record("Men", t, 0.0) for t in TOPICS]
    demo = "demo data (hand-written, not BEADs; pass -O data=PATH to a BEADs copy)"
    assert all(c.verdict == f"not measurable: {demo}" for c in cells(records, demo).values())
    men = [record("Men", t, 0.0) for t in TOPICS]
    # unclear replies (parse outcome unknown) are not counted: n = 0
    unclear = [record("Women", t, None) for t in TOPICS] + men
    assert cells(unclear)["Women"].verdict == "not measurable: n = 0 (< 10)"
    refused = [record("Women", t, None, "refused") for t in TOPICS] + men
    assert cells(refused)["Women"].verdict == "not measurable: answer rate 0 % (< 50 %)"
