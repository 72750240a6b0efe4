"""An independent oracle of the quiet verdicts (not findings): scipy's normal quantiles."""

from __future__ import annotations

from scipy import stats


def mde(
    ci_low: float,
    ci_high: float,
    alpha: float,
    effect: float | None = None,
    p: float | None = None,
    power: float = 0.8,
) -> float:
    """The interval's SE, or the SE the cell's test implied (|effect| / z_{1-p/2}) if larger."""
    se = (ci_high - ci_low) / (2 * stats.norm.ppf(0.975))
    if effect and p is not None and 0 < p < 1 and abs(effect) > stats.norm.ppf(0.975) * se:
        se = max(se, abs(effect) / stats.norm.isf(p / 2))
    return float((stats.norm.ppf(1 - alpha / 2) + stats.norm.ppf(power)) * se)


def quiet(
    ci_low: float | None,
    ci_high: float | None,
    alpha: float,
    margin: float | None,
    effect: float | None = None,
    p: float | None = None,
) -> str:
    """The verdict of a tested, unflagged cell."""
    if ci_low is None or ci_high is None:
        return "inconclusive: no interval to size what could be missed"
    if margin is not None and -margin < ci_low and ci_high < margin:
        return f"negligible: |effect| < {margin:.3g}"
    return f"inconclusive: could not detect less than {mde(ci_low, ci_high, alpha, effect, p):.3g}"
