"""Pydantic models of everything a run persists.

`results.json` holds one `RunResult`; `samples.jsonl` holds one `SampleRecord` per line.
`biasaudit schema` (and `RunResult.model_json_schema()`) exports the JSON Schema.
"""

from __future__ import annotations

from typing import Any, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, model_validator

from biasaudit.requests import Request, Response
from biasaudit.sampling import SamplePlan

M = TypeVar("M", bound=BaseModel)

SCHEMA_VERSION = "2"
#: Versions of results.json this toolkit reads (v1 metrics are converted on load).
READABLE_SCHEMA_VERSIONS = ("1", "2")


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class GroupValue(_Model):
    """A metric's value for one group (demographic, severity, template, ...)."""

    group: str
    value: float | None
    n: int
    ci_low: float | None = None
    ci_high: float | None = None
    #: Share of each parse outcome (answered, unknown, refused, unparsed, error) in the group.
    outcome_rates: dict[str, float] = Field(default_factory=dict)
    #: This group's interval method when it is not the metric's (CIInfo.method), e.g.
    #: "wilson-clusters", or "none: <reason>" when the group has no interval.
    ci_method: str | None = None


class CIInfo(_Model):
    """How a confidence interval was computed: what was resampled, how often, at what level."""

    #: "bootstrap" (percentile), "wilson" (score interval of a proportion), "wilson-clusters"
    #: (Wilson with n = the number of clusters), "none", or a legacy v1 free-text description.
    #: The rule: biasaudit.metrics.intervals.
    method: str = "bootstrap"
    n_resamples: int | None = None
    level: float = 0.95
    #: Samples sharing this key are resampled together (a cluster bootstrap).
    cluster_by: str | None = None
    #: Resampling happens within each level of this key (a stratified bootstrap).
    stratify_by: str | None = None
    #: Why the metric has no interval (zero-width, excludes its estimate, too few samples).
    unavailable_reason: str | None = None

    def describe(self) -> str:
        if self.unavailable_reason:
            return f"no interval: {self.unavailable_reason}"
        if self.method == "wilson":
            return "Wilson score interval of a proportion"
        if self.method == "wilson-clusters":
            return f"Wilson score interval with n = the number of {self.cluster_by} clusters"
        if self.method != "bootstrap":
            return self.method
        unit = f"whole {self.cluster_by} clusters" if self.cluster_by else "samples"
        within = f" within {self.stratify_by}" if self.stratify_by else ""
        return f"percentile bootstrap, {self.n_resamples} resamples of {unit}{within}"


class NoiseFloor(_Model):
    """The between-group gap expected from chance alone: a permutation null distribution.

    Group labels are shuffled (within `permuted_within`, when set) and the gap recomputed;
    a gap near `null_mean` is what a model with no group difference would show.
    """

    n_permutations: int
    permuted_within: str | None = None
    #: Key whose levels moved as wholes (a cluster, or a block whose label is constant);
    #: None: single samples' labels were shuffled. See biasaudit.metrics.floors.
    permuted_unit: str | None = None
    observed: float | None = None
    null_mean: float | None = None
    null_p95: float | None = None
    #: (1 + #null >= observed) / (1 + n_permutations).
    p_value: float | None = None


class Breakdown(_Model):
    """A metric computed separately for each level of one grouping."""

    by: str
    groups: list[GroupValue] = Field(default_factory=list)
    #: max - min and min / max over the groups' values (None with fewer than two groups).
    gap: float | None = None
    ratio: float | None = None
    noise_floor: NoiseFloor | None = None
    #: Why a floor was asked for and is absent (no shuffle can change the groups).
    noise_floor_reason: str | None = None


class ContrastValue(_Model):
    """A signed contrast between two groups of one key: mean(a) - mean(b).

    Declared by `biasaudit.metrics.contrasts.Contrast`; `b` is "*rest*" for every sample not
    in `a`. The CI bootstraps the difference with the metric's clusters and strata; the
    noise floor is the permutation null of |a - b| (its p-value is two-sided).
    """

    name: str
    by: str
    a: str
    b: str
    value: float | None
    value_a: float | None = None
    value_b: float | None = None
    n_a: int = 0
    n_b: int = 0
    ci_low: float | None = None
    ci_high: float | None = None
    noise_floor: NoiseFloor | None = None
    noise_floor_reason: str | None = None
    undefined_reason: str | None = None


class MetricValue(_Model):
    """One headline metric with its uncertainty, its definition and its breakdowns."""

    name: str
    value: float | None
    n: int
    ci_low: float | None = None
    ci_high: float | None = None
    ci: CIInfo | None = None
    description: str = ""
    higher_is_better: bool | None = None
    #: The per-sample score the statistic was computed over (None: not a per-sample statistic).
    score_key: str | None = None
    #: "mean" for per-sample averages, else the name of the benchmark's statistic.
    statistic: str = "mean"
    #: Citation of the formula (paper section / equation).
    reference: str = ""
    #: Filter on sample groups applied before computing (e.g. {"severity": "low"}).
    where: dict[str, str] = Field(default_factory=dict)
    #: Whether excluded samples' scores were counted too.
    include_excluded: bool = False
    breakdowns: list[Breakdown] = Field(default_factory=list)
    #: Signed contrasts between two groups (see ContrastValue).
    contrasts: list[ContrastValue] = Field(default_factory=list)
    #: For scores that are themselves a between-group gap: the permutation null.
    noise_floor: NoiseFloor | None = None
    outcome_rates: dict[str, float] = Field(default_factory=dict)
    n_excluded: int = 0
    #: Why `value` is None, when it is.
    undefined_reason: str | None = None

    @model_validator(mode="before")
    @classmethod
    def _from_v1(cls, data: Any) -> Any:
        """Schema v1 stored one grouping (group_by/by_group) and a free-text ci_method."""
        if not isinstance(data, dict) or not (V1_METRIC_FIELDS & data.keys()):
            return data
        data = dict(data)
        method = data.pop("ci_method", None)
        level = data.pop("ci_level", 0.95)
        group_by = data.pop("group_by", None)
        by_group = data.pop("by_group", None) or []
        gap = data.pop("group_gap", None)
        ratio = data.pop("group_ratio", None)
        if method is not None and "ci" not in data:
            data["ci"] = {"method": f"v1: {method}", "level": level}
        if by_group and "breakdowns" not in data:
            data["breakdowns"] = [
                {"by": group_by or "group", "groups": by_group, "gap": gap, "ratio": ratio}
            ]
        return data

    def breakdown(self, by: str) -> Breakdown:
        for item in self.breakdowns:
            if item.by == by:
                return item
        raise KeyError(f"metric '{self.name}' has no breakdown by '{by}'")

    @property
    def by_group(self) -> list[GroupValue]:
        """The first breakdown's groups (empty without breakdowns)."""
        return self.breakdowns[0].groups if self.breakdowns else []

    @property
    def group_by(self) -> str | None:
        return self.breakdowns[0].by if self.breakdowns else None

    @property
    def ci_level(self) -> float:
        return self.ci.level if self.ci is not None else 0.95

    @property
    def ci_method(self) -> str | None:
        """One-line description of the CI (for tables and exports)."""
        return self.ci.describe() if self.ci is not None else None


#: Fields of a v1 MetricValue that v2 replaced.
V1_METRIC_FIELDS = frozenset(
    {"ci_method", "ci_level", "group_by", "by_group", "group_gap", "group_ratio"}
)


class Table(_Model):
    """A benchmark-specific table (e.g. STOP's per-step curve) for reports and exports."""

    description: str = ""
    columns: list[str]
    rows: list[list[Any]]


class DataFileInfo(_Model):
    path: str
    sha256: str


class ModelInfo(_Model):
    spec: str
    backend: str
    identity: dict[str, Any]
    fingerprint: str
    chat_as_transcript: bool = False


class ToolkitInfo(_Model):
    version: str
    git_revision: str | None = None
    python: str


class ValidityFlag(_Model):
    """One validity gate a benchmark or one of its metrics failed (or is warned about)."""

    #: answer_rate, unparsed, min_n, excluded, same_answer, demo_data, templates_dropped,
    #: transcript, not_a_model_measure, ...
    gate: str
    #: fail: the number is not shown ("not measurable: <message>"); warn: shown with the note.
    severity: Literal["fail", "warn"]
    #: e.g. "answer rate 0 % (< 50 %)".
    message: str
    #: The metric the flag is about; None: the whole benchmark.
    metric: str | None = None


class Validity(_Model):
    """The validity gates checked before any number of a benchmark is shown (biasaudit.profile)."""

    status: Literal["measurable", "partly measurable", "not measurable"] = "measurable"
    flags: list[ValidityFlag] = Field(default_factory=list)

    def reason(self, metric: str | None = None) -> str | None:
        """Why `metric` (None: the benchmark) is not measurable, or None when it is."""
        for flag in self.flags:
            if flag.severity == "fail" and flag.metric in (None, metric):
                return flag.message
        return None

    def warnings(self, metric: str | None = None) -> list[str]:
        return [
            f.message for f in self.flags if f.severity == "warn" and f.metric in (None, metric)
        ]


class BenchmarkResult(_Model):
    benchmark: str
    version: str
    options: dict[str, Any] = Field(default_factory=dict)
    data_files: list[DataFileInfo] = Field(default_factory=list)
    prompt_template_ids: list[str] = Field(default_factory=list)
    n_samples: int
    n_excluded: int = 0
    #: sha256 over the sorted per-sample hashes: two runs with the same value saw the same data.
    samples_hash: str
    metrics: list[MetricValue]
    tables: dict[str, Table] = Field(default_factory=dict)
    requests_sent: int = 0
    requests_cached: int = 0
    requests_failed: int = 0
    #: Samples excluded because a request of theirs failed (server down, malformed answer):
    #: not a property of the model, so the run is not complete (see RunResult.status).
    n_request_errors: int = 0
    wall_time_s: float = 0.0
    #: How the samples were drawn (a suite or ``run --sample``); None: all, or --limit/--shard.
    sample_plan: SamplePlan | None = None
    #: sha256 over the sorted per-sample hashes of (sample hash, exchanges): a stored answer
    #: that was edited or dropped changes it. None in results written before it was recorded.
    exchanges_hash: str | None = None
    #: Validity gates (None in results written before they existed).
    validity: Validity | None = None

    def metric(self, name: str) -> MetricValue:
        for metric in self.metrics:
            if metric.name == name:
                return metric
        raise KeyError(f"no metric '{name}' in {self.benchmark} results")


class RunResult(_Model):
    schema_version: str = SCHEMA_VERSION
    toolkit: ToolkitInfo
    created_at: str
    model: ModelInfo
    seed: int
    batch_size: int
    limit: int | None = None
    shard: str | None = None
    benchmarks: list[BenchmarkResult]
    #: complete: every planned benchmark finished and request failures stayed within the
    #: threshold; partial: some benchmarks did not finish (interrupted, killed) or some samples
    #: were lost to request errors; failed: nothing usable (every sample lost, or no samples).
    status: Literal["complete", "partial", "failed"] = "complete"
    #: Why the status is not complete (None when it is).
    status_reason: str | None = None
    #: The benchmarks the run was asked for, in order (finished ones are in `benchmarks`).
    benchmarks_planned: list[str] = Field(default_factory=list)
    #: Benchmarks an audit left out, with the reason (the model cannot serve them).
    skipped: dict[str, str] = Field(default_factory=dict)
    #: Benchmarks an audit started that stopped with an error, with the error.
    failed: dict[str, str] = Field(default_factory=dict)
    #: What decides the samples and their scoring (run.json but the model, its arguments and
    #: the shard index; see biasaudit.results.plan): shards merge only with the same plan.
    plan: dict[str, Any] | None = None

    def benchmark(self, name: str) -> BenchmarkResult:
        for result in self.benchmarks:
            if result.benchmark == name:
                return result
        raise KeyError(f"no benchmark '{name}' in this run")


#: Fixed leading columns of `biasaudit.to_dataframe(run)` (biasaudit.profile.frame).
DATAFRAME_COLUMNS = (
    "model",
    "benchmark",
    "metric",
    "group_by",
    "group",
    "value",
    "n",
    "ci_low",
    "ci_high",
    "ci_level",
    "ci_method",
    "higher_is_better",
    "n_excluded",
    "not_measurable",
)


class Exchange(_Model):
    """One request and its response, as stored in samples.jsonl."""

    request: Request
    response: Response


class SampleRecord(_Model):
    """One line of samples.jsonl: a sample, everything sent for it, and how it was scored."""

    benchmark: str
    sample_id: str
    sample_hash: str
    groups: dict[str, str] = Field(default_factory=dict)
    data: dict[str, Any] = Field(default_factory=dict)
    exchanges: list[Exchange] = Field(default_factory=list)
    #: Parse outcome(s) of generated answers, e.g. ["answered", "refused", ...].
    outcomes: list[str] = Field(default_factory=list)
    scores: dict[str, Any] = Field(default_factory=dict)
    excluded: bool = False
    exclusion_reason: str | None = None

    def scores_as(self, model: type[M]) -> M:
        """The scores as the benchmark's typed model (``record.scores_as(STOPScores)``)."""
        return model.model_validate(self.scores)


def json_schemas() -> dict[str, Any]:
    """JSON Schemas of results.json and of one samples.jsonl line."""
    return {
        "results.json": RunResult.model_json_schema(),
        "samples.jsonl": SampleRecord.model_json_schema(),
    }
