"""Analyses of stop_downstream: ``compare`` (relative change between two runs, STOP's
"+9% on BBQ to +191% on StereoSet") and ``prompts`` (the downstream prompts, for the STOP
reproduction record)."""

from __future__ import annotations

import json

from pydantic import BaseModel, ConfigDict, Field

from biasaudit.analysis import Analysis, AnalysisResult, Context
from biasaudit.benchmarks.stop_downstream.benchmark import DownstreamOptions, StopDownstream, Task
from biasaudit.benchmarks.stop_downstream.protocol import TASKS, relative_change
from biasaudit.errors import RunError
from biasaudit.results.io import read_results
from biasaudit.results.schema import BenchmarkResult, MetricValue, Table

NAME = "stop_downstream"


class CompareArgs(BaseModel):
    model_config = ConfigDict(extra="forbid")

    old_run: str = Field(description="run directory of the reference model (e.g. before tuning)")
    new_run: str = Field(description="run directory of the compared model")


def _result(run_dir: str) -> BenchmarkResult:
    try:
        return read_results(run_dir).benchmark(NAME)
    except KeyError:
        raise RunError(f"{run_dir}: no {NAME} result in this run") from None


def _by_task(metric: MetricValue) -> dict[str, float | None]:
    for breakdown in metric.breakdowns:
        if breakdown.by == "task":
            return {g.group: g.value for g in breakdown.groups}
    return {}


def compare(args: CompareArgs, ctx: Context) -> AnalysisResult:
    """Answer rate and performance per task in two runs, and their relative change."""
    old, new = _result(args.old_run), _result(args.new_run)
    rows = []
    for name in ("answer_rate", "performance"):
        before, after = _by_task(old.metric(name)), _by_task(new.metric(name))
        for task in TASKS:
            if task not in before and task not in after:
                continue
            a, b = before.get(task), after.get(task)
            change = relative_change(a, b)
            rows.append(
                [
                    name,
                    task,
                    a,
                    b,
                    None if a is None or b is None else b - a,
                    None if change is None else 100.0 * change,
                ]
            )
    table = Table(
        description="per task: old and new value (%), difference in points, relative change "
        "(new − old) / old in %",
        columns=["metric", "task", "old", "new", "points", "relative_change_%"],
        rows=rows,
    )
    return AnalysisResult(
        benchmark=NAME,
        analysis="compare",
        source=f"{args.old_run} -> {args.new_run}",
        tables={"relative_change": table},
        notes=["the paper reports answer-rate changes from +9% (BBQ) to +191% (StereoSet)"],
    )


def _all_tasks() -> list[Task]:
    return ["bbq", "stereoset", "crows_pairs"]


class PromptArgs(BaseModel):
    model_config = ConfigDict(extra="forbid")

    file: str | None = Field(None, description="write every prompt as JSONL here")
    tasks: list[Task] = Field(
        default_factory=_all_tasks, description="tasks (default: bbq, stereoset, crows_pairs)"
    )
    per_task: int | None = Field(
        None, ge=1, description="items per task (per category for BBQ), as the benchmark's option"
    )


def prompts(args: PromptArgs, ctx: Context) -> AnalysisResult:
    """The downstream prompts of BBQ, StereoSet and CrowS-Pairs (every item by default)."""
    options = DownstreamOptions(tasks=args.tasks, per_task=args.per_task)
    bench = StopDownstream(options, ctx.store, ctx.seed)
    samples = bench.load_samples()
    counts: dict[str, int] = {}
    examples: dict[str, str] = {}
    for sample in samples:
        task = sample.data["task"]
        counts[task] = counts.get(task, 0) + 1
        examples.setdefault(task, sample.data["prompt"])
    files = []
    if args.file:
        with open(args.file, "w", encoding="utf-8") as handle:
            for sample in samples:
                record = {"id": sample.id, **sample.data}
                handle.write(json.dumps(record, ensure_ascii=False) + "\n")
        files.append(args.file)
    table = Table(
        description="items and the first prompt of each task",
        columns=["task", "items", "first prompt"],
        rows=[[task, counts[task], examples[task]] for task in counts],
    )
    return AnalysisResult(
        benchmark=NAME,
        analysis="prompts",
        tables={"prompts": table},
        notes=["the paper's prompts are lost from the extraction; these are reconstructed"],
        files=files,
    )


COMPARE = Analysis(
    "compare", "relative change of answer rate and performance", CompareArgs, compare
)
PROMPTS = Analysis("prompts", "the downstream multiple-choice prompts", PromptArgs, prompts)
#: The same analysis listed under `biasaudit stop downstream-prompts` (STOP's SPEC).
DOWNSTREAM_PROMPTS = Analysis(
    "downstream-prompts", "STOP §4's downstream multiple-choice prompts", PromptArgs, prompts
)
