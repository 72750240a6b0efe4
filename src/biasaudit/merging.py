"""`biasaudit merge`: the shards of one run combined into one run.

The inputs must be exactly shards ``i/N`` of one plan (see `biasaudit.results.plan`); a
missing shard, or a benchmark a shard did not finish, makes the merged run `partial`.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from biasaudit.discovery import open_store
from biasaudit.errors import RunError
from biasaudit.plugin import build
from biasaudit.rescoring import allowed_failures, make_output_dir, rescore_benchmark
from biasaudit.results.digests import exchanges_digest, hash_sample_hashes
from biasaudit.results.io import (
    check_samples_match,
    iter_samples,
    read_results,
    remove_outputs,
    write_results,
    write_samples,
)
from biasaudit.results.lock import check_unlocked, run_lock
from biasaudit.results.outputs import check_output_dir, holds_run
from biasaudit.results.plan import check_shard_set, plan_of
from biasaudit.results.schema import BenchmarkResult, RunResult, SampleRecord
from biasaudit.results.status import judge


def merge(
    run_dirs: Sequence[str | Path],
    output_dir: str | Path,
    *,
    data_dir: str | Path | None = None,
    overwrite: bool = False,
) -> RunResult:
    """Combine the shards of one run into one run.

    The inputs must be shards ``i/N`` of one plan (the same benchmarks, options, seed, limit
    and whatever else the run recorded in its plan; see `biasaudit.results.plan`), each
    index at most once, of the same model, each with a samples.jsonl matching its
    results.json. A missing shard, or a benchmark a shard did not finish, makes the merged
    run `partial` with the reason, never `complete`.
    """
    if len(run_dirs) < 2:
        raise RunError("merge needs at least two run directories")
    out = Path(output_dir)
    check_output_dir(out, run_dirs)
    if holds_run(out) and not overwrite:
        raise RunError(f"{out} already holds a run; pass --overwrite to replace it")
    for run_dir in run_dirs:
        check_unlocked(Path(run_dir))
    runs = [read_results(d) for d in run_dirs]
    first = runs[0]
    for run_dir, run in zip(run_dirs, runs, strict=True):
        if run.model.fingerprint != first.model.fingerprint:
            raise RunError(f"{run_dir}: a different model than {run_dirs[0]}")
    missing = check_shard_set(run_dirs, runs)
    records: dict[str, dict[str, SampleRecord]] = {}
    unfinished: dict[str, list[str]] = {}
    planned = first.benchmarks_planned or [b.benchmark for b in first.benchmarks]
    for run_dir, run in zip(run_dirs, runs, strict=True):
        by_bench: dict[str, list[SampleRecord]] = {}
        for record in iter_samples(run_dir):
            by_bench.setdefault(record.benchmark, []).append(record)
        check_samples_match(Path(run_dir), run, by_bench)
        finished = {b.benchmark for b in run.benchmarks}
        for name in planned:
            if name not in finished:
                unfinished.setdefault(name, []).append(str(run.shard))
                continue
            for record in by_bench.get(name, []):
                records.setdefault(name, {})[record.sample_id] = record
    store = open_store(data_dir)
    merged_results: list[BenchmarkResult] = []
    merged_records: list[SampleRecord] = []
    for name in planned:
        parts = [b for run in runs for b in run.benchmarks if b.benchmark == name]
        if not parts:
            continue
        previous = parts[0]
        bench = build(name, previous.options, store, first.seed)
        order = {s.id: i for i, s in enumerate(bench.load_samples())}
        bench_records = sorted(
            records.get(name, {}).values(), key=lambda r: order.get(r.sample_id, len(order))
        )
        combined = previous.model_copy(
            update={
                "n_samples": len(bench_records),
                "samples_hash": hash_sample_hashes([r.sample_hash for r in bench_records]),
                "exchanges_hash": hash_sample_hashes(exchanges_digest(r) for r in bench_records),
                "requests_sent": sum(p.requests_sent for p in parts),
                "requests_cached": sum(p.requests_cached for p in parts),
                "requests_failed": sum(p.requests_failed for p in parts),
                "wall_time_s": sum(p.wall_time_s for p in parts),
            }
        )
        result, rescored = rescore_benchmark(bench, combined, bench_records, first.seed)
        merged_results.append(result)
        merged_records.extend(rescored)
    merged = first.model_copy(
        update={"benchmarks": merged_results, "shard": None, "plan": plan_of(first)}
    )
    merged = judge(merged, merged_records, planned, allowed_failures(first))
    gaps = [f"missing shard(s) {', '.join(missing)}"] if missing else []
    gaps += [
        f"{name} not finished in shard(s) {', '.join(shards)}"
        for name, shards in unfinished.items()
        if any(b.benchmark == name for b in merged_results)
    ]
    if gaps:
        reason = "; ".join([*gaps, *([merged.status_reason] if merged.status_reason else [])])
        status = "failed" if merged.status == "failed" else "partial"
        merged = merged.model_copy(update={"status": status, "status_reason": reason})
    make_output_dir(out)
    with run_lock(out):
        if overwrite:
            remove_outputs(out)
        # samples first: a merge killed between the two leaves a pair that every reader
        # refuses (the new samples do not match the old results), or no results at all
        write_samples(out, merged_records)
        write_results(out, merged)
    return merged
