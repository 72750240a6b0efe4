"""Typed analyses: a benchmark's extra workflows, run by the core.

An `Analysis` is a name, a pydantic argument model and a function
``run(args, ctx) -> AnalysisResult``. The core CLI turns the argument model into
``biasaudit BENCHMARK ANALYSIS --field value`` (help text from the field descriptions), and
`Context.run` is the only way an analysis gets model outputs: through the one run engine,
with the response cache, the capability check and the progress bar. A benchmark package
never builds argparse, never opens a backend and never writes JSON outside this schema.

`reproduce` is the analysis that recomputes the authors' released numbers; its result's
checks decide the exit status.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from pydantic import BaseModel, ConfigDict, Field, computed_field

from biasaudit.data import DataStore
from biasaudit.results.schema import MetricValue, Table

if TYPE_CHECKING:
    from biasaudit.contract import Aggregate, Benchmark
    from biasaudit.results.schema import BenchmarkResult, ModelInfo, SampleRecord


class Check(BaseModel):
    """A released number and its recomputation: passes when within `tolerance`."""

    name: str
    expected: float | int | str
    actual: float | int | str | None
    tolerance: float = 0.0

    def __init__(
        self,
        name: str,
        expected: float | int | str,
        actual: float | int | str | None,
        tolerance: float = 0.0,
    ) -> None:
        super().__init__(name=name, expected=expected, actual=actual, tolerance=tolerance)

    @computed_field  # type: ignore[prop-decorator]
    @property
    def passed(self) -> bool:
        if self.actual is None:
            return False
        if isinstance(self.expected, str) or isinstance(self.actual, str):
            return self.expected == self.actual
        return abs(float(self.actual) - float(self.expected)) <= self.tolerance


class AnalysisResult(BaseModel):
    """What an analysis returns and `--json` prints: checks, metrics, tables, notes, files."""

    model_config = ConfigDict(extra="forbid")

    benchmark: str
    analysis: str = "reproduce"
    source: str = ""
    checks: list[Check] = Field(default_factory=list)
    metrics: list[MetricValue] = Field(default_factory=list)
    tables: dict[str, Table] = Field(default_factory=dict)
    notes: list[str] = Field(default_factory=list)
    #: Files the analysis wrote.
    files: list[str] = Field(default_factory=list)

    @computed_field  # type: ignore[prop-decorator]
    @property
    def ok(self) -> bool:
        return all(check.passed for check in self.checks)

    def to_dict(self) -> dict[str, Any]:
        return self.model_dump(mode="json")

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=2, ensure_ascii=False)

    def render(self) -> str:
        from biasaudit.textfmt import format_table

        title = f"{self.benchmark} {self.analysis}"
        lines = [f"{title}: {self.source}" if self.source else title, ""]
        if self.metrics:
            rows = [[m.name, m.value, m.ci_low, m.ci_high, m.n] for m in self.metrics]
            lines += [format_table(["metric", "value", "ci_low", "ci_high", "n"], rows), ""]
        for name, table in self.tables.items():
            lines.append(f"{name}: {table.description}" if table.description else name)
            lines.append(format_table(table.columns, table.rows))
            lines.append("")
        if self.checks:
            rows = [
                [c.name, c.expected, c.actual, c.tolerance, "ok" if c.passed else "FAIL"]
                for c in self.checks
            ]
            lines.append(format_table(["check", "expected", "actual", "tolerance", ""], rows))
        lines.extend(f"note: {n}" for n in self.notes)
        lines.extend(f"wrote {f}" for f in self.files)
        if self.checks:
            passed = sum(c.passed for c in self.checks)
            lines.append(f"{passed}/{len(self.checks)} checks passed")
        return "\n".join(lines).rstrip()


class NoArgs(BaseModel):
    """An analysis without arguments."""

    model_config = ConfigDict(extra="forbid")


A = TypeVar("A", bound=BaseModel)


@dataclass
class Context:
    """What an analysis may use: data, seed, an output folder, and the run engine."""

    store: DataStore
    seed: int = 0
    output_dir: Path | None = None
    progress: bool = True
    cache_path: str | Path | None = None
    use_cache: bool = True
    #: Filled by `run`: every model run this analysis made, for the record.
    runs: list[str] = field(default_factory=list)
    #: Filled by `run`: the model of each run (spec, backend, fingerprint), in order.
    models: list[ModelInfo] = field(default_factory=list)

    def __post_init__(self) -> None:
        # absolute once: a file path handed on (a held-out split, a sub-run's folder) must not
        # be resolved against another folder later (a relative --output crashed beads debias)
        if self.output_dir is not None:
            self.output_dir = Path(self.output_dir).absolute()

    def run(
        self,
        benchmark: Benchmark,
        model: str,
        model_args: dict[str, Any] | None = None,
        *,
        batch_size: int | None = None,
        limit: int | None = None,
    ) -> tuple[BenchmarkResult, list[SampleRecord]]:
        """Run `benchmark` (or a `Job`) on `model` through the engine (cache, capability
        check, progress)."""
        from biasaudit.profile.validity import judge
        from biasaudit.runner.engine import run_one

        self.runs.append(f"{benchmark.name} on {model}")
        run, records = run_one(
            benchmark,
            model,
            model_args,
            cache_path=self.cache_path,
            use_cache=self.use_cache,
            seed=self.seed,
            batch_size=batch_size,
            limit=limit,
            progress=self.progress,
            judge=judge,
        )
        self.models.append(run.model)
        return run.benchmarks[0], records

    def score(self, job: Benchmark) -> tuple[Aggregate, list[SampleRecord]]:
        """Score and aggregate a job that sends no request (e.g. model-free diagnostics)."""
        from biasaudit.runner.engine import score_offline

        return score_offline(job, seed=self.seed)

    def output_path(self, name: str) -> Path:
        """A file in the analysis' output folder (created on demand; --output is required)."""
        from biasaudit.errors import RunError

        if self.output_dir is None:
            raise RunError("this analysis writes files: pass --output DIR")
        if self.output_dir.exists() and not self.output_dir.is_dir():
            raise RunError(f"{self.output_dir}: not a directory (--output names a folder)")
        try:
            self.output_dir.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise RunError(f"{self.output_dir}: cannot create ({exc.strerror or exc})") from None
        return self.output_dir / name


@dataclass(frozen=True)
class Analysis(Generic[A]):
    """A named, typed workflow of a benchmark."""

    name: str
    description: str
    Args: type[A]
    run: Callable[[A, Context], AnalysisResult]


def reproduction(
    function: Callable[[DataStore], AnalysisResult], description: str
) -> Analysis[NoArgs]:
    """Wrap a ``reproduce(store)`` function as the benchmark's `reproduce` analysis."""
    return Analysis(
        name="reproduce",
        description=description,
        Args=NoArgs,
        run=lambda _args, ctx: function(ctx.store),
    )


def analysis_of(benchmark: str, name: str) -> Analysis:
    """One analysis a benchmark declares, with did-you-mean for unknown names."""
    from biasaudit.errors import UnknownNameError
    from biasaudit.importing import did_you_mean, import_object
    from biasaudit.plugin import get_spec

    spec = get_spec(benchmark)
    if name not in spec.analyses:
        known = sorted(spec.analyses)
        raise UnknownNameError(
            f"benchmark '{benchmark}' has no analysis '{name}'{did_you_mean(name, known)} "
            f"(analyses: {', '.join(known) or 'none'})"
        )
    obj = import_object(spec.analyses[name])
    if not isinstance(obj, Analysis):
        raise TypeError(f"{spec.analyses[name]} is not an Analysis")
    return obj
