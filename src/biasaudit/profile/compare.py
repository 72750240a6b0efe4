"""Profile cells of two audits side by side: every (axis, benchmark[, group]) cell both have.

The interval of a difference is conservative: [low_b - high_a, high_b - low_a] from the two
cells' 95 % CIs (the audits may have seen different samples); it covers the difference
with at least 90 % probability (Bonferroni) and usually far more. A gated cell in either
audit gives no difference, only the reason.

"No clear difference" says how large a difference was missed: the interval excludes 0 when
|d| > z (se_a + se_b), z = z_{0.975}, se read off each cell's interval
(`metrics.power.se_from_ci`); d - b is then normal with sd sqrt(se_a^2 + se_b^2), so 80 %
power is reached at MDE = z (se_a + se_b) + z_{0.8} sqrt(se_a^2 + se_b^2) (`difference_mde`;
the far tail is left out, as in metrics.power).
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from statistics import NormalDist

from biasaudit.metrics.power import POWER, se_from_ci
from biasaudit.profile.model import Profile


@dataclass(frozen=True)
class CellDifference:
    axis: str
    benchmark: str
    metric: str
    baseline: str
    other: str
    baseline_effect: float | None
    baseline_verdict: str
    other_effect: float | None
    other_verdict: str
    difference: float | None
    ci_low: float | None
    ci_high: float | None
    reading: str
    #: A per-group cell's group (CALM), "" otherwise.
    group: str = ""
    #: The smallest difference the interval would reveal with 80 % power (None: no CI).
    mde: float | None = None

    def as_dict(self) -> dict[str, object]:
        return asdict(self)


def difference_mde(se_a: float, se_b: float, power: float = POWER) -> float:
    """MDE of the conservative interval's test of a difference (see the module docstring)."""
    z = NormalDist()
    return z.inv_cdf(0.975) * (se_a + se_b) + z.inv_cdf(power) * math.hypot(se_a, se_b)


def _reading(
    diff: float | None,
    low: float | None,
    high: float | None,
    other: str,
    group: str = "",
    mde: float | None = None,
) -> str:
    if diff is None:
        return "no difference (a cell is not measurable)"
    if low is None or high is None:
        return "no CI"
    if low <= 0.0 <= high:
        if mde is None:
            return "no clear difference"
        return f"no clear difference (could not detect less than {mde:.3g})"
    if group:  # a per-group cell: + is the benchmark's own direction (docs/profile.md)
        return f"{other} {'higher' if low > 0 else 'lower'} for {group}"
    return f"{other} {'further toward' if low > 0 else 'further against'} the stereotype"


def compare_profiles(
    base: Profile, other: Profile, base_label: str, other_label: str
) -> list[CellDifference]:
    out = []
    for cell in base.cells:
        twin = other.cell(cell.axis, cell.benchmark, cell.group)
        if twin is None:
            continue
        a = cell.effect if cell.measurable else None
        b = twin.effect if twin.measurable else None
        diff = b - a if a is not None and b is not None else None
        low = high = mde = None
        cis = (cell.ci_low, cell.ci_high, twin.ci_low, twin.ci_high)
        if diff is not None and None not in cis:
            a_low, a_high, b_low, b_high = (float(v or 0.0) for v in cis)
            low, high = b_low - a_high, b_high - a_low
            mde = difference_mde(se_from_ci(a_low, a_high), se_from_ci(b_low, b_high))
        out.append(
            CellDifference(
                axis=cell.axis,
                benchmark=cell.benchmark,
                metric=cell.metric,
                baseline=base_label,
                other=other_label,
                baseline_effect=a,
                baseline_verdict=cell.verdict,
                other_effect=b,
                other_verdict=twin.verdict,
                difference=diff,
                ci_low=low,
                ci_high=high,
                reading=_reading(diff, low, high, other_label, cell.group, mde),
                group=cell.group,
                mde=mde,
            )
        )
    return out
