"""Pieces shared by `score` (api.py) and `merge` (merging.py): re-scoring stored exchanges,
the request-error threshold a recorded run was judged with, and creating an output folder."""

from __future__ import annotations

from pathlib import Path

from biasaudit.contract import Benchmark, Sample
from biasaudit.errors import RunError
from biasaudit.profile.validity import judge
from biasaudit.results.schema import BenchmarkResult, RunResult, SampleRecord
from biasaudit.runner.runner import score_record


def make_output_dir(output_dir: Path) -> bool:
    """Create the output directory; whether it was created (so a failed start removes it)."""
    if output_dir.is_dir():
        return False
    try:
        output_dir.mkdir(parents=True)
    except OSError as exc:
        raise RunError(f"{output_dir}: cannot create ({exc.strerror or exc})") from None
    return True


def allowed_failures(run: RunResult) -> int:
    """The request-error threshold a recorded run was judged with (0 unless it was raised:
    a complete run with lost samples must have allowed that many)."""
    lost = sum(b.n_request_errors for b in run.benchmarks)
    return lost if run.status == "complete" else 0


def rescore_benchmark(
    bench: Benchmark, previous: BenchmarkResult, records: list[SampleRecord], seed: int
) -> tuple[BenchmarkResult, list[SampleRecord]]:
    """Re-score stored exchanges with the current scoring code; provenance is kept."""
    rescored = [
        score_record(bench, Sample(r.sample_id, r.data, r.groups), r.exchanges) for r in records
    ]
    aggregate = bench.aggregate(rescored, seed)
    result = previous.model_copy(
        update={
            "metrics": aggregate.metrics,
            "tables": aggregate.tables,
            "n_excluded": sum(1 for r in rescored if r.excluded),
        }
    )
    transcript = previous.validity is not None and any(
        f.gate == "transcript" for f in previous.validity.flags
    )
    result.validity = judge(bench, result, rescored, transcript)
    return result, rescored
