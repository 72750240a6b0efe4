"""Does every part a benchmark declares resolve? One answer for `biasaudit list`, the audit
and the conformance kit (issue 33: a broken part breaks only its own benchmark).

A `BenchmarkSpec` names its parts by reference: the profile, the analyses, the report view,
the pinned sources, and the suites' strata / cover / unit keys. `part_problems` checks the
parts that need no data (each reference imports and is of the right kind, the sources file
reads); `suite_problems` checks the suites against the benchmark's samples (every key is a
sample group; every size can be drawn: at least the strata's guaranteed minimum). Each
problem is one line naming the benchmark, the part and the reference.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from biasaudit.benchmark_spec import BenchmarkSpec
from biasaudit.errors import BiasauditError, PluginError, one_line


def _import(ref: str) -> Any:
    from biasaudit.importing import import_object

    return import_object(ref)


def part_problems(name: str, spec: BenchmarkSpec) -> list[str]:
    """One line per declared part of `spec` that cannot be loaded (no data is read)."""
    from biasaudit.analysis import Analysis
    from biasaudit.discovery import spec_sources
    from biasaudit.profile.validity import benchmark_profile

    problems: list[str] = []
    try:
        benchmark_profile(name)
    except PluginError as exc:
        problems.append(str(exc))
    for analysis, ref in sorted(spec.analyses.items()):
        try:
            obj = _import(ref)
        except Exception as exc:  # a plug-in's broken part is its own one-line problem
            problems.append(
                f"benchmark '{name}': its analysis '{analysis}' {ref} cannot be loaded "
                f"({one_line(exc)})"
            )
            continue
        if not isinstance(obj, Analysis):
            problems.append(
                f"benchmark '{name}': its analysis '{analysis}' {ref} is not an Analysis"
            )
    if spec.report_view is not None:
        try:
            view = _import(spec.report_view)
        except Exception as exc:
            problems.append(
                f"benchmark '{name}': its report view {spec.report_view} cannot be loaded "
                f"({one_line(exc)})"
            )
        else:
            if not callable(view):
                problems.append(
                    f"benchmark '{name}': its report view {spec.report_view} is not callable"
                )
    if spec.sources is not None:
        try:
            spec_sources(spec)
        except BiasauditError as exc:
            problems.append(f"benchmark '{name}': its sources cannot be read ({exc})")
    return problems


def suite_problems(name: str, spec: BenchmarkSpec, groups: Sequence[dict[str, str]]) -> list[str]:
    """One line per suite whose keys are not groups of the samples (`groups`: each sample's
    groups) or whose size is below what its strata guarantee (min_per_stratum each)."""
    declared = spec.suites
    if declared is None or not groups:
        return []
    keys = set().union(*groups)
    problems: list[str] = []
    if declared.unit is not None and declared.unit not in keys:
        problems.append(
            f"benchmark '{name}': suite unit key {declared.unit!r} is not a sample group"
        )
    for suite in ("demo", "quick", "standard", "full"):
        entry = declared.entry(suite)
        if entry is None:
            continue
        strata, cover = declared.keys(suite)
        unknown = sorted({*strata, *cover} - keys)
        if unknown:
            problems.append(
                f"benchmark '{name}': suite {suite}: keys {unknown} are not sample groups"
            )
            continue
        if entry.size is not None and declared.min_per_stratum:
            cells = {tuple(g.get(k, "") for k in strata) for g in groups}
            floor = declared.min_per_stratum * len(cells)
            if entry.size < floor:
                problems.append(
                    f"benchmark '{name}': suite {suite}: size {entry.size} is below the "
                    f"{floor} units its {len(cells)} strata keep ({declared.min_per_stratum} each)"
                )
    return problems
