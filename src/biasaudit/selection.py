"""`sample_benchmark`: a benchmark's stratified sample by the keys its SPEC declares (read
from the declaration the benchmark object carries).

Kept apart from `biasaudit.sampling` (pure, imported by the results schema) because it reads
a benchmark's samples.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from biasaudit.contract import Benchmark
from biasaudit.errors import RunError
from biasaudit.sampling import Selection, plan_samples


def sample_benchmark(
    bench: Benchmark,
    size: int,
    seed: int,
    suite: str | None = None,
    *,
    prefer: Collection[str] | None = None,
    joined_with: Sequence[str] = (),
) -> Selection:
    """A stratified sample of `size` units of `bench`, by the keys its SPEC declares (the
    units holding the `prefer` sample ids first: `biasaudit.sampling.plan_samples`)."""
    declared = bench.declaration.suites if bench.declaration is not None else None
    if declared is None:
        raise RunError(
            f"--sample: benchmark '{bench.name}' declares no stratification keys "
            f"(SPEC.suites); use --limit or --shard"
        )
    if isinstance(size, bool) or not isinstance(size, int) or size < 1:
        raise RunError(f"--sample must be a whole number of at least 1, got {size!r}")
    strata, cover = declared.keys(suite)
    return plan_samples(
        bench.samples(),
        size,
        strata=strata,
        unit=declared.unit,
        seed=seed,
        min_per_stratum=declared.min_per_stratum,
        suite=suite,
        cover=cover,
        prefer=prefer,
        joined_with=joined_with,
    )
