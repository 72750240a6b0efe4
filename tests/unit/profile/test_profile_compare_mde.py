"""The MDE of a profile comparison's difference: by hand and by simulation of the test applied."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

from biasaudit.profile.compare import difference_mde


def test_difference_mde_by_hand() -> None:
    # se 3 and 4: 1.95996 * 7 + 0.84162 * 5 = 13.71973 + 4.20810 = 17.92783
    assert difference_mde(3.0, 4.0) == pytest.approx(1.959964 * 7 + 0.841621 * 5, rel=1e-5)
    assert difference_mde(0.0, 0.0) == 0.0


def test_the_conservative_interval_reveals_the_mde_80_percent_of_the_time() -> None:
    # two cells with normal estimates; the compare interval [b_low - a_high, b_high - a_low]
    # excludes 0 in ~80 % of draws when the true difference is the MDE
    rng = np.random.default_rng(0)
    se_a, se_b = 3.0, 5.0
    d = difference_mde(se_a, se_b)
    z = stats.norm.ppf(0.975)
    a = rng.normal(0.0, se_a, 40_000)
    b = rng.normal(d, se_b, 40_000)
    low = (b - z * se_b) - (a + z * se_a)
    high = (b + z * se_b) - (a - z * se_a)
    power = np.mean((low > 0) | (high < 0))
    assert power == pytest.approx(0.8, abs=0.01)
    assert math.isclose(d, z * 8 + stats.norm.ppf(0.8) * math.hypot(3, 5), rel_tol=1e-9)
