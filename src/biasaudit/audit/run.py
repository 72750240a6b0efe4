"""Run a suite on one or several models: one multi-benchmark run per model, plus audit.json.

Each model's audit is one call of `api.evaluate_one` with the suite's per-benchmark options
and sample plans, tolerating benchmarks the model cannot serve (skipped, with the reason) and
benchmarks that stop with an error (failed); audit.json is rewritten after every benchmark.
`--resume`, `--shard` and the response cache are those of `run`.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from biasaudit._version import __version__, git_revision
from biasaudit.api import model_slug, run_plan
from biasaudit.audit.budget import budget_plans, record_run_costs
from biasaudit.audit.folder import (
    AUDIT_FILE,
    AuditInfo,
    ModelFolder,
    now,
    overall_status,
    statuses,
    write_audit,
)
from biasaudit.audit.plans import BenchmarkPlan, plan_suite
from biasaudit.errors import RunError
from biasaudit.models.spec import validate_model
from biasaudit.plugin import get_spec, names
from biasaudit.results.schema import RunResult
from biasaudit.runner.plan import RunHooks, RunPlan


@dataclass
class AuditRun:
    """One model's finished audit: its folder, audit.json contents and run."""

    folder: Path | None
    info: AuditInfo
    run: RunResult | None


def suite_requests(plans: Sequence[BenchmarkPlan], seed: int) -> int | None:
    """Requests of the whole suite (for the overall progress bar), if every one is known."""
    from biasaudit.runner.runner import RunConfig, expected_total

    total = 0
    for plan in plans:
        bench = plan.built()
        selections = {plan.name: plan.selection} if plan.selection else {}
        config = RunConfig(seed=seed, selections=selections)
        count = expected_total(bench, bench.samples(), config)
        if count is None:
            return None
        total += count
    return total


def write_outputs_hook(folder: Path) -> None:
    """`biasaudit.profile.write_outputs(folder)` when that module provides it and some
    benchmark ran (an audit that skipped everything has no results to profile)."""
    if not any(folder.glob("results.json")) and not any(folder.glob("*/results.json")):
        return
    try:
        from biasaudit import profile
    except ImportError:
        return
    write = getattr(profile, "write_outputs", None)
    if callable(write):
        write(folder)


#: What an audit derives from its results: stale once the folder is run again.
DERIVED = ("card.md", "card.json", "profile.json", "profile.csv")


def _replacing(folder: Path, run_kwargs: dict[str, Any]) -> bool:
    """Whether this audit may claim `folder` before running: a new folder, --overwrite or
    --resume (a folder holding another run is refused by the engine, and left alone)."""
    fresh = not (folder / "results.json").exists() and not (folder / AUDIT_FILE).exists()
    return fresh or bool(run_kwargs.get("overwrite")) or bool(run_kwargs.get("resume"))


def start_folder(folder: Path, info: AuditInfo) -> None:
    """Claim `folder` for a run that starts: audit.json says running and the card and profile
    of an earlier run are removed, so a run killed before it finishes never reads complete."""
    folder.mkdir(parents=True, exist_ok=True)
    write_audit(folder, info)
    for name in DERIVED:
        (folder / name).unlink(missing_ok=True)


def audit_one(
    model: str,
    suite: str,
    plans: list[BenchmarkPlan],
    folder: Path | None,
    *,
    seed: int = 0,
    shard: tuple[int, int] | None = None,
    progress: bool = True,
    **run_kwargs: Any,
) -> AuditRun:
    """One model's audit into `folder` (a run folder plus audit.json). The benchmarks are
    the objects the plans built: nothing is built or read again (`RunPlan`)."""
    model_args = run_kwargs.pop("model_args", None)
    order = [p.name for p in plans]
    skipped = {p.name: p.skip_reason for p in plans if p.skip_reason is not None}
    to_run = [p for p in plans if p.skip_reason is None]
    options = {p.name: p.options for p in to_run}
    sample_plans = {p.name: p.selection.plan for p in to_run if p.selection is not None}
    info = AuditInfo(
        suite=suite,
        models=[model],
        status="running",
        benchmarks=statuses(order, None, skipped, options, sample_plans),
        skipped=dict(skipped),
        seed=seed,
        shard=f"{shard[0]}/{shard[1]}" if shard else None,
        biasaudit_version=__version__,
        git_revision=git_revision(),
        started_at=now(),
    )
    if not to_run:
        info = info.model_copy(update={"status": "failed", "finished_at": now()})
        if folder is not None:
            folder.mkdir(parents=True, exist_ok=True)
            write_audit(folder, info)
        return AuditRun(folder, info, None)

    def update(run: RunResult, finished: bool = False) -> None:
        nonlocal info
        rows = statuses(order, run, skipped, options, sample_plans)
        info = info.model_copy(
            update={
                "benchmarks": rows,
                "skipped": {**skipped, **run.skipped},
                "status": overall_status(rows, finished),
                "finished_at": now() if finished else None,
            }
        )
        if folder is not None:
            write_audit(folder, info)

    if folder is not None and _replacing(folder, run_kwargs):
        start_folder(folder, info)
    prefix = {p.name: f"[{k}/{len(to_run)}] " for k, p in enumerate(to_run, start=1)}
    overall = None
    if progress:
        from tqdm import tqdm

        total = suite_requests(to_run, seed)
        overall = tqdm(total=total, desc=f"audit {model} ({suite})", unit="req", file=sys.stderr)
    try:
        plan = RunPlan(
            [p.built() for p in to_run],
            seed=seed,
            selections={p.name: p.selection for p in to_run if p.selection is not None},
            shard=shard,
            output_dir=folder,
            tolerate=True,
            hooks=RunHooks(progress, prefix, update, overall),
            **run_kwargs,
        )
        run = run_plan(plan, model, model_args)
    finally:
        if overall is not None:
            overall.close()
    update(run, finished=True)
    record_run_costs(model, folder, run)  # what the next plan of this model reads
    return AuditRun(folder, info, run)


def audit(
    models: Sequence[str],
    suite: str,
    output_dir: str | Path | None = None,
    *,
    benchmarks: Sequence[str] | None = None,
    options: dict[str, dict[str, Any]] | None = None,
    model_args: dict[str, Any] | None = None,
    data_dir: str | Path | None = None,
    seed: int = 0,
    budget_s: float | None = None,
    **run_kwargs: Any,
) -> list[AuditRun]:
    """Audit each of `models` with `suite` (see docs/audit.md); one `AuditRun` per model.

    With `budget_s`, each benchmark's size is the one the budget buys on the first model
    (`biasaudit.audit.budget`), in place of the suite's. `run_kwargs` are those of
    `api.evaluate_one` (cache_path, use_cache, batch_size, shard, resume, overwrite, progress,
    max_failed_samples).
    """
    if not models:
        raise RunError("no model given")
    if len(set(models)) != len(models):
        raise RunError("the same model is given twice")
    chosen = list(benchmarks) if benchmarks else names()
    for name in chosen:
        get_spec(name)
    options = options or {}
    for name in options:
        if name not in chosen:
            raise RunError(f"options given for benchmark '{name}', which is not in the audit")
    for spec in models:  # every model checked before the first one writes anything
        validate_model(spec, model_args)
    if budget_s is None:
        plans = plan_suite(chosen, suite, options, seed=seed, data_dir=data_dir)
    else:
        suite = f"budget {budget_s / 60:g} min"  # audit.json: what chose the sizes
        plans, _ = budget_plans(
            chosen, options, budget_s, models[0], seed=seed, data_dir=data_dir,
            model_args=model_args, **run_kwargs,
        )  # fmt: skip
    out = Path(output_dir) if output_dir is not None else None
    several = len(models) > 1
    runs: list[AuditRun] = []
    started = now()
    if out is not None and several and _replacing(out, run_kwargs):
        pending = [
            ModelFolder(model=spec, folder=model_slug(spec), status="running") for spec in models
        ]
        start_folder(out, running_info(pending, suite, seed, started))
    for spec in models:
        folder = out / model_slug(spec) if out is not None and several else out
        runs.append(
            audit_one(
                spec,
                suite,
                plans,
                folder,
                seed=seed,
                model_args=model_args,
                **run_kwargs,
            )
        )
    if out is not None and several:
        write_audit(out, combined_info(runs, suite, seed, started))
    if out is not None:
        write_outputs_hook(out)
    return runs


def running_info(folders: list[ModelFolder], suite: str, seed: int, started: str) -> AuditInfo:
    """The top audit.json while a several-model audit runs: every model folder, running."""
    return AuditInfo(
        suite=suite,
        models=[f.model for f in folders],
        status="running",
        folders=folders,
        seed=seed,
        biasaudit_version=__version__,
        git_revision=git_revision(),
        started_at=started,
    )


def combined_info(runs: Sequence[AuditRun], suite: str, seed: int, started: str) -> AuditInfo:
    """The top audit.json of a several-model audit: its model folders and their status."""
    folders = [
        ModelFolder(
            model=r.info.models[0],
            folder=r.folder.name if r.folder is not None else "",
            status=r.info.status,
        )
        for r in runs
    ]
    states = {f.status for f in folders}
    status: Literal["complete", "partial", "failed"] = "partial"
    if states == {"complete"}:
        status = "complete"
    elif states == {"failed"}:
        status = "failed"
    first = runs[0].info
    return AuditInfo(
        suite=suite,
        models=[f.model for f in folders],
        status=status,
        folders=folders,
        seed=seed,
        shard=first.shard,
        biasaudit_version=__version__,
        git_revision=git_revision(),
        started_at=started,
        finished_at=now(),
    )
