"""Sizes from a budget: what a suite buys, in seconds and in minimum detectable effects.

For each benchmark of an audit the planner predicts

- **time** = drawn samples x requests per sample x seconds per request sent, from the costs
  measured on this model: every audit records, per benchmark it ran, its wall time, requests
  sent and cached and samples (`record_costs`, kept in ``<cache dir>/costs.json`` by model
  spec); a prediction for a model never measured says "unknown" (a budgeted audit measures
  it first with a pilot of a few samples a benchmark, whose replies the audit then reuses
  from the cache);
- **the MDE of each profile cell** (80 % power) from the units the draw puts in the cell and
  the per-unit standard deviation: the one measured on an earlier run of the model when there
  is one, else the bound the benchmark's scale allows (`Effect.sd_bound`: 50 points for a 0/1
  outcome on 0-100). One-sample cells: MDE = (z_{1-a/2} + z_0.8) sd / sqrt(n); contrast cells
  (a group against the rest of its axis): (z_{1-a/2} + z_0.8) sd sqrt(1/n_group + 1/n_rest).
  The level `a` is alpha / m over the m planned cells: the Benjamini-Hochberg level of a cell
  when nothing else is flagged, the most demanding one (so a plan never promises too much).

A **budget** (`--budget 15m`) chooses, per benchmark, one of its declared sizes (demo, quick,
standard, full: a larger draw keeps a smaller one's units). Every benchmark starts at its
smallest size; while the budget allows, the planner takes the one step up that buys the most
precision per second: sum over the benchmark's cells of the relative gain in precision
((MDE_before / MDE_after)^2 - 1), divided by the step's predicted seconds, so cheap
log-likelihood benchmarks reach their full data first. A budget below the smallest plan is
refused in one line that says what that plan costs.
"""

from __future__ import annotations

import json
import math
import re
import statistics
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from biasaudit.errors import RunError
from biasaudit.metrics.power import mde_from_se
from biasaudit.profile_spec import Effect, matches

COSTS_FILE = "costs.json"
_DURATION = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*(s|sec|m|min|h)?\s*$", re.IGNORECASE)


def parse_duration(text: str) -> float:
    """Seconds of '90s', '15m', '1.5h' or a bare number of minutes; RunError otherwise."""
    match = _DURATION.match(text)
    if not match:
        raise RunError(f"--budget {text!r}: give a duration such as 90s, 15m or 1h")
    value, unit = float(match[1]), (match[2] or "m").lower()
    seconds = value * {"s": 1, "sec": 1, "m": 60, "min": 60, "h": 3600}[unit]
    if seconds <= 0:
        raise RunError(f"--budget {text!r}: must be more than nothing")
    return seconds


# --- measured costs ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Cost:
    """One benchmark's cost on one model, measured on a run of it."""

    seconds_per_request: float
    requests_per_sample: float
    unit_sd: float | None = None


def costs_path(cache_dir: Path | None = None) -> Path:
    from biasaudit.data.store import default_cache_dir

    return (cache_dir or default_cache_dir()) / COSTS_FILE


def _stored(path: Path) -> dict[str, Any]:
    """The costs file's contents; {} when absent or damaged (measured again)."""
    try:
        stored = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError):
        return {}
    return stored if isinstance(stored, dict) else {}


def load_costs(model: str, cache_dir: Path | None = None) -> dict[str, Cost]:
    """The measured costs of `model`, by benchmark (empty when never measured)."""
    entries = _stored(costs_path(cache_dir)).get(model, {})
    out: dict[str, Cost] = {}
    for name, entry in entries.items() if isinstance(entries, dict) else ():
        try:
            out[name] = Cost(**entry)
        except TypeError:
            continue
    return out


def record_costs(model: str, costs: Mapping[str, Cost], cache_dir: Path | None = None) -> None:
    """Merge `costs` into the store (best effort: a cache that cannot be written is skipped)."""
    from biasaudit.results.io import atomic_write_text

    if not costs:
        return
    path = costs_path(cache_dir)
    stored = _stored(path)
    entry = stored.setdefault(model, {})
    for name, cost in costs.items():
        entry[name] = cost.__dict__
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write_text(path, json.dumps(stored, indent=1, sort_keys=True) + "\n")
    except (OSError, RunError):
        return


def cost_of(result: Any, unit_sd: float | None) -> Cost | None:
    """A benchmark result's cost, when it sent requests (all cached: nothing measured)."""
    sent, cached, n = result.requests_sent, result.requests_cached, result.n_samples
    if sent <= 0 or n <= 0 or result.wall_time_s <= 0:
        return None
    return Cost(result.wall_time_s / sent, (sent + cached) / n, unit_sd)


#: values an sd must be measured on before the planner trusts it over the scale's bound
MIN_SD_UNITS = 30


def unit_sd(records: Sequence[Any], effect: Effect) -> float | None:
    """The per-unit standard deviation of `effect`'s values on a run's records (None below
    `MIN_SD_UNITS` values: a demo's 6 BBNLI pairs can all agree, an sd of 0 that would
    promise any precision)."""
    values = [effect.value(r) for r in records if matches(r, effect.where)]
    present = [v for v in values if v is not None]
    return statistics.stdev(present) if len(present) >= MIN_SD_UNITS else None


# --- the plan ---------------------------------------------------------------------------------


@dataclass
class CellPlan:
    axis: str
    n: int
    n_rest: int | None = None  # contrast cells: the rest of the axis
    mde: float | None = None


@dataclass
class BenchmarkForecast:
    name: str
    suite: str | None
    samples: int
    requests: float | None
    seconds: float | None
    sd: float | None
    sd_source: str
    cells: list[CellPlan] = field(default_factory=list)


def cells_of(groups: Sequence[Mapping[str, str]], effect: Effect) -> list[CellPlan]:
    """The profile cells a draw fills: units per axis (per group level for per-group cells)."""
    counts: dict[tuple[str, str], int] = {}
    for sample_groups in groups:
        holder = _Groups(sample_groups)
        level = sample_groups.get(effect.group_key)
        if level is None or level not in effect.axes or not matches(holder, effect.where):
            continue
        axis = effect.axes[level]
        key = (axis, level if effect.per_group else "")
        counts[key] = counts.get(key, 0) + 1
    cells = []
    total = sum(counts.values())
    for (axis, level), n in sorted(counts.items()):
        if effect.design == "contrast" and effect.per_group:  # a level against its axis' rest
            rest = sum(c for (a, other), c in counts.items() if a == axis and other != level)
            cells.append(CellPlan(f"{axis}/{level}", n, rest))
        elif effect.design == "contrast":  # an axis against every other item
            cells.append(CellPlan(axis, n, total - n))
        else:
            cells.append(CellPlan(axis, n))
    return cells


@dataclass(frozen=True)
class _Groups:
    groups: Mapping[str, str]


def mde_of(cell: CellPlan, sd: float, alpha: float) -> float | None:
    """The planned cell's MDE (see the module docstring); None when it cannot be tested."""
    if cell.n <= 0:
        return None
    if cell.n_rest is None:
        return mde_from_se(sd / math.sqrt(cell.n), alpha)
    if cell.n_rest <= 0:
        return None
    return mde_from_se(sd * math.sqrt(1 / cell.n + 1 / cell.n_rest), alpha)


def forecast(
    name: str,
    suite: str | None,
    groups: Sequence[Mapping[str, str]],
    effect: Effect | None,
    cost: Cost | None,
) -> BenchmarkForecast:
    """One benchmark's predicted requests, seconds and cells for a drawn sample."""
    samples = len(groups)
    requests = cost.requests_per_sample * samples if cost else None
    seconds = requests * cost.seconds_per_request if cost and requests is not None else None
    sd, source = None, "no profile effect"
    if effect is not None:
        if cost is not None and cost.unit_sd:  # an sd of 0 promises any precision: not used
            sd, source = cost.unit_sd, "measured"
        else:
            sd, source = effect.sd_bound, "scale bound" if effect.sd_bound else "unknown"
    cells = cells_of(groups, effect) if effect is not None else []
    return BenchmarkForecast(name, suite, samples, requests, seconds, sd, source, cells)


def set_mdes(forecasts: Sequence[BenchmarkForecast], alpha: float) -> float:
    """Fill every cell's MDE at alpha / m (m: every planned cell); the level used."""
    m = sum(len(f.cells) for f in forecasts)
    level = alpha / max(1, m)
    for item in forecasts:
        for cell in item.cells:
            cell.mde = mde_of(cell, item.sd, level) if item.sd else None
    return level


def precision_gain(before: BenchmarkForecast, after: BenchmarkForecast, level: float) -> float:
    """Sum over cells of (MDE_before / MDE_after)^2 - 1 (a new testable cell counts 1)."""
    if not after.sd:
        return 0.0
    old = {c.axis: mde_of(c, after.sd, level) for c in before.cells}
    gain = 0.0
    for cell in after.cells:
        new = mde_of(cell, after.sd, level)
        if new is None:
            continue
        previous = old.get(cell.axis)
        gain += 1.0 if previous is None else (previous / new) ** 2 - 1.0
    return gain


def allocate(
    ladders: Mapping[str, Sequence[BenchmarkForecast]], budget_s: float, alpha: float
) -> dict[str, BenchmarkForecast]:
    """Per benchmark, one forecast of its ladder (smallest first) within `budget_s`."""
    chosen = {name: ladder[0] for name, ladder in ladders.items()}
    smallest = sum(f.seconds or 0.0 for f in chosen.values())
    if smallest > budget_s:
        raise RunError(
            f"--budget {budget_s / 60:.1f} min buys nothing: the smallest plan of these "
            f"benchmarks takes about {smallest / 60:.1f} min on this model; give at least "
            f"--budget {math.ceil(smallest / 60)}m, or fewer --benchmarks"
        )
    level = alpha / max(1, sum(len(ladder[-1].cells) for ladder in ladders.values()))
    spent = smallest
    while True:
        best: tuple[float, str, BenchmarkForecast] | None = None
        for name, ladder in ladders.items():
            position = ladder.index(chosen[name])
            if position + 1 >= len(ladder):
                continue
            step = ladder[position + 1]
            extra = (step.seconds or 0.0) - (chosen[name].seconds or 0.0)
            if spent + extra > budget_s:
                continue
            value = precision_gain(chosen[name], step, level) / max(extra, 1e-6)
            if best is None or value > best[0]:
                best = (value, name, step)
        if best is None:
            return chosen
        _, name, step = best
        spent += (step.seconds or 0.0) - (chosen[name].seconds or 0.0)
        chosen[name] = step


def total_seconds(forecasts: Sequence[BenchmarkForecast]) -> float | None:
    times = [f.seconds for f in forecasts]
    return None if any(t is None for t in times) else sum(t or 0.0 for t in times)


def plan_rows(forecasts: Sequence[BenchmarkForecast]) -> list[list[Any]]:
    """Printed rows: a benchmark's size, requests and predicted minutes, then one row per
    profile cell with its planned units and MDE."""
    rows: list[list[Any]] = []
    for item in forecasts:
        minutes = "unknown" if item.seconds is None else f"{item.seconds / 60:.1f}"
        requests = "-" if item.requests is None else f"{item.requests:.0f}"
        head = [item.name, item.suite or "all", item.samples, requests, minutes, item.sd_source]
        if not item.cells:
            rows.append([*head, "-", "", ""])
        for number, cell in enumerate(item.cells):
            mde = "-" if cell.mde is None else f"{cell.mde:.3g}"
            rows.append([*(head if number == 0 else [""] * len(head)), cell.axis, cell.n, mde])
    return rows


__all__ = [
    "BenchmarkForecast",
    "Cost",
    "allocate",
    "cost_of",
    "forecast",
    "load_costs",
    "parse_duration",
    "plan_rows",
    "record_costs",
    "set_mdes",
    "total_seconds",
    "unit_sd",
]
