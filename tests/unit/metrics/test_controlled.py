"""Treatment minus control (biasaudit.metrics.controlled) on per-item values that may be
missing, as `beads debias` measures them: hand-computed values and the verdict's three cases."""

from __future__ import annotations

import pytest

from biasaudit.benchmarks.beads.debias import mean_present
from biasaudit.metrics.controlled import ControlledChange, controlled_change, controlled_verdict

# 6 held-out pairs; None: no judged value for that pair in that run
BASE = [1.0, None, 0.0, 1.0, 1.0, None]
TREATED = [0.0, 0.0, 0.0, None, 1.0, 0.0]
CONTROL = [1.0, 0.0, None, 1.0, 0.0, 1.0]


def test_means_over_present_values_by_hand() -> None:
    change = controlled_change(
        "bias", BASE, TREATED, CONTROL, value=mean_present(100.0), seed=0, n_resamples=300
    )
    # base 3 yes of 4 = 75 %; treated 1 of 5 = 20 %; control 3 of 5 = 60 %
    assert (change.before, change.treated, change.control) == (75.0, 20.0, 60.0)
    assert change.treatment == -55.0 and change.control_effect == -15.0
    assert change.difference == -40.0
    low, high = change.difference_ci
    assert low is not None and high is not None and low <= -40.0 <= high
    assert mean_present(1.0)([None, None]) is None  # nothing judged: undefined, not 0


def _change(
    treatment_ci: tuple[float, float], difference_ci: tuple[float, float]
) -> ControlledChange:
    return ControlledChange(
        "similarity", 50, 0.5, 0.6, 0.58, 0.1, treatment_ci, 0.08, (0.01, 0.15), 0.02,
        difference_ci,
    )  # fmt: skip


def test_verdict_wording_follows_both_intervals() -> None:
    beyond = controlled_verdict(
        _change((0.05, 0.15), (0.01, 0.03)), "similarity", treatment="the pairs", unit="", digits=3
    )
    assert beyond.startswith("similarity: the pairs changed it by +0.020 [+0.010, +0.030] beyond")
    matched = controlled_verdict(
        _change((0.05, 0.15), (-0.01, 0.05)), "similarity", treatment="the pairs", unit="", digits=3
    )
    assert "matched by the control's +0.080: the reply format" in matched
    assert "  " not in matched  # no unit, no double space
    neither = controlled_verdict(
        _change((-0.02, 0.2), (-0.01, 0.05)), "similarity", treatment="the pairs", unit="", digits=3
    )
    assert "no detectable change against the base model either" in neither
    assert "treatment +0.100 [-0.020, +0.200]" in neither
    assert "reply format" not in neither


def test_a_difference_without_ci_is_not_read_as_an_effect() -> None:
    few = ControlledChange(
        "toxicity", 3, 50.0, 50.0, 66.7, 0.0, (None, None), 16.7, (None, None), -16.7,
        (None, None),
    )  # fmt: skip
    text = controlled_verdict(few, "toxicity")
    assert text == (
        "toxicity: treatment minus control -16.7 has no CI (too few answered items: undefined "
        "in some bootstrap resamples); not read as an effect"
    )


def test_all_three_cis_match_a_naive_paired_bootstrap() -> None:
    import numpy as np

    rng = np.random.default_rng(5)
    n = 60
    runs = [list((rng.random(n) < p).astype(float)) for p in (0.3, 0.8, 0.6)]
    change = controlled_change("rate", *runs, value=mean_present(100.0), seed=2, n_resamples=4000)
    assert change.metric == "rate" and change.n_items == n
    base, treated, control = (np.array(r) for r in runs)
    draws = np.random.default_rng(11).integers(0, n, size=(4000, n))
    for ci, (one, two) in (
        (change.treatment_ci, (treated, base)),
        (change.control_ci, (control, base)),
        (change.difference_ci, (treated, control)),
    ):
        gaps = 100 * (one[draws].mean(axis=1) - two[draws].mean(axis=1))
        assert ci[0] == pytest.approx(np.percentile(gaps, 2.5), abs=2.0)
        assert ci[1] == pytest.approx(np.percentile(gaps, 97.5), abs=2.0)
    again = controlled_change("rate", *runs, value=mean_present(100.0), seed=2, n_resamples=4000)
    other = controlled_change("rate", *runs, value=mean_present(100.0), seed=3, n_resamples=4000)
    assert again == change and other.difference_ci != change.difference_ci  # seeded
    with pytest.raises(ValueError, match="^controlled runs need the same items$"):
        controlled_change("rate", runs[0], runs[1], runs[2][:-1], value=mean_present(1.0), seed=0)


def test_an_interval_touching_zero_is_no_finding() -> None:
    touching = controlled_verdict(_change((0.0, 0.15), (0.0, 0.05)), "s", unit="", digits=3)
    assert "no effect of the alignment data" in touching
    assert "no detectable change against the base model either" in touching
    assert "control +0.080 [+0.010, +0.150]" in touching
    matched = controlled_verdict(_change((0.05, 0.15), (-0.01, 0.05)), "s", unit="", digits=3)
    assert matched.endswith("the reply format, not the social content, moved it")
