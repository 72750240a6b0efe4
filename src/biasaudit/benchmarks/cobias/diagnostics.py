"""Quality of generated context-added versions (§3.5, Table 2): ED, SS_con, SS_rep.

ED needs no model. SS_con and SS_rep need sentence embeddings (`embed` requests; by default
the `embedded-st` backend, all-MiniLM-L6-v2, the paper's STS model). Versions whose ED exceeds
the threshold (the paper: 40% of the mean template length, 4.93 words on the released set)
can be written out filtered.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, ClassVar, Literal

import numpy as np
from pydantic import Field, field_validator

from biasaudit.benchmarks import Aggregate, BenchmarkOptions, Sample, SampleScore
from biasaudit.benchmarks.cobias import metrics
from biasaudit.benchmarks.cobias.data import Statement
from biasaudit.benchmarks.cobias.jobs import StatementJob
from biasaudit.benchmarks.cobias.templates import clean_version, words
from biasaudit.data import DataStore
from biasaudit.requests import Capability, EmbedRequest, Request
from biasaudit.results.schema import Exchange, MetricValue, SampleRecord, Table

DIAGNOSTIC_COLUMNS = ["id", "n_versions", "ed_mean", "ss_con", "ss_rep", "n_above_threshold"]


class DiagnosticsOptions(BenchmarkOptions):
    ed_mode: metrics.EdMode = Field(default="reference", description="edit-distance variant")
    ed_threshold: float | None = Field(
        default=None,
        ge=0,
        description="ED filter threshold (default: ed_fraction x mean template length in words)",
    )
    ed_fraction: float = Field(default=0.4, gt=0, description="see ed_threshold")
    ss_con_reference: Literal["statement", "template"] = Field(
        default="statement",
        description="SS_con against the statement (the paper) or the template (the repo)",
    )
    embed: bool = Field(default=True, description="SS_con/SS_rep (--no-embed: ED only)")
    ss_rep_sizes: list[int] = Field(
        default_factory=list,
        description="SS_rep of random subsets of these sizes (Fig. 8); empty: not computed",
    )
    ss_rep_runs: int = Field(
        default=10, ge=1, description="seeded draws per statement and size for ss_rep_sizes"
    )

    @field_validator("ss_rep_sizes", mode="before")
    @classmethod
    def _split_commas(cls, value: Any) -> Any:
        """-O ss_rep_sizes=2,5,10 arrives as one string; a single size as an int."""
        if isinstance(value, str):
            return [int(v) for v in value.split(",") if v.strip()]
        if isinstance(value, int):
            return [value]
        return value


class DiagnosticsTask(StatementJob):
    name: ClassVar[str] = "cobias-diagnostics"
    version: ClassVar[str] = "1.0"
    Options = DiagnosticsOptions
    options: DiagnosticsOptions

    def __init__(
        self,
        options: BenchmarkOptions,
        store: DataStore,
        seed: int,
        statements: Sequence[Statement],
        versions: dict[str, list[str]],
    ) -> None:
        kept = [s for s in statements if s.context_points and versions.get(s.id)]
        super().__init__(options, store, seed, kept)
        self.versions = versions
        lengths = [len(words(s.context_points)) for s in self.statements]
        self.threshold = (
            self.options.ed_threshold
            if self.options.ed_threshold is not None
            else metrics.ed_threshold(lengths, self.options.ed_fraction)
            if lengths
            else math.inf
        )

    def required_capabilities(self) -> frozenset[Capability]:
        return frozenset({Capability.EMBED}) if self.options.embed else frozenset()

    def load_samples(self) -> list[Sample]:
        samples = []
        for s in self.statements:
            cleaned = [clean_version(v) for v in self.versions[s.id]]
            samples.append(
                Sample(
                    id=s.id,
                    data={
                        "sentence": s.sentence,
                        "template": s.context_points,
                        "versions": [v for v in cleaned if v],
                    },
                )
            )
        return samples

    def next_requests(self, sample: Sample, exchanges: Sequence[Exchange]) -> list[Request]:
        if exchanges or not self.options.embed:
            return []
        reference = sample.data[
            "sentence" if self.options.ss_con_reference == "statement" else "template"
        ]
        return [EmbedRequest(text=t) for t in [reference, *sample.data["versions"]]]

    def score_sample(self, sample: Sample, exchanges: Sequence[Exchange]) -> SampleScore:
        versions = sample.data["versions"]
        eds = [
            metrics.edit_distance(sample.data["template"], v, self.options.ed_mode)
            for v in versions
        ]
        scores: dict[str, object] = {
            "ed": eds,
            "ed_mean": float(np.mean(eds)) if eds else None,
            "n_above_threshold": sum(e > self.threshold for e in eds),
            "n_versions": len(versions),
        }
        if self.options.embed:
            failed = [e.response.error for e in exchanges if not e.response.ok]
            if failed or len(exchanges) != 1 + len(versions):
                return SampleScore(
                    outcomes=["error"],
                    scores=scores,
                    excluded=True,
                    exclusion_reason=f"error: {failed[0] if failed else 'missing'}",
                )
            vectors = [e.response.embedding or [] for e in exchanges]
            scores["ss_con"] = metrics.ss_con(vectors[0], vectors[1:]) if versions else None
            rep = metrics.ss_rep(vectors[1:])
            scores["ss_rep"] = None if math.isnan(rep) else rep
            if self.options.ss_rep_sizes:
                curve = metrics.ss_rep_curve(
                    vectors[1:], self.options.ss_rep_sizes, self.options.ss_rep_runs, self.seed
                )
                scores["ss_rep_curve"] = {str(n): v for n, v in curve.items()}
        return SampleScore(outcomes=["answered"], scores=scores)

    def aggregate(self, records: Sequence[SampleRecord], seed: int) -> Aggregate:
        done = [r for r in records if not r.excluded]

        def mean_of(key: str, description: str) -> MetricValue:
            values = [r.scores[key] for r in done if r.scores.get(key) is not None]
            return MetricValue(
                name=key,
                value=float(np.mean(values)) if values else None,
                n=len(values),
                description=description,
            )

        n_versions = sum(r.scores["n_versions"] for r in done)
        above = sum(r.scores["n_above_threshold"] for r in done)
        metric_list = [
            mean_of("ed_mean", f"mean ED outside the blanks ({self.options.ed_mode} mode)"),
            MetricValue(
                name="share_above_ed_threshold",
                value=above / n_versions if n_versions else None,
                n=n_versions,
                description=f"versions with ED > {self.threshold:.3g}",
            ),
        ]
        if self.options.embed:
            metric_list.append(
                mean_of("ss_con", f"mean cosine to the {self.options.ss_con_reference}")
            )
            metric_list.append(mean_of("ss_rep", "mean pairwise cosine among versions"))
        table = Table(
            description="generation quality per statement",
            columns=DIAGNOSTIC_COLUMNS,
            rows=[
                [
                    r.sample_id,
                    r.scores.get("n_versions"),
                    r.scores.get("ed_mean"),
                    r.scores.get("ss_con"),
                    r.scores.get("ss_rep"),
                    r.scores.get("n_above_threshold"),
                ]
                for r in records
            ],
        )
        tables = {"diagnostics": table}
        if self.options.ss_rep_sizes:
            tables["ss_rep_curve"] = self._curve_table(done)
        return Aggregate(metrics=metric_list, tables=tables)

    def _curve_table(self, done: Sequence[SampleRecord]) -> Table:
        rows = []
        for n in self.options.ss_rep_sizes:
            values = [
                r.scores["ss_rep_curve"][str(n)]
                for r in done
                if str(n) in r.scores.get("ss_rep_curve", {})
            ]
            rows.append([n, float(np.mean(values)) if values else None, len(values)])
        return Table(
            description=f"mean SS_rep of n random versions ({self.options.ss_rep_runs} draws "
            "per statement; statements with fewer than n versions left out)",
            columns=["n", "ss_rep", "statements"],
            rows=rows,
        )

    def filtered(self, records: Sequence[SampleRecord]) -> dict[str, list[str]]:
        """Versions with ED <= threshold, by statement id."""
        out: dict[str, list[str]] = {}
        for record in records:
            versions = record.data["versions"]
            out[record.sample_id] = [
                v for v, e in zip(versions, record.scores["ed"], strict=True) if e <= self.threshold
            ]
        return out
