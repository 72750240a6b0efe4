"""What a benchmark is to the runner: the plug-in contract (`Benchmark`, `Sample`, ...).

These base classes live in the core, outside the `biasaudit.benchmarks` package, so that
discovery (`biasaudit.plugin`) imports no plug-in API and the plug-in API imports no discovery.
Benchmarks import them through the plug-in API, `biasaudit.benchmarks`.

A benchmark turns its dataset into `Sample`s and drives each sample through one or more rounds
of requests: `next_requests(sample, exchanges)` sees everything already answered for that
sample and returns the next requests, or an empty list when the sample is finished. Single-turn
benchmarks return all their requests in round one; multi-turn ones (STOP's growing
conversation) return one request per round. The runner batches each round across all samples.

Scoring is separate from running: `score_sample` and `aggregate` need only the stored
exchanges, so `biasaudit score RUN_DIR` recomputes results from samples.jsonl without a model.
"""

from __future__ import annotations

import hashlib
import json
from abc import ABC, abstractmethod
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

from pydantic import BaseModel, ConfigDict

from biasaudit import extraction
from biasaudit.benchmark_spec import Declaration
from biasaudit.metrics.frame import MetricSpec, frame
from biasaudit.requests import Capability, Request
from biasaudit.results.schema import Exchange, MetricValue, SampleRecord, Table

if TYPE_CHECKING:
    from biasaudit.data import DataStore


class BenchmarkOptions(BaseModel):
    """Base class of a benchmark's options; unknown option names are rejected."""

    model_config = ConfigDict(extra="forbid")


@dataclass(frozen=True)
class Sample:
    """One unit of a benchmark: a stable id, JSON-serialisable data, and its groups."""

    id: str
    data: dict[str, Any]
    groups: dict[str, str] = field(default_factory=dict)

    @property
    def hash(self) -> str:
        payload = json.dumps([self.id, self.data], sort_keys=True, ensure_ascii=False)
        return hashlib.sha256(payload.encode("utf-8")).hexdigest()


@dataclass
class SampleScore:
    """What `score_sample` returns for one sample."""

    outcomes: list[str] = field(default_factory=list)
    scores: dict[str, Any] = field(default_factory=dict)
    excluded: bool = False
    exclusion_reason: str | None = None


@dataclass
class Aggregate:
    """What `aggregate` returns: headline metrics and benchmark-specific tables."""

    metrics: list[MetricValue]
    tables: dict[str, Table] = field(default_factory=dict)


def _check_unique(specs: Sequence[MetricSpec], owner: str) -> None:
    seen: set[tuple[str, tuple[tuple[str, str], ...]]] = set()
    for spec in specs:
        key = (spec.name, tuple(sorted(spec.where.items())))
        if key in seen:
            raise ValueError(f"{owner} declares metric '{spec.name}' twice")
        seen.add(key)


class Benchmark(ABC):
    """Base class of benchmarks. Subclasses set the class attributes and the abstract methods."""

    name: ClassVar[str]
    version: ClassVar[str]
    description: ClassVar[str] = ""
    Options: ClassVar[type[BenchmarkOptions]] = BenchmarkOptions
    #: Declared per-sample metrics, computed by the inherited `aggregate` (metrics.frame).
    metrics: ClassVar[Sequence[MetricSpec]] = ()
    #: Optional pydantic model of `SampleScore.scores`; validated for every scored sample.
    Scores: ClassVar[type[BaseModel] | None] = None
    #: Keys of `Sample.data` that `aggregate`, `extra_metrics` and `tables` read (the keys
    #: the declared metrics group, cluster or stratify by are added); None: all of them.
    #: A run streaming its samples keeps only these per sample in memory (runner/compact.py).
    aggregate_data_keys: ClassVar[frozenset[str] | None] = None
    #: What the benchmark declares (spec, profile, sources), attached when discovery builds
    #: the object (`biasaudit.plugin.build`); None for one built outside discovery (a
    #: test's, a `Job`), which gets the default validity gates.
    declaration: Declaration | None = None

    def __init__(self, options: BenchmarkOptions, store: DataStore, seed: int = 0) -> None:
        self.options = options
        self.store = store
        #: The run seed; benchmarks use it for sampling decodes and any random choice.
        self.seed = seed

    @classmethod
    def from_dict(cls, options: dict[str, Any], store: DataStore, seed: int = 0) -> Benchmark:
        from biasaudit.options import parse_options

        return cls(parse_options(cls.Options, options, cls.name), store, seed)

    @abstractmethod
    def required_capabilities(self) -> frozenset[Capability]:
        """Request kinds this benchmark (with its options) will emit."""

    def bind_backend(self, capabilities: frozenset[Capability]) -> None:
        """Settle options that depend on the model, e.g. an "auto" estimator choice.

        The runner calls this before the capability check; the default does nothing.
        """
        return None

    @abstractmethod
    def data_keys(self) -> list[str]:
        """Pinned data source keys this benchmark reads (see biasaudit.data)."""

    def user_files(self) -> list[str]:
        """Files (or folders) outside the pinned store that the options point at (e.g. a
        custom data file). A run loads the samples, and so reads and checks these, before it
        writes anything, and records each with its sha256 in results.json's `data_files`."""
        return []

    @abstractmethod
    def load_samples(self) -> list[Sample]:
        """All samples, in a deterministic order."""

    def iter_samples(self) -> Iterable[Sample]:
        """The samples of `load_samples`, in the same order, for the runner.

        The default is that list. A benchmark with very many samples (CALM: 78,400) returns
        a generator instead, so a run holds only the samples in flight; errors in the data
        should still be raised by this call, before the first sample is taken.
        """
        return self.load_samples()

    def samples(self) -> Iterable[Sample]:
        """`iter_samples`, read once per object: what the planner, the progress bar and the
        run engine iterate. A list is kept and given again; a benchmark that streams its
        samples (a generator, so that a run never holds them all) is read on every call."""
        kept: Sequence[Sample] | None = self.__dict__.get("_kept_samples")
        if kept is not None:
            return kept
        found = self.iter_samples()
        if isinstance(found, Sequence):
            self.__dict__["_kept_samples"] = found
        return found

    @abstractmethod
    def next_requests(self, sample: Sample, exchanges: Sequence[Exchange]) -> list[Request]:
        """The next round of requests for `sample`, or [] when it is finished."""

    @abstractmethod
    def score_sample(self, sample: Sample, exchanges: Sequence[Exchange]) -> SampleScore:
        """Parse and score one finished sample."""

    def metric_specs(self) -> Sequence[MetricSpec]:
        """The declared metrics for these options (override when options change them)."""
        return self.metrics

    def extra_metrics(self, records: Sequence[SampleRecord], seed: int) -> list[MetricValue]:
        """Metrics that are not per-sample means: declare each as a `StatisticSpec` and build
        it with `frame`."""
        return []

    def tables(self, records: Sequence[SampleRecord]) -> dict[str, Table]:
        """Benchmark-specific tables (curves, per-item listings) for reports and exports."""
        return {}

    def aggregate(self, records: Sequence[SampleRecord], seed: int) -> Aggregate:
        """Every declared metric (overall, breakdowns, CIs, noise floors), extras and tables.

        `records` (here and in `extra_metrics` / `tables`) may be compact: a run that streams
        its samples to samples.jsonl keeps each record's groups, data, outcomes, scores and
        exclusion, but not its exchanges (see runner/compact.py). Aggregates read scores,
        never responses: whatever they need from a response belongs in `scores`. In a run,
        `records` is also lazy (each record is rebuilt when read, and not kept): iterate it,
        take columns (lists of scores and labels), and do not index it in a loop.
        """
        # answer_mode=extract: the readers' agreement (biasaudit.extraction), for every benchmark
        specs = [*self.metric_specs(), *extraction.metric_specs(self.options)]
        _check_unique(specs, self.name)
        metrics = [frame(records, spec, seed) for spec in specs]
        metrics += self.extra_metrics(records, seed)
        tables = self.tables(records)
        if extraction.metric_specs(self.options):
            tables |= extraction.tables(records)
        return Aggregate(metrics=metrics, tables=tables)

    def prompt_template_ids(self) -> list[str]:
        return []

    def expected_requests(self, sample: Sample) -> int | None:
        """How many requests `sample` will need, if known (for the progress bar)."""
        return None

    def validate(self) -> list[str]:
        """Check data and that every prompt renders; return problems (empty when fine)."""
        problems: list[str] = []
        for sample in self.load_samples():
            try:
                self.next_requests(sample, [])
            except Exception as exc:  # report every broken sample, not just the first
                problems.append(f"sample {sample.id}: {exc}")
        return problems


class Job(Benchmark):
    """Work an analysis hands to the run engine (`Context.run`) over inputs it was given.

    A job is run exactly like a benchmark (batched, cached, capability-checked, scored and
    aggregated) but it is not one: it has no `BenchmarkSpec`, is never discovered or listed,
    and reads no pinned data. Examples: generating templates for given statements,
    embedding given versions.
    """

    #: The request kind the job emits; None for a job that needs no model.
    capability: ClassVar[Capability | None] = None

    def required_capabilities(self) -> frozenset[Capability]:
        return frozenset({self.capability}) if self.capability else frozenset()

    def data_keys(self) -> list[str]:
        return []
