"""Multi-model COBIAS (§5.2): average τ over models, then cv and COBIAS.

Each model is scored in its own run (one backend per run); this combines the runs'
samples.jsonl. A statement is scored when every run scored it on the same data (same sample
hash, hence the same versions in the same order); otherwise it is excluded with a reason.
Runs whose τ is on different scales are refused: they must agree on every setting in
`SCALE_SETTINGS` (a PLL τ and a causal τ, or token- and word-level τ, cannot be averaged).
The aggregate's `per_statement` table holds τ(x) and every τ(x′ᵢ), per run and averaged.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from biasaudit.benchmarks import Aggregate
from biasaudit.benchmarks.cobias import metrics
from biasaudit.benchmarks.cobias.aggregate import Row, aggregate_rows
from biasaudit.benchmarks.cobias.validation import rank_correlations
from biasaudit.errors import RunError
from biasaudit.results.io import iter_samples, read_results
from biasaudit.results.schema import SampleRecord, Table

#: Options that change the scale of τ; runs are only averaged when all of them agree.
SCALE_SETTINGS = ("estimator", "granularity", "preset", "lowercase", "add_special_tokens")


@dataclass(frozen=True)
class LoadedRun:
    path: Path
    scorer: str
    settings: dict[str, Any]
    records: dict[str, SampleRecord]


def load_run(run_dir: Path) -> LoadedRun:
    """The scorer description, τ-scale settings and cobias records of one run directory."""
    run = read_results(run_dir)
    try:
        bench = run.benchmark("cobias")
    except KeyError:
        raise RunError(f"{run_dir}: the run has no cobias results") from None
    records = {r.sample_id: r for r in iter_samples(run_dir) if r.benchmark == "cobias"}
    settings = {key: bench.options.get(key) for key in SCALE_SETTINGS}
    scorer = f"{run.model.spec} ({settings['estimator'] or '?'})"
    return LoadedRun(run_dir, scorer, settings, records)


def check_compatible(runs: Sequence[LoadedRun]) -> None:
    """Refuse the same run twice and runs whose τ settings differ (one-line RunError)."""
    seen: dict[Path, Path] = {}
    for run in runs:
        resolved = run.path.resolve()
        if resolved in seen:
            raise RunError(f"{run.path}: the same run is given twice ({seen[resolved]})")
        seen[resolved] = run.path
    first = runs[0]
    for run in runs[1:]:
        for key in SCALE_SETTINGS:
            if run.settings.get(key) != first.settings.get(key):
                raise RunError(
                    f"{run.path}: {key}={run.settings.get(key)!r} but {first.path} has "
                    f"{key}={first.settings.get(key)!r}; τ from different {key} settings is "
                    "on a different scale and cannot be averaged"
                )


def ensemble_rows(runs: Sequence[dict[str, SampleRecord]]) -> list[Row]:
    """One row per statement of the first run, scored from the τ averaged over runs."""
    if not runs:
        raise RunError("no runs to combine")
    rows: list[Row] = []
    for sid, first in runs[0].items():
        members = [run.get(sid) for run in runs]
        base = {
            "id": sid,
            "sentence": first.data.get("sentence", ""),
            "group": first.groups.get("source", ""),
            "human_rating": first.data.get("human_rating"),
            "flags": list(first.data.get("flags", [])),
        }
        reason = None
        if any(m is None or m.sample_hash != first.sample_hash for m in members):
            reason = "mismatch: not scored on the same data in every run"
        elif any(m is not None and m.excluded for m in members):
            reason = next(m.exclusion_reason for m in members if m is not None and m.excluded)
        if reason is not None:
            rows.append(Row(**base, exclusion_reason=reason))
            continue
        scored = [m for m in members if m is not None]
        tau_x = metrics.ensemble_tau([m.scores["tau_original"] for m in scored])
        per_version = zip(*(m.scores["tau_versions"] for m in scored), strict=True)
        tau_versions = [metrics.ensemble_tau(list(v)) for v in per_version]
        if tau_x == 0:
            rows.append(Row(**base, exclusion_reason="tau_zero"))
            continue
        cv = metrics.context_variance(tau_x, tau_versions)
        rows.append(
            Row(
                **base,
                cobias=metrics.cobias(cv),
                cv=cv,
                n_contexts=len(tau_versions),
            )
        )
    return rows


def per_statement_table(runs: Sequence[LoadedRun]) -> Table:
    """τ(x) and τ(x′ᵢ) of every statement scored in every run: per run and averaged."""
    rows: list[list[Any]] = []
    for sid, first in runs[0].records.items():
        members = [run.records.get(sid) for run in runs]
        if any(m is None or m.excluded or m.sample_hash != first.sample_hash for m in members):
            continue
        scored = [m for m in members if m is not None]
        originals = [m.scores["tau_original"] for m in scored]
        versions = [list(m.scores["tau_versions"]) for m in scored]
        mean_versions = [metrics.ensemble_tau(list(v)) for v in zip(*versions, strict=True)]
        rows.append([sid, metrics.ensemble_tau(originals), mean_versions, originals, versions])
    return Table(
        description="per statement: ensemble τ(x), ensemble τ(x′ᵢ), and the same per run "
        "(in the order the runs were given)",
        columns=[
            "id",
            "tau_original",
            "tau_versions",
            "tau_original_by_run",
            "tau_versions_by_run",
        ],
        rows=rows,
    )


def ensemble(run_dirs: Sequence[Path], seed: int = 0) -> tuple[list[str], Aggregate]:
    """Scorers used and the aggregate of the τ-averaged statements."""
    if not run_dirs:
        raise RunError("no runs to combine")
    loaded = [load_run(path) for path in run_dirs]
    check_compatible(loaded)
    scorers = [run.scorer for run in loaded]
    rows = ensemble_rows([run.records for run in loaded])
    aggregate = aggregate_rows(rows, seed=seed, scorer="ensemble of " + ", ".join(scorers))
    aggregate.tables["per_statement"] = per_statement_table(loaded)
    columns = {
        f"{i}: {run.scorer}": {
            sid: r.scores["cobias"] for sid, r in run.records.items() if not r.excluded
        }
        for i, run in enumerate(loaded, start=1)
    }
    shared, matrix = rank_correlations(columns)
    aggregate.tables["model_correlations"] = Table(
        description=f"Spearman between the runs' own COBIAS over {len(shared)} statements",
        columns=["run", *columns],
        rows=[[name, *row] for name, row in zip(columns, matrix, strict=True)],
    )
    return scorers, aggregate
