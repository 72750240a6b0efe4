"""COBIAS's generation pipeline as analyses: context-addition points, context versions, and
their quality (ED, SS_con, SS_rep).

Run as ``biasaudit cobias <analysis> --arg ...`` (see `biasaudit list analyses`). Every model
call goes through `Context.run` (the run engine: cache, capability check, progress). The data
and human-study analyses are in `analyses_data`. Scoring several models is
``biasaudit run cobias -m A -m B -o DIR`` followed by ``biasaudit cobias ensemble``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ConfigDict, Field

from biasaudit.analysis import Analysis, AnalysisResult, Context
from biasaudit.benchmarks import BenchmarkOptions, Job
from biasaudit.benchmarks.cobias.data import (
    DATASET_KEY,
    Statement,
    read_contexts,
    read_statements,
    resolve,
    write_contexts_jsonl,
    write_statements,
)
from biasaudit.benchmarks.cobias.diagnostics import DiagnosticsOptions, DiagnosticsTask
from biasaudit.benchmarks.cobias.generation import (
    ContextsOptions,
    ContextsTask,
    PointsOptions,
    PointsTask,
    require_templates,
    write_contexts,
)
from biasaudit.errors import DataError
from biasaudit.results.schema import BenchmarkResult, MetricValue, SampleRecord, Table

Opts = TypeVar("Opts", bound=BenchmarkOptions)


class BaseArgs(BaseModel):
    model_config = ConfigDict(extra="forbid")


class StatementArgs(BaseArgs):
    dataset: str = Field(
        description="statements: CSV with id, sentence[, target_term, context_points], or a "
        "pinned key"
    )
    limit: int | None = Field(None, ge=1, description="only the first N statements")


class ModelArgs(BaseArgs):
    model: str = Field(description="model spec, e.g. embedded or openai:MODEL@URL")
    model_args: dict[str, Any] = Field(
        default_factory=dict, description="backend argument KEY=VALUE, e.g. n_threads=1"
    )
    batch_size: int | None = Field(None, ge=1, description="requests per batch")


def statements_of(ctx: Context, dataset: str, limit: int | None = None) -> list[Statement]:
    statements = read_statements(resolve(dataset, ctx.store))
    return statements[:limit] if limit is not None else statements


def target(ctx: Context, file: str | None, default: str) -> Path:
    """The explicit `file`, else `default` in the analysis' --output folder."""
    return Path(file) if file else ctx.output_path(default)


def _options(options: type[Opts], args: BaseModel) -> Opts:
    """The job options among an analysis' arguments (they inherit the option fields)."""
    return options.model_validate(args.model_dump(include=set(options.model_fields)))


def _run(ctx: Context, job: Job, args: ModelArgs) -> tuple[BenchmarkResult, list[SampleRecord]]:
    return ctx.run(job, args.model, args.model_args, batch_size=args.batch_size)


# -- generate-points ------------------------------------------------------------------------


class PointsArgs(PointsOptions, ModelArgs, StatementArgs):
    examples: str = Field(
        DATASET_KEY, description="statements with released templates, shown as worked examples"
    )
    file: str | None = Field(None, description="CSV to write (default: points.csv in --output)")


def generate_points(args: PointsArgs, ctx: Context) -> AnalysisResult:
    """Add ``___`` blanks to statements with the Fig. 3 prompt; invalid answers are retried."""
    statements = statements_of(ctx, args.dataset, args.limit)
    examples = statements_of(ctx, args.examples)
    job = PointsTask(_options(PointsOptions, args), ctx.store, ctx.seed, statements, examples)
    result, records = _run(ctx, job, args)
    by_id = {r.sample_id: r for r in records}
    rows: list[Statement] = []
    extra: list[dict[str, str]] = []
    invalid: list[list[Any]] = []
    for s in statements:
        scores = by_id[s.id].scores
        problems = scores.get("problems", ["error"])
        rows.append(Statement(s.id, s.sentence, s.target_term, scores.get("template", "")))
        extra.append({"points_valid": str(not problems), "points_problems": ";".join(problems)})
        if problems:
            invalid.append([s.id, ";".join(problems)])
    path = target(ctx, args.file, "points.csv")
    write_statements(path, rows, extra)
    return AnalysisResult(
        benchmark="cobias",
        analysis="generate-points",
        source=f"{args.dataset} by {args.model}",
        metrics=result.metrics,
        tables={
            "invalid": Table(
                description="statements whose answer is no valid template (points_valid False)",
                columns=["id", "problems"],
                rows=invalid,
            )
        },
        notes=[f"{len(rows)} statements, {len(rows) - len(invalid)} with a valid template"],
        files=[str(path)],
    )


# -- generate-contexts ----------------------------------------------------------------------


class ContextsArgs(ContextsOptions, ModelArgs, StatementArgs):
    file: str | None = Field(
        None, description="JSONL to write (default: contexts.jsonl in --output)"
    )


def generate_contexts(args: ContextsArgs, ctx: Context) -> AnalysisResult:
    """Fill each template's blanks n times with the Fig. 6 prompt (JSONL of versions)."""
    statements = statements_of(ctx, args.dataset, args.limit)
    require_templates(statements, args.dataset)
    options = _options(ContextsOptions, args)
    notes = []
    if options.temperature == 0 and options.n_generate > 1:
        notes.append(
            "temperature 0 gives identical versions, so cv = 0 and COBIAS = 0 for every statement"
        )
    job = ContextsTask(options, ctx.store, ctx.seed, statements)
    result, records = _run(ctx, job, args)
    model = ctx.models[-1]
    path = target(ctx, args.file, "contexts.jsonl")
    identity = {"spec": model.spec, "fingerprint": model.fingerprint}
    written = write_contexts(path, records, job.settings(), identity)
    notes.append(f"{written} statements with versions ({result.wall_time_s:.1f}s)")
    return AnalysisResult(
        benchmark="cobias",
        analysis="generate-contexts",
        source=f"{args.dataset} by {args.model}",
        metrics=result.metrics,
        notes=notes,
        files=[str(path)],
    )


# -- diagnostics ----------------------------------------------------------------------------


class DiagnosticsArgs(DiagnosticsOptions, ModelArgs, StatementArgs):
    contexts: list[str] = Field(
        description="versions: JSONL, a folder of {id}.pkl, or a key; several compare "
        "generators or temperatures (Table 2 layout)"
    )
    model: str = Field("embedded-st", description="sentence-embedding model for SS_con/SS_rep")
    filtered_file: str | None = Field(
        None, description="write the versions within the ED threshold here (one --contexts)"
    )


def _diagnose(
    args: DiagnosticsArgs, ctx: Context, contexts: str
) -> tuple[DiagnosticsTask, list[SampleRecord], list[MetricValue], dict[str, Table]]:
    """Diagnostics of one contexts file: (job, records, metrics, tables)."""
    statements = statements_of(ctx, args.dataset, args.limit)
    versions = read_contexts(resolve(contexts, ctx.store))
    options = _options(DiagnosticsOptions, args)
    job = DiagnosticsTask(options, ctx.store, ctx.seed, statements, versions)
    if not job.statements:
        raise DataError(f"{contexts}: no versions for any templated statement")
    if options.embed:
        result, records = _run(ctx, job, args)
        return job, records, result.metrics, result.tables
    aggregate, records = ctx.score(job)
    return job, records, aggregate.metrics, aggregate.tables


def diagnostics(args: DiagnosticsArgs, ctx: Context) -> AnalysisResult:
    """ED, SS_con and SS_rep of generated versions (§3.5, Table 2); optional ED filtering."""
    if args.filtered_file and len(args.contexts) > 1:
        raise DataError("--filtered-file takes a single --contexts")
    results = [(name, *_diagnose(args, ctx, name)) for name in args.contexts]
    notes = [f"{name}: ED filter threshold {job.threshold:.3g}" for name, job, *_ in results]
    files = []
    if len(results) == 1:
        _, job, records, metrics, tables = results[0]
        if args.filtered_file:
            write_contexts_jsonl(Path(args.filtered_file), job.filtered(records))
            files.append(args.filtered_file)
    else:
        metrics, tables, rows = [], {}, []
        for name, job, _, values, named in results:
            value = {m.name: m.value for m in values}
            ed = value.get("ed_mean")
            passes = ed is not None and ed < job.threshold
            verdict = "yes" if passes else f"no (ED >= {job.threshold:.3g})"
            share = value.get("share_above_ed_threshold")
            rows.append([name, ed, value.get("ss_con"), value.get("ss_rep"), share, verdict])
            tables |= {f"{key} {name}": table for key, table in named.items()}
        tables["generators"] = Table(
            description="one row per contexts file; SS read only where ED passes (Table 2)",
            columns=["contexts", "ED", "SS_con", "SS_rep", "share above ED threshold", "ED filter"],
            rows=rows,
        )
    return AnalysisResult(
        benchmark="cobias",
        analysis="diagnostics",
        source=f"{args.dataset}: {', '.join(args.contexts)}",
        metrics=metrics,
        tables=tables,
        notes=notes,
        files=files,
    )


GENERATE_POINTS = Analysis(
    "generate-points", "add ___ blanks to statements (Fig. 3 prompt)", PointsArgs, generate_points
)
GENERATE_CONTEXTS = Analysis(
    "generate-contexts",
    "fill the blanks n times (Fig. 6 prompt)",
    ContextsArgs,
    generate_contexts,
)
DIAGNOSTICS = Analysis(
    "diagnostics",
    "ED, SS_con, SS_rep of generated versions; ED filter",
    DiagnosticsArgs,
    diagnostics,
)
