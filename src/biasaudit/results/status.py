"""Whether a run is complete: a failed audit must never look like a finished one.

A sample excluded because one of its requests failed (the server died, answered garbage, or
timed out after every retry) says nothing about the model. `judge` counts those samples per
benchmark and decides the run's status:

- **complete**: every planned benchmark finished, and at most `max_failed_samples` samples
  were lost to request errors (default 0);
- **partial**: a planned benchmark did not finish (the run was interrupted or killed: this is
  what results.json says until the last benchmark is written), or more samples than allowed
  were lost while others were answered;
- **failed**: every sample of the run was lost to request errors, or no sample was selected.

`--resume` re-sends exactly the failed requests (they are never cached).
"""

from __future__ import annotations

from collections.abc import Sequence

from biasaudit.results.schema import RunResult, SampleRecord

#: How much of the first request error is quoted in the status reason.
MAX_ERROR_CHARS = 160


def request_error(record: SampleRecord) -> str | None:
    """The first request error of an excluded sample, or None when it was not lost to one."""
    if not record.excluded:
        return None
    return next((e.response.error for e in record.exchanges if e.response.error), None)


def judge(
    run: RunResult,
    records: Sequence[SampleRecord],
    planned: Sequence[str],
    max_failed_samples: int = 0,
) -> RunResult:
    """`run` with `status`, `status_reason`, `benchmarks_planned` and per-benchmark
    `n_request_errors` filled in from its records."""
    errors: dict[str, list[str]] = {}
    for record in records:
        error = request_error(record)
        if error is not None:
            errors.setdefault(record.benchmark, []).append(error)
    benchmarks = [
        b.model_copy(update={"n_request_errors": len(errors.get(b.benchmark, []))})
        for b in run.benchmarks
    ]
    finished = [b.benchmark for b in benchmarks]
    missing = [name for name in planned if name not in finished]
    total = sum(b.n_samples for b in benchmarks)
    lost = sum(b.n_request_errors for b in benchmarks)
    status, reason = "complete", None
    if lost > max_failed_samples:
        first = next(e for name in finished for e in errors.get(name, []))
        where = ", ".join(
            f"{b.benchmark} {b.n_request_errors}/{b.n_samples}"
            for b in benchmarks
            if b.n_request_errors
        )
        reason = (
            f"{lost} of {total} samples lost to request errors ({where}); first: "
            f"{first[:MAX_ERROR_CHARS]}"
        )
        status = "failed" if lost == total else "partial"
    if missing:
        done = ", ".join(finished) or "none"
        note = f"not finished: {', '.join(missing)} (finished: {done})"
        errors_of = [f"{name}: {run.failed[name]}" for name in missing if name in run.failed]
        if errors_of:
            note += "; " + "; ".join(e[:MAX_ERROR_CHARS] for e in errors_of)
        reason = f"{note}; {reason}" if reason else note
        status = "partial" if finished else "failed"
    elif total == 0 and benchmarks:
        status, reason = (
            "failed",
            "no samples were selected (check --limit, --shard and -O filters)",
        )
    return run.model_copy(
        update={
            "benchmarks": benchmarks,
            "status": status,
            "status_reason": reason,
            "benchmarks_planned": list(planned),
        }
    )
