"""A run's plan, and whether a set of run directories is exactly the shards of one plan.

The plan is what decides which samples a run covers and how they are scored: everything
`run.json` records except the model (compared by its fingerprint), the model's arguments
(concurrency, timeouts: they do not change what is computed) and the shard index. It is
recorded in results.json (`RunResult.plan`), so a setting added to run.json later (a sample
plan, a suite) is compared by `merge` without a change here. Results written before the plan
was recorded get one rebuilt from their own fields (benchmarks, options, seed, limit).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from biasaudit.errors import RunError
from biasaudit.results.schema import RunResult

#: run.json keys that are not part of the plan.
NOT_PLAN = frozenset({"model", "model_args", "shard"})


def plan_of_config(config: dict[str, Any]) -> dict[str, Any]:
    """The plan part of a run's recorded settings (run.json)."""
    return {key: value for key, value in config.items() if key not in NOT_PLAN}


def plan_of(run: RunResult) -> dict[str, Any]:
    """The run's recorded plan, or one rebuilt from its fields for results written before
    plans were recorded."""
    if run.plan is not None:
        return run.plan
    return {
        "benchmarks": run.benchmarks_planned or [b.benchmark for b in run.benchmarks],
        "options": {b.benchmark: b.options for b in run.benchmarks},
        "seed": run.seed,
        "limit": run.limit,
    }


def shard_of(run: RunResult) -> tuple[int, int] | None:
    """(index, count) of a shard's results, None for a whole run."""
    if run.shard is None:
        return None
    index, _, count = run.shard.partition("/")
    try:
        return int(index), int(count)
    except ValueError:
        return None


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _difference(mine: dict[str, Any], first: dict[str, Any]) -> str:
    keys = sorted(k for k in mine.keys() | first.keys() if mine.get(k) != first.get(k))
    return "; ".join(f"{k} {_short(mine.get(k))} vs {_short(first.get(k))}" for k in keys)


def check_shard_set(run_dirs: Sequence[str | Path], runs: Sequence[RunResult]) -> list[str]:
    """Refuse a set that is not shards of one plan (a whole run, another plan, shards of
    another split, a shard given twice), each with one line naming the folder; return the
    missing shards ("2/3", ...), empty when the set is exactly {0..N-1}/N."""
    first_dir, first = run_dirs[0], runs[0]
    first_plan = plan_of(first)
    seen: dict[int, str | Path] = {}
    first_shard = shard_of(first)
    count = first_shard[1] if first_shard else 0
    for run_dir, run in zip(run_dirs, runs, strict=True):
        shard = shard_of(run)
        if shard is None or first_shard is None:
            raise RunError(
                f"{run_dir if shard is None else first_dir}: not a shard (a whole run, no "
                f"--shard i/N); merge combines the shards of one run"
            )
        index, n = shard
        if n != count:
            raise RunError(
                f"{run_dir}: shard {index}/{n}, but {first_dir} is shard "
                f"{first_shard[0]}/{count}: shards of different splits"
            )
        difference = _difference(plan_of(run), first_plan)
        if difference:
            raise RunError(f"{run_dir}: not a shard of the same run as {first_dir} ({difference})")
        if index in seen:
            raise RunError(f"{run_dir}: shard {index}/{n} is given twice (also {seen[index]})")
        seen[index] = run_dir
    return [f"{i}/{count}" for i in range(count) if i not in seen]
