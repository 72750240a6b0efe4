"""What a benchmark declares for the bias profile (in its own folder, `profile.py`); part of
the plug-in API (`biasaudit.benchmarks` re-exports it).

`BenchmarkProfile` is named by ``BenchmarkSpec.profile`` ("module:attribute") and holds:
- `Gates`: the validity gates checked before any of the benchmark's numbers is shown;
- `Effect` (optional): the bias effect of a profile cell, i.e. which per-sample score, on
  which scale, its unbiased value, which sign is "toward stereotype", how the benchmark's
  groups map onto the core axes (`biasaudit.axes`), and how a cell is tested.

Two designs of a cell:
- ``one_sample``: the cell's samples' mean score minus the unbiased value (CrowS-Pairs 50,
  BBQ 0, ...). Test: sign-flip randomisation test of the deviations from the unbiased value,
  whole clusters flipped together (exact for up to 22 clusters with a non-zero sum). Valid
  when, without bias, a sample's deviation is as likely to be positive as negative (a pair's
  two sentences, a question's two non-unknown answers, swapped by the dataset's own design).
- ``contrast``: the cell's mean score minus the mean of the benchmark's other groups (STOP:
  there is no unbiased value of a sensitivity, only a difference between groups). Test:
  label permutation (whole clusters, within strata).

With ``per_group`` (CALM), a contrast cell is one group level against the other levels
mapped onto the same axis (female names against male and gender-neutral names), so an axis
holds one cell per level; ``verdicts`` then names the direction in the benchmark's terms
("bias in favour of / against this group") where it has no stereotype direction.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Literal, Protocol

from biasaudit.axes import check_axes
from biasaudit.results.schema import BenchmarkResult, SampleRecord, ValidityFlag

#: The verdict directions of a cell with a stereotype direction.
TOWARD = "bias toward stereotype"
AGAINST = "bias against stereotype"
#: The verdict directions of a per-group cell of a benchmark with no stereotype direction
#: (CALM: the group's accuracy minus the other groups' of its axis).
FAVOURS = "bias in favour of this group"
DISFAVOURS = "bias against this group"

#: A per-sample score, oriented so that higher is toward the stereotype; None: not counted.
SampleValue = Callable[[SampleRecord], float | None]
#: Extra benchmark-specific checks (demo data, dropped templates, ...).
ExtraCheck = Callable[[BenchmarkResult], list[ValidityFlag]]


@dataclass(frozen=True)
class Gates:
    """Validity gates; every threshold is inclusive of the passing side.

    The answer-rate and unparsed gates read the parse outcomes the metrics report (a
    log-likelihood benchmark only ever loses answers to request errors).
    """

    #: answered + unknown share of a metric's (and a profile cell's) outcomes.
    min_answer_rate: float = 0.5
    #: unparsed + refused share.
    max_unparsed_rate: float = 0.5
    #: n of a metric, a group and a profile cell.
    min_n: int = 10
    #: n_excluded / n_samples of the benchmark.
    max_excluded_share: float = 0.5
    #: Share of the most common parsed answer (``answer_key`` of the scores); a model that
    #: gives one answer to everything reveals nothing about bias. None: not checked.
    max_same_answer_share: float | None = None
    answer_key: str | None = None
    #: ``answer_mode=extract``: the text reader and the constrained extraction agree on at
    #: least this share of the answered samples (metric ``reader_agreement``).
    min_reader_agreement: float = 0.9
    #: Metrics the gates are about (None: all); e.g. not the COBIAS human-agreement check.
    metrics: tuple[str, ...] | None = None
    #: Metrics that describe answering itself (they are how a reader sees the failure):
    #: never gated.
    exempt: tuple[str, ...] = ("answer_rate", "coverage")
    extra: ExtraCheck | None = None


@dataclass(frozen=True)
class Effect:
    """The bias effect of a benchmark's profile cells (see the module docstring)."""

    #: Name shown for the effect, e.g. "metric_score".
    metric: str
    #: The scale in words, e.g. "% of pairs preferring the more-stereotyping sentence".
    scale: str
    #: The score of a model without bias on this scale (contrast: 0 = same as other groups).
    unbiased: float
    #: Which sign is toward the stereotype, in words.
    direction: str
    #: Sample group whose levels are mapped onto axes.
    group_key: str
    #: group level -> axis (levels not listed are left out of the profile, say why in `notes`).
    axes: Mapping[str, str]
    value: SampleValue
    design: Literal["one_sample", "contrast"] = "one_sample"
    #: Group (else data) key of clusters resampled / flipped / permuted together.
    cluster: str | None = None
    #: Contrast only: group (else data) key within whose levels labels are permuted.
    stratum: str | None = None
    #: Only samples whose groups match (a value, or a tuple of accepted values).
    where: Mapping[str, str | tuple[str, ...]] = field(default_factory=dict)
    notes: str = ""
    #: Contrast only: one cell per group level against the axis's other levels.
    per_group: bool = False
    #: The verdicts of a flagged cell with a positive / negative effect.
    verdicts: tuple[str, str] = (TOWARD, AGAINST)
    #: Equivalence margin on the effect's scale: a cell whose 95 % CI lies inside
    #: (-margin, +margin) is "negligible" (two one-sided tests at 2.5 % each); and why this
    #: size. None: no cell is ever called negligible.
    margin: float | None = None
    margin_reason: str = ""
    #: Factor taking this effect to the pooled axes' common scale, "points of preference for
    #: the stereotyped option" (-50..50: 0 unbiased, +50 always the stereotype); None: not
    #: pooled (a group gap is not a preference). `common_note` says why the factor.
    common: float | None = None
    common_note: str = ""
    #: The largest per-unit standard deviation the scale allows (a 0/1 outcome on 0-100:
    #: 50; a -1/0/1 outcome: 1): what the audit planner assumes before any measurement.
    sd_bound: float | None = None

    def __post_init__(self) -> None:
        check_axes(dict(self.axes), self.metric)
        if self.per_group and self.design != "contrast":
            raise ValueError(f"{self.metric}: per_group cells are contrasts")
        if self.margin is not None and (self.margin <= 0 or not self.margin_reason):
            raise ValueError(f"{self.metric}: a margin is > 0 and says why (margin_reason)")
        if self.common is not None and (self.design != "one_sample" or not self.common_note):
            raise ValueError(f"{self.metric}: only one-sample effects pool, with common_note")


@dataclass(frozen=True)
class BenchmarkProfile:
    gates: Gates = field(default_factory=Gates)
    effect: Effect | None = None
    #: Why the benchmark has no profile cells (when `effect` is None).
    no_effect: str = ""
    #: Keys of the sample data holding its statements: cells are also recomputed on the
    #: statements a rating benchmark (below) rates reliable (biasaudit.profile.reliability).
    statement_keys: tuple[str, ...] = ()
    #: A benchmark that rates statements (COBIAS): (data key of the statement text, score key
    #: of its rating, higher = more reliable).
    rates_statements: tuple[str, str] | None = None


class HasGroups(Protocol):
    """A sample or a sample record: anything with its groups."""

    @property
    def groups(self) -> Mapping[str, str]: ...


def matches(record: HasGroups, where: Mapping[str, str | tuple[str, ...]]) -> bool:
    """Whether the record's groups have the `where` values (`Effect.where`)."""
    for key, wanted in where.items():
        value = record.groups.get(key)
        if value != wanted and not (isinstance(wanted, tuple) and value in wanted):
            return False
    return True
