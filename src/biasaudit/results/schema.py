"""Pydantic models of everything a run persists.

`results.json` holds one `RunResult`; `samples.jsonl` holds one `SampleRecord` per line.
`biasaudit schema` (and `RunResult.model_json_schema()`) exports the JSON Schema.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from biasaudit.requests import Request, Response

SCHEMA_VERSION = "1"


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


class MetricValue(_Model):
    """One headline metric with its uncertainty and its breakdown by group."""

    name: str
    value: float | None
    n: int
    ci_low: float | None = None
    ci_high: float | None = None
    ci_level: float = 0.95
    #: How the CI was computed, e.g. "bootstrap(1000, cluster=template)".
    ci_method: str | None = None
    description: str = ""
    higher_is_better: bool | None = None
    #: Name of the grouping used by `by_group` (e.g. "demographic").
    group_by: str | None = None
    by_group: list[GroupValue] = Field(default_factory=list)
    #: max - min over groups, and min / max, where groups are present.
    group_gap: float | None = None
    group_ratio: float | None = None
    outcome_rates: dict[str, float] = Field(default_factory=dict)
    n_excluded: int = 0


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
    wall_time_s: float = 0.0

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

    def benchmark(self, name: str) -> BenchmarkResult:
        for result in self.benchmarks:
            if result.benchmark == name:
                return result
        raise KeyError(f"no benchmark '{name}' in this run")

    def to_dataframe(self) -> Any:
        """One row per (benchmark, metric, group); group is '' for the overall value.

        Columns: model, benchmark, metric, group_by, group, value, n, ci_low, ci_high, then
        ci_level, ci_method, higher_is_better, n_excluded (None on group rows) and one
        ``rate_<outcome>`` column per parse outcome seen anywhere in the run (share of answers;
        0 when the row has outcome rates but not that one, None when it has none).
        """
        import pandas as pd

        labels = sorted(
            {k for b in self.benchmarks for m in b.metrics for k in m.outcome_rates}
            | {
                k
                for b in self.benchmarks
                for m in b.metrics
                for g in m.by_group
                for k in g.outcome_rates
            }
        )

        def rates(shares: dict[str, float]) -> dict[str, float | None]:
            return {f"rate_{k}": shares.get(k, 0.0) if shares else None for k in labels}

        rows: list[dict[str, Any]] = []
        for bench in self.benchmarks:
            for metric in bench.metrics:
                base = {
                    "model": self.model.spec,
                    "benchmark": bench.benchmark,
                    "metric": metric.name,
                }
                extra = {
                    "ci_level": metric.ci_level,
                    "ci_method": metric.ci_method,
                    "higher_is_better": metric.higher_is_better,
                }
                rows.append(
                    base
                    | {
                        "group_by": "",
                        "group": "",
                        "value": metric.value,
                        "n": metric.n,
                        "ci_low": metric.ci_low,
                        "ci_high": metric.ci_high,
                    }
                    | extra
                    | {"n_excluded": metric.n_excluded}
                    | rates(metric.outcome_rates)
                )
                for group in metric.by_group:
                    rows.append(
                        base
                        | {
                            "group_by": metric.group_by or "",
                            "group": group.group,
                            "value": group.value,
                            "n": group.n,
                            "ci_low": group.ci_low,
                            "ci_high": group.ci_high,
                        }
                        | extra
                        | {"n_excluded": None}
                        | rates(group.outcome_rates)
                    )
        return pd.DataFrame(rows, columns=[*DATAFRAME_COLUMNS, *(f"rate_{k}" for k in labels)])


#: Fixed leading columns of `RunResult.to_dataframe()`.
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


def json_schemas() -> dict[str, Any]:
    """JSON Schemas of results.json and of one samples.jsonl line."""
    return {
        "results.json": RunResult.model_json_schema(),
        "samples.jsonl": SampleRecord.model_json_schema(),
    }
