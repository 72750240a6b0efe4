"""`sample_benchmark`: a benchmark's stratified sample by the keys its SPEC declares.

Kept apart from `biasaudit.sampling` (pure, imported by the results schema) because it reads
the plug-in registry.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Any

from biasaudit.errors import RunError
from biasaudit.plugin import get_spec
from biasaudit.sampling import Selection, plan_samples


def sample_benchmark(
    bench: Any,
    size: int,
    seed: int,
    suite: str | None = None,
    *,
    prefer: Collection[str] | None = None,
    joined_with: Sequence[str] = (),
) -> Selection:
    """A stratified sample of `size` units of `bench`, by the keys its SPEC declares (the
    units holding the `prefer` sample ids first: `biasaudit.sampling.plan_samples`)."""
    declared = get_spec(bench.name).suites
    if declared is None:
        raise RunError(
            f"--sample: benchmark '{bench.name}' declares no stratification keys "
            f"(SPEC.suites); use --limit or --shard"
        )
    if isinstance(size, bool) or not isinstance(size, int) or size < 1:
        raise RunError(f"--sample must be a whole number of at least 1, got {size!r}")
    strata, cover = declared.keys(suite)
    return plan_samples(
        bench.iter_samples(),
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
