"""Paired before/after comparison of two stop_downstream runs on the same items (STOP §4).

STOP reports the relative change of the answer rate after alignment fine-tuning ("+9% on
BBQ to +191% on StereoSet"). With the same items asked before and after, the change is a
paired quantity: every bootstrap resample draws items (with replacement) and recomputes both
runs' values on the same items (Efron & Tibshirani 1993, §6.9 on paired data).

- answer rate = answered items / items (percent);
- performance = correct / answered items (percent), each run over its own answered items;
- points = after − before; relative change = (after − before) / before (None when before is 0;
  a CI is None when some resample makes it undefined: "not measurable").
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from biasaudit.benchmarks.stop_downstream.protocol import relative_change
from biasaudit.metrics import controlled
from biasaudit.metrics.bootstrap import bootstrap_index_ci
from biasaudit.metrics.controlled import ControlledChange

#: per item: (answered 0/1, correct 0/1 or None when not answered)
Outcome = tuple[float, float | None]
#: a statistic of a subset of item indices
IndexGap = Callable[[Sequence[int]], float | None]


def answer_rate(outcomes: Sequence[Outcome]) -> float | None:
    return 100.0 * sum(o[0] for o in outcomes) / len(outcomes) if outcomes else None


def performance(outcomes: Sequence[Outcome]) -> float | None:
    answered = [o[1] for o in outcomes if o[0] and o[1] is not None]
    return 100.0 * sum(answered) / len(answered) if answered else None


METRICS = {"answer_rate": answer_rate, "performance": performance}


@dataclass(frozen=True)
class PairedChange:
    metric: str
    n_items: int
    before: float | None
    after: float | None
    points: float | None
    points_ci: tuple[float | None, float | None]
    relative: float | None  # (after − before) / before, as a fraction
    relative_ci: tuple[float | None, float | None]


def paired_change(
    metric: str,
    before: Sequence[Outcome],
    after: Sequence[Outcome],
    *,
    seed: int,
    n_resamples: int = 2000,
) -> PairedChange:
    """`metric` before and after on the same items (index i is one item in both)."""
    if len(before) != len(after):
        raise ValueError("paired runs need the same items")
    value = METRICS[metric]

    def at(idx: Sequence[int]) -> tuple[float | None, float | None]:
        return value([before[i] for i in idx]), value([after[i] for i in idx])

    def points(idx: Sequence[int]) -> float | None:
        b, a = at(idx)
        return None if a is None or b is None else a - b

    def relative(idx: Sequence[int]) -> float | None:
        b, a = at(idx)
        return relative_change(b, a)

    everything = list(range(len(before)))
    b, a = at(everything)
    return PairedChange(
        metric=metric,
        n_items=len(before),
        before=b,
        after=a,
        points=points(everything),
        points_ci=bootstrap_index_ci(len(before), points, seed=seed, n_resamples=n_resamples),
        relative=relative(everything),
        relative_ci=bootstrap_index_ci(len(before), relative, seed=seed, n_resamples=n_resamples),
    )


def paired_outcomes(
    before: Mapping[str, Outcome], after: Mapping[str, Outcome]
) -> tuple[list[str], list[Outcome], list[Outcome]]:
    """Items scored in both runs (sorted ids) and their outcomes in each."""
    ids = sorted(set(before) & set(after))
    return ids, [before[i] for i in ids], [after[i] for i in ids]


def controlled_change(
    metric: str,
    before: Sequence[Outcome],
    treated: Sequence[Outcome],
    control: Sequence[Outcome],
    *,
    seed: int,
    n_resamples: int = 2000,
) -> ControlledChange:
    """`metric` (answer_rate or performance) of three runs on the same items
    (biasaudit.metrics.controlled)."""
    return controlled.controlled_change(
        metric, before, treated, control, value=METRICS[metric], seed=seed, n_resamples=n_resamples
    )


def chance_level(options: Sequence[int], correct: Sequence[int]) -> float | None:
    """% correct expected from a uniformly random option: mean of |correct| / |options|."""
    if not options:
        return None
    return 100.0 * sum(c / o for c, o in zip(correct, options, strict=True)) / len(options)
