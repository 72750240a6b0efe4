"""Multi-model COBIAS (§5.2): average τ over models, then cv and COBIAS.

Each model is scored in its own run (one backend per run); this combines the runs'
samples.jsonl. A statement is scored when every run scored it on the same data (same sample
hash, hence the same versions in the same order); otherwise it is excluded with a reason.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from biasaudit.benchmarks.base import Aggregate
from biasaudit.benchmarks.cobias import metrics
from biasaudit.benchmarks.cobias.aggregate import Row, aggregate_rows
from biasaudit.benchmarks.cobias.validation import rank_correlations
from biasaudit.errors import RunError
from biasaudit.results.io import iter_samples, read_results
from biasaudit.results.schema import SampleRecord, Table


def load_run(run_dir: Path) -> tuple[str, dict[str, SampleRecord]]:
    """(scorer description, cobias records by sample id) of one run directory."""
    run = read_results(run_dir)
    try:
        bench = run.benchmark("cobias")
    except KeyError:
        raise RunError(f"{run_dir}: the run has no cobias results") from None
    records = {r.sample_id: r for r in iter_samples(run_dir) if r.benchmark == "cobias"}
    scorer = f"{run.model.spec} ({bench.options.get('estimator', '?')})"
    return scorer, records


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


def ensemble(run_dirs: Sequence[Path], seed: int = 0) -> tuple[list[str], Aggregate]:
    """Scorers used and the aggregate of the τ-averaged statements."""
    loaded = [load_run(path) for path in run_dirs]
    scorers = [scorer for scorer, _ in loaded]
    rows = ensemble_rows([records for _, records in loaded])
    aggregate = aggregate_rows(rows, seed=seed, scorer="ensemble of " + ", ".join(scorers))
    columns = {
        f"{i}: {scorer}": {sid: r.scores["cobias"] for sid, r in records.items() if not r.excluded}
        for i, (scorer, records) in enumerate(loaded, start=1)
    }
    shared, matrix = rank_correlations(columns)
    aggregate.tables["model_correlations"] = Table(
        description=f"Spearman between the runs' own COBIAS over {len(shared)} statements",
        columns=["run", *columns],
        rows=[[name, *row] for name, row in zip(columns, matrix, strict=True)],
    )
    return scorers, aggregate
