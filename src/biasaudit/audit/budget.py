"""The planner (`biasaudit.audit.planner`) applied to an audit's plans: forecasts of a suite,
a budget's choice of sizes (with a pilot that measures a model's costs first), and the costs
every audit records for the next plan."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from biasaudit.audit.planner import (
    BenchmarkForecast,
    Cost,
    allocate,
    cost_of,
    forecast,
    load_costs,
    record_costs,
    set_mdes,
    unit_sd,
)
from biasaudit.audit.plans import BenchmarkPlan, plan_suite
from biasaudit.profile.validity import benchmark_profile
from biasaudit.suites import SUITES

#: samples a benchmark of a pilot sends to measure a model's cost per request
PILOT_SAMPLES = 6


def forecast_plan(plan: BenchmarkPlan, costs: dict[str, Cost]) -> BenchmarkForecast | None:
    """A runnable plan's forecast (None for a skipped benchmark)."""
    if plan.bench is None or plan.skip_reason is not None:
        return None
    ids = plan.selection.ids if plan.selection is not None else None
    groups = [s.groups for s in plan.bench.samples() if ids is None or s.id in ids]
    suite = plan.selection.plan.suite if plan.selection is not None else None
    declared = plan.bench.declaration
    effect = declared.profile.effect if declared is not None else None
    return forecast(plan.name, suite, groups, effect, costs.get(plan.name))


def forecast_plans(
    plans: Sequence[BenchmarkPlan], model: str, alpha: float = 0.05
) -> list[BenchmarkForecast]:
    """Forecasts of a suite's plans on `model` (its recorded costs; no weights are loaded)."""
    costs = load_costs(model)
    out = [f for f in (forecast_plan(p, costs) for p in plans) if f is not None]
    set_mdes(out, alpha)
    return out


def pilot(
    plans: Sequence[BenchmarkPlan],
    model: str,
    model_args: dict[str, Any] | None,
    *,
    seed: int,
    cache_path: str | Path | None = None,
    use_cache: bool = True,
) -> dict[str, Cost]:
    """Measure `model`'s cost on each plan's benchmark: its first few samples, replies cached
    (the audit that follows reads them back when its draw holds them)."""
    from biasaudit.api import run_plan
    from biasaudit.runner.plan import RunHooks, RunPlan

    measured: dict[str, Cost] = {}
    for plan in plans:
        pilot_plan = RunPlan(
            [plan.built()],  # the planned object: built once, its samples read once
            limit=PILOT_SAMPLES,
            tolerate=True,
            hooks=RunHooks(progress=False),
            seed=seed,
            cache_path=cache_path,  # the audit's cache: it reads these replies back
            use_cache=use_cache,
        )
        run = run_plan(pilot_plan, model, model_args)
        for result in run.benchmarks:
            cost = cost_of(result, None)
            if cost is not None:
                measured[result.benchmark] = cost
    record_costs(model, measured)
    return measured


def budget_plans(
    names: Sequence[str],
    options: dict[str, dict[str, Any]],
    budget_s: float,
    model: str,
    *,
    seed: int,
    data_dir: str | Path | None,
    model_args: dict[str, Any] | None = None,
    alpha: float = 0.05,
    measure: bool = True,
    **run_kwargs: Any,
) -> tuple[list[BenchmarkPlan], list[BenchmarkForecast]]:
    """Per benchmark, the declared size a budget of `budget_s` seconds buys (see planner)."""
    rungs = {
        suite: plan_suite(names, suite, options, seed=seed, data_dir=data_dir) for suite in SUITES
    }
    costs = load_costs(model)
    runnable = [p for p in rungs["full"] if p.skip_reason is None]
    missing = [p for p in runnable if p.name not in costs]
    if missing and measure:
        cache = {k: v for k, v in run_kwargs.items() if k in ("cache_path", "use_cache")}
        costs.update(pilot(missing, model, model_args, seed=seed, **cache))
    why = "the pilot could not measure it" if measure else "--plan-only loads no model"
    unmeasured = {
        p.name: f"no measured cost of {model} on it ({why}); outside the budget"
        for p in runnable
        if p.name not in costs
    }
    ladders: dict[str, list[BenchmarkForecast]] = {}
    plan_of: dict[int, BenchmarkPlan] = {}
    skipped: dict[str, BenchmarkPlan] = {}
    for suite in SUITES:
        for plan in rungs[suite]:
            if plan.name in unmeasured:
                skipped.setdefault(
                    plan.name, BenchmarkPlan(plan.name, skip_reason=unmeasured[plan.name])
                )
                continue
            item = forecast_plan(plan, costs)
            if item is None:
                skipped.setdefault(plan.name, plan)
                continue
            ladder = ladders.setdefault(plan.name, [])
            if not ladder or item.samples > ladder[-1].samples:
                ladder.append(item)
                plan_of[id(item)] = plan
    chosen = allocate(ladders, budget_s, alpha)
    forecasts = [chosen[name] for name in names if name in chosen]
    set_mdes(forecasts, alpha)
    plans = [
        plan_of[id(chosen[name])] if name in chosen else skipped[name]
        for name in names
        if name in chosen or name in skipped
    ]
    return plans, forecasts


def record_run_costs(model: str, folder: Path | None, run: Any) -> None:
    """Keep what this audit measured of `model` for the next plan (best effort)."""
    from biasaudit.results.io import iter_samples

    if folder is None or run is None:
        return
    records: dict[str, list[Any]] = {}
    try:
        for record in iter_samples(folder):
            records.setdefault(record.benchmark, []).append(record)
    except Exception:  # a damaged samples file: the costs are still worth keeping
        records = {}
    measured: dict[str, Cost] = {}
    for result in run.benchmarks:
        effect = benchmark_profile(result.benchmark).effect
        sd = unit_sd(records.get(result.benchmark, []), effect) if effect else None
        cost = cost_of(result, sd)
        if cost is not None:
            measured[result.benchmark] = cost
    record_costs(model, measured)
