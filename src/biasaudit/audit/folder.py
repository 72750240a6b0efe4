"""``audit.json``: what an audit folder holds, benchmark by benchmark.

One model: the folder is a normal run folder (results.json with every benchmark run,
samples.jsonl, run.json) plus ``audit.json`` (`AuditInfo`) listing every benchmark of the
suite with its status (complete, partial, failed, skipped, or pending while it runs), the
reason, its sample count and its sample plan. Several models: ``DIR/<model slug>/`` is one
such folder per model and ``DIR/audit.json`` lists them (`AuditInfo.folders`).
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from biasaudit.errors import RunError
from biasaudit.results.io import atomic_write_text
from biasaudit.results.schema import BenchmarkResult, RunResult
from biasaudit.sampling import SamplePlan

AUDIT_FILE = "audit.json"
AUDIT_SCHEMA_VERSION = "1"

Status = Literal["complete", "partial", "failed", "skipped", "pending"]


class BenchmarkStatus(BaseModel):
    """One benchmark of the suite in one model's audit."""

    model_config = ConfigDict(extra="forbid")

    name: str
    status: Status
    #: Why it is not complete (None when it is).
    reason: str | None = None
    n_samples: int = 0
    n_excluded: int = 0
    n_request_errors: int = 0
    sample_plan: SamplePlan | None = None
    #: The options the suite ran it with (the suite's, then the user's -O).
    options: dict[str, object] = Field(default_factory=dict)
    wall_time_s: float = 0.0


class ModelFolder(BaseModel):
    """One model's audit folder inside a several-model audit."""

    model_config = ConfigDict(extra="forbid")

    model: str
    folder: str
    status: Literal["complete", "partial", "failed", "running"]


class AuditInfo(BaseModel):
    """The contents of audit.json."""

    model_config = ConfigDict(extra="forbid")

    schema_version: str = AUDIT_SCHEMA_VERSION
    suite: str
    models: list[str]
    #: complete: every benchmark of the suite is complete or skipped; partial: some are
    #: partial, failed or not run yet; failed: none is complete; running: not finished.
    status: Literal["complete", "partial", "failed", "running"]
    #: One model: every benchmark of the suite (run or skipped). Several: empty.
    benchmarks: list[BenchmarkStatus] = Field(default_factory=list)
    #: benchmark -> why it was skipped (the same as in `benchmarks`).
    skipped: dict[str, str] = Field(default_factory=dict)
    #: Several models: one audit folder each (relative to this folder).
    folders: list[ModelFolder] = Field(default_factory=list)
    seed: int = 0
    shard: str | None = None
    biasaudit_version: str
    git_revision: str | None = None
    started_at: str
    finished_at: str | None = None


def now() -> str:
    return dt.datetime.now(dt.UTC).isoformat(timespec="seconds")


def benchmark_status(result: BenchmarkResult, failed_reason: str | None = None) -> Status:
    """complete / partial / failed of a benchmark that ran (request errors decide)."""
    if failed_reason is not None or result.n_samples == 0:
        return "failed"
    if result.n_request_errors == 0:
        return "complete"
    return "failed" if result.n_request_errors == result.n_samples else "partial"


def status_reason(result: BenchmarkResult) -> str | None:
    if result.n_samples == 0:
        return "no samples were selected"
    if result.n_request_errors:
        return f"{result.n_request_errors} of {result.n_samples} samples lost to request errors"
    return None


def statuses(
    order: list[str],
    run: RunResult | None,
    skipped: dict[str, str],
    options: Mapping[str, Mapping[str, object]],
    plans: Mapping[str, SamplePlan],
) -> list[BenchmarkStatus]:
    """Every benchmark of the suite, in order, with its status from the run so far."""
    done = {b.benchmark: b for b in run.benchmarks} if run is not None else {}
    failed = run.failed if run is not None else {}
    skips = {**skipped, **(run.skipped if run is not None else {})}
    out: list[BenchmarkStatus] = []
    for name in order:
        row = BenchmarkStatus(
            name=name,
            status="pending",
            reason="not run yet",
            options=dict(options.get(name, {})),
            sample_plan=plans.get(name),
        )
        if name in skips:
            row = row.model_copy(update={"status": "skipped", "reason": skips[name]})
        elif name in failed:
            row = row.model_copy(update={"status": "failed", "reason": failed[name]})
        elif name in done:
            result = done[name]
            row = row.model_copy(
                update={
                    "status": benchmark_status(result),
                    "reason": status_reason(result),
                    "n_samples": result.n_samples,
                    "n_excluded": result.n_excluded,
                    "n_request_errors": result.n_request_errors,
                    "wall_time_s": result.wall_time_s,
                }
            )
        out.append(row)
    return out


def overall_status(
    benchmarks: list[BenchmarkStatus], finished: bool
) -> Literal["complete", "partial", "failed", "running"]:
    if not finished:
        return "running"
    ran = [b for b in benchmarks if b.status != "skipped"]
    if not any(b.status in ("complete", "partial") for b in ran):
        return "failed"
    return "complete" if all(b.status == "complete" for b in ran) else "partial"


def write_audit(folder: Path, info: AuditInfo) -> Path:
    path = folder / AUDIT_FILE
    atomic_write_text(path, info.model_dump_json(indent=2) + "\n")
    return path


def read_audit(folder: str | Path) -> AuditInfo:
    """audit.json of `folder`; a missing or malformed one is a one-line RunError."""
    path = Path(folder) / AUDIT_FILE
    if not path.is_file():
        raise RunError(f"{folder}: no {AUDIT_FILE} (not an audit folder)")
    try:
        return AuditInfo.model_validate(json.loads(path.read_text(encoding="utf-8")))
    except (json.JSONDecodeError, ValidationError, UnicodeDecodeError) as exc:
        first = str(exc).splitlines()[0]
        raise RunError(f"{path}: not a valid {AUDIT_FILE} ({first})") from None


def is_audit(folder: str | Path) -> bool:
    return (Path(folder) / AUDIT_FILE).is_file()


def _describe_plan(plan: SamplePlan | None) -> str:
    if plan is None:
        return "all samples"
    joined = f", drawn from {' / '.join(plan.joined_with)}'s statements" if plan.joined_with else ""
    return f"{plan.suite or '--sample'} {plan.size}, seed {plan.seed}{joined}"


def plan_mismatches(baseline: RunResult, other: RunResult, label: str) -> list[str]:
    """One line per benchmark both runs hold whose sample plans differ (`compare` warns:
    the difference is then between different samples, not only different models)."""
    lines = []
    for bench in baseline.benchmarks:
        theirs = next((b for b in other.benchmarks if b.benchmark == bench.benchmark), None)
        if theirs is None:
            continue
        mine_plan, their_plan = bench.sample_plan, theirs.sample_plan
        if mine_plan is None and their_plan is None:
            continue
        if mine_plan is None or their_plan is None or mine_plan.plan_hash != their_plan.plan_hash:
            describe = [_describe_plan(p) for p in (mine_plan, their_plan)]
            lines.append(
                f"{bench.benchmark}: {label} drew other samples than the baseline "
                f"({describe[1]} vs {describe[0]}); its differences are unpaired"
            )
    return lines
