"""Signed contrasts between two groups of a breakdown key: mean(a) - mean(b).

A breakdown's `gap` is unsigned (max - min over every group); a directional result (pro
minus anti, stereotype minus anti-stereotype, one religion minus all others) is a
`Contrast` declared on the `MetricSpec`:

    MetricSpec(..., contrasts=[Contrast(by="stance", a="pro", b="anti"),
                               Contrast(by="religion", a="Muslim", b=REST)])

`b=REST` ("*rest*") compares group `a` with every other scored sample. Each contrast is
computed over the samples the metric counts (its `where`, its score), giving

- the value mean(a) - mean(b) (samples weigh equally within each side);
- a percentile bootstrap CI of that difference with the metric's clusters and strata
  (`bootstrap.bootstrap_difference_ci`: without clusters the two sides are resampled
  separately, the two-sample bootstrap);
- a permutation floor of |a - b| (a two-sided p-value): the side labels are shuffled with the
  same design as the breakdown floors (`floors.permutation_design`: within `permute_within`,
  whole blocks or clusters when the side is constant within them). Present whenever the
  metric declares `noise_floor`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from pydantic import BaseModel, ConfigDict, model_validator

from biasaudit.metrics.bootstrap import bootstrap_difference_ci
from biasaudit.results.schema import ContrastValue, NoiseFloor

#: `Contrast.b` for "every other group".
REST = "*rest*"

#: (values, side labels "a"/"b", indices of those samples) -> (floor, why none).
FloorOf = Callable[[list[float], list[str], list[int]], tuple[NoiseFloor | None, str | None]]


class Contrast(BaseModel):
    """mean(a) - mean(b) over the levels `a` and `b` of the grouping key `by`."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    #: A key of `Sample.groups` (else data); "x+y" combines two, labelled "<x>/<y>".
    by: str
    a: str
    #: A group, or REST for every sample not in `a`.
    b: str

    @model_validator(mode="after")
    def _distinct(self) -> Contrast:
        if self.a == self.b or self.a == REST:
            raise ValueError(f"contrast on {self.by}: a ({self.a!r}) must be a group other than b")
        return self

    @property
    def name(self) -> str:
        return f"{self.by}: {self.a} - {'rest' if self.b == REST else self.b}"


def _mean(values: list[float]) -> float | None:
    return sum(values) / len(values) if values else None


def contrast_value(
    contrast: Contrast,
    values: Sequence[float],
    labels: Sequence[str],
    *,
    clusters: Sequence[str] | None,
    strata: Sequence[str] | None,
    floor_of: FloorOf | None,
    seed: int,
    n_resamples: int,
    level: float,
) -> ContrastValue:
    """One contrast over the scored samples (`labels`: each sample's level of `contrast.by`)."""
    rest = contrast.b == REST
    kept = [i for i, g in enumerate(labels) if g == contrast.a or rest or g == contrast.b]
    sides = ["a" if labels[i] == contrast.a else "b" for i in kept]
    part = [float(values[i]) for i in kept]
    mean_a = _mean([v for v, s in zip(part, sides, strict=True) if s == "a"])
    mean_b = _mean([v for v, s in zip(part, sides, strict=True) if s == "b"])
    result = ContrastValue(
        name=contrast.name,
        by=contrast.by,
        a=contrast.a,
        b=contrast.b,
        value=None,
        value_a=mean_a,
        value_b=mean_b,
        n_a=sides.count("a"),
        n_b=sides.count("b"),
    )
    if mean_a is None or mean_b is None:
        missing = contrast.a if mean_a is None else contrast.b
        return result.model_copy(update={"undefined_reason": f"no scored sample in {missing!r}"})
    low, high = bootstrap_difference_ci(
        part,
        [s == "a" for s in sides],
        seed=seed,
        n_resamples=n_resamples,
        level=level,
        clusters=None if clusters is None else [clusters[i] for i in kept],
        strata=None if strata is None else [strata[i] for i in kept],
    )
    floor, reason = floor_of(part, sides, kept) if floor_of is not None else (None, None)
    return result.model_copy(
        update={
            "value": mean_a - mean_b,
            "ci_low": low,
            "ci_high": high,
            "noise_floor": floor,
            "noise_floor_reason": reason,
        }
    )
