"""The persisted bias profile (profile.json): pydantic models."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

# the verdict directions, declared with the profile spec (plug-in API), re-exported here
from biasaudit.profile_spec import AGAINST as AGAINST
from biasaudit.profile_spec import DISFAVOURS as DISFAVOURS
from biasaudit.profile_spec import FAVOURS as FAVOURS
from biasaudit.profile_spec import TOWARD as TOWARD
from biasaudit.results.schema import Validity

PROFILE_SCHEMA_VERSION = "1"

#: "negligible: |effect| < MARGIN": the 95 % CI lies inside the benchmark's declared margin.
NEGLIGIBLE = "negligible"
#: "inconclusive: could not detect less than MDE": neither a finding nor negligible.
INCONCLUSIVE = "inconclusive"
#: The verdict of profiles written before MDEs (read back, never written).
NONE_DETECTED = "no detectable bias at this n"
NOT_MEASURABLE = "not measurable"
#: The row of each benchmark's headline effect over all its items (every axis pooled).
OVERALL = "overall"
#: The column of an axis pooled over benchmarks (random-effects meta-analysis).
POOLED = "pooled"


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ProfileCell(_Model):
    """One axis x benchmark cell: a signed effect, its uncertainty, its test and verdict."""

    axis: str
    benchmark: str
    metric: str
    #: The benchmark's own groups pooled into this cell.
    groups: list[str]
    #: A per-group cell's group (its axis holds one cell per group); "" otherwise.
    group: str = ""
    design: str
    unbiased: float
    #: Mean score on the benchmark's scale (one_sample) or the group's mean (contrast).
    value: float | None = None
    #: Signed: value - unbiased (one_sample) or group - others (contrast); + = toward stereotype.
    effect: float | None = None
    ci_low: float | None = None
    ci_high: float | None = None
    #: What the CI resampled.
    ci_method: str = ""
    p_value: float | None = None
    #: The test behind p_value.
    test: str = ""
    #: Benjamini-Hochberg adjusted p-value over every tested cell of the profile.
    q_value: float | None = None
    n: int = 0
    n_clusters: int = 0
    answer_rate: float | None = None
    #: Minimum detectable effect (80 % power, two-sided, at `alpha_used`), on the effect's
    #: scale (biasaudit.metrics.power); None when not measurable.
    mde: float | None = None
    #: The per-cell level Benjamini-Hochberg applied (alpha (R+1)/m, or alpha R/m if flagged).
    alpha_used: float | None = None
    #: The benchmark's equivalence margin on the effect's scale (None: not declared).
    margin: float | None = None
    #: Pooled cells only: benchmarks combined, between-benchmark variance and I^2 (%).
    k: int = 0
    tau2: float | None = None
    i2: float | None = None
    #: toward / against (or the benchmark's wording), "negligible: |effect| < M",
    #: "inconclusive: could not detect less than X", or "not measurable: <reason>".
    verdict: str = NOT_MEASURABLE
    #: CrowS-Pairs / StereoSet only: the cell recomputed on statements COBIAS rates reliable.
    reliable: ProfileCell | None = None

    @property
    def measurable(self) -> bool:
        return not self.verdict.startswith(NOT_MEASURABLE)

    @property
    def flagged(self) -> bool:
        """A bias verdict (either direction, in any benchmark's terms)."""
        return self.measurable and not self.verdict.startswith(
            (NEGLIGIBLE, INCONCLUSIVE, NONE_DETECTED, "descriptive")
        )

    @property
    def negligible(self) -> bool:
        return self.verdict.startswith(NEGLIGIBLE)

    @property
    def label(self) -> str:
        """The row label: the axis, and the group of a per-group cell."""
        return f"{self.axis}: {self.group}" if self.group else self.axis


class BenchmarkColumn(_Model):
    benchmark: str
    metric: str = ""
    scale: str = ""
    unbiased: float | None = None
    direction: str = ""
    design: str = ""
    #: Why the benchmark has no cells (not a model measure, no axis mapping, ...).
    no_cells: str = ""
    notes: str = ""
    validity: Validity = Field(default_factory=Validity)
    samples_hash: str = ""
    version: str = ""


class Profile(_Model):
    schema_version: str = PROFILE_SCHEMA_VERSION
    model: str
    run_dir: str | None = None
    alpha: float = 0.05
    #: How the verdicts control the false discovery rate.
    fdr: str = ""
    n_tests: int = 0
    axes: list[str] = Field(default_factory=list)
    benchmarks: list[BenchmarkColumn] = Field(default_factory=list)
    cells: list[ProfileCell] = Field(default_factory=list)
    #: How the COBIAS reliability filter was applied, or why not.
    cobias_filter: str = ""

    def cell(self, axis: str, benchmark: str, group: str = "") -> ProfileCell | None:
        for cell in self.cells:
            if (cell.axis, cell.benchmark, cell.group) == (axis, benchmark, group):
                return cell
        return None

    def cells_at(self, axis: str, benchmark: str) -> list[ProfileCell]:
        """Every cell of the axis and benchmark (one, or one per group of a per-group one)."""
        return [c for c in self.cells if c.axis == axis and c.benchmark == benchmark]
