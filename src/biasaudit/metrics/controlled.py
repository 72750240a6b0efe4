"""Treatment minus control: three runs of one base model measured on the same items.

A fine-tune changes both what a model believes and the form of its replies. A control arm
(the same number of training examples of the same shape, no social content, the same
settings) separates the two. For a statistic ``value`` of a run's per-item outcomes:

- treatment = value(treated) − value(base), control = value(control) − value(base),
- difference = value(treated) − value(control): what the treatment's content did beyond the
  control's format,

each with a 95 % paired percentile bootstrap CI (Efron & Tibshirani 1993, §6.9 on paired
data): every resample draws items with replacement and recomputes all three runs on the same
items. ``value`` is any statistic of a run's outcomes on a subset of items (an answer rate, a
mean of judged yes = 1 / no = 0 among answered items, a mean cosine similarity); it returns
None when undefined on that subset (no answered item), and a CI bound is None when the
statistic is undefined in the estimate.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from biasaudit.metrics.bootstrap import bootstrap_index_ci

#: a run's statistic of its per-item outcomes (None: undefined, e.g. nothing answered)
RunValue = Callable[[Sequence[Any]], float | None]


@dataclass(frozen=True)
class ControlledChange:
    """Values of the three runs, and the three paired gaps with their 95 % CIs."""

    metric: str
    n_items: int
    before: float | None
    treated: float | None
    control: float | None
    treatment: float | None
    treatment_ci: tuple[float | None, float | None]
    control_effect: float | None
    control_ci: tuple[float | None, float | None]
    difference: float | None
    difference_ci: tuple[float | None, float | None]

    def cells(self) -> list[float | None]:
        """A table row's values, in the order of `COLUMNS`."""
        return [
            self.before,
            self.treated,
            self.control,
            self.treatment,
            *self.treatment_ci,
            self.control_effect,
            *self.control_ci,
            self.difference,
            *self.difference_ci,
        ]


#: the columns of `ControlledChange.cells` (a table puts its own keys before them)
COLUMNS = (
    "base",
    "treated",
    "control",
    "treatment",
    "treatment_ci_low",
    "treatment_ci_high",
    "control_effect",
    "control_ci_low",
    "control_ci_high",
    "difference",
    "difference_ci_low",
    "difference_ci_high",
)


def controlled_change(
    metric: str,
    before: Sequence[Any],
    treated: Sequence[Any],
    control: Sequence[Any],
    *,
    value: RunValue,
    seed: int,
    n_resamples: int = 2000,
) -> ControlledChange:
    """`value` of three runs on the same items (index i is one item in all three)."""
    if not len(before) == len(treated) == len(control):
        raise ValueError("controlled runs need the same items")
    runs = (before, treated, control)

    def gap(first: int, second: int) -> Callable[[Sequence[int]], float | None]:
        def statistic(idx: Sequence[int]) -> float | None:
            one = value([runs[first][i] for i in idx])
            two = value([runs[second][i] for i in idx])
            return None if one is None or two is None else one - two

        return statistic

    everything = list(range(len(before)))
    ci = {
        name: bootstrap_index_ci(len(before), gap(*pair), seed=seed, n_resamples=n_resamples)
        for name, pair in (("treatment", (1, 0)), ("control", (2, 0)), ("difference", (1, 2)))
    }
    return ControlledChange(
        metric=metric,
        n_items=len(before),
        before=value(before),
        treated=value(treated),
        control=value(control),
        treatment=gap(1, 0)(everything),
        treatment_ci=ci["treatment"],
        control_effect=gap(2, 0)(everything),
        control_ci=ci["control"],
        difference=gap(1, 2)(everything),
        difference_ci=ci["difference"],
    )


def controlled_verdict(
    change: ControlledChange,
    what: str,
    *,
    treatment: str = "the alignment data",
    unit: str = "points",
    digits: int = 1,
) -> str:
    """One sentence that follows the treatment-minus-control difference, not before/after."""
    low, high = change.difference_ci
    if change.difference is None:
        return f"{what}: treatment minus control not measurable (no answered item in a run)"
    if low is None or high is None:
        return (
            f"{what}: treatment minus control {change.difference:+.{digits}f} has no CI (too "
            "few answered items: undefined in some bootstrap resamples); not read as an effect"
        )

    def signed(x: float | None) -> str:
        return "" if x is None else f"{x:+.{digits}f}"

    def span(x: float | None, bounds: tuple[float | None, float | None]) -> str:
        return f"{signed(x)}{' ' + unit if unit else ''} [{signed(bounds[0])}, {signed(bounds[1])}]"

    diff = span(change.difference, change.difference_ci)
    if low > 0 or high < 0:
        return (
            f"{what}: {treatment} changed it by {diff} beyond the format-only control "
            f"(treatment {signed(change.treatment)}, control {signed(change.control_effect)} "
            f"against the base model)"
        )
    t_low, t_high = change.treatment_ci
    if t_low is not None and t_high is not None and (t_low > 0 or t_high < 0):
        return (
            f"{what}: no effect of {treatment} beyond the format-only control ({diff}); the "
            f"treatment's {signed(change.treatment)} against the base model are matched by "
            f"the control's {signed(change.control_effect)}: the reply format, not the social "
            "content, moved it"
        )
    return (
        f"{what}: no effect of {treatment} beyond the format-only control ({diff}), and no "
        f"detectable change against the base model either (treatment "
        f"{span(change.treatment, change.treatment_ci)}, control "
        f"{span(change.control_effect, change.control_ci)})"
    )
