"""The bias profile of one run folder: axes x benchmarks cells with FDR-controlled verdicts.

Rows: an ``overall`` row per benchmark (its effect over all its items: the benchmark's
headline metric, computed by the same per-sample scores), one row per axis, and above them a
``pooled`` column per axis (`pooled`: random-effects meta-analysis over the benchmarks that
measure it). Every measurable cell gets a p-value against "no bias" (`stats`); the verdicts
then control the false discovery rate over the whole profile with Benjamini-Hochberg at
`alpha` and size what each test could have missed (`verdicts`: a finding, negligible within
the benchmark's margin, or inconclusive with its minimum detectable effect). Cells failing a
validity gate are "not measurable: <reason>" and are not tested.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from pathlib import Path

from biasaudit.axes import AXES, axis_order
from biasaudit.metrics.bootstrap import bootstrap_ci, bootstrap_difference_ci
from biasaudit.metrics.keys import sample_key
from biasaudit.metrics.tests import contrast_test, sign_flip_test
from biasaudit.profile.model import (
    AGAINST,
    NOT_MEASURABLE,
    OVERALL,
    POOLED,
    TOWARD,
    BenchmarkColumn,
    Profile,
    ProfileCell,
)
from biasaudit.profile.pooled import pooled_cells
from biasaudit.profile.reliability import reliable_statements, statement_texts
from biasaudit.profile.validity import ANSWERS, benchmark_profile, pct, validity_of
from biasaudit.profile.verdicts import apply_verdicts
from biasaudit.profile_spec import BenchmarkProfile, Effect, Gates, matches
from biasaudit.results.io import iter_samples, read_results
from biasaudit.results.schema import RunResult, SampleRecord

N_RESAMPLES = 2000


def _seed(base: int, *parts: str) -> int:
    digest = hashlib.sha256("\x00".join(parts).encode()).digest()
    return base + int.from_bytes(digest[:4], "big")


def _answer_rate(records: Sequence[SampleRecord]) -> float | None:
    outcomes = [o for r in records for o in r.outcomes]
    return sum(o in ANSWERS for o in outcomes) / len(outcomes) if outcomes else None


def _cluster(record: SampleRecord, effect: Effect) -> str:
    return sample_key(record, effect.cluster, "") if effect.cluster else record.sample_id


def _scored(records: Sequence[SampleRecord], effect: Effect) -> list[tuple[SampleRecord, float]]:
    out = []
    for record in records:
        value = None if record.excluded else effect.value(record)
        if value is not None:
            out.append((record, float(value)))
    return out


def _cell_gate(
    records: Sequence[SampleRecord], n: int, gates: Gates, bench_reason: str | None
) -> tuple[str | None, float | None]:
    rate = _answer_rate(records)
    if bench_reason:
        return bench_reason, rate
    if rate is not None and rate < gates.min_answer_rate:
        return f"answer rate {pct(rate)} (< {pct(gates.min_answer_rate)})", rate
    if n < gates.min_n:
        return f"n = {n} (< {gates.min_n})", rate
    return None, rate


def _one_sample(
    cell: ProfileCell, scored: list[tuple[SampleRecord, float]], effect: Effect, seed: int
) -> None:
    deviations = [v - effect.unbiased for _, v in scored]
    clusters = [_cluster(r, effect) for r, _ in scored]
    cell.value = sum(v for _, v in scored) / len(scored)
    cell.effect = cell.value - effect.unbiased
    low, high = bootstrap_ci(deviations, seed=seed, n_resamples=N_RESAMPLES, clusters=clusters)
    cell.ci_low, cell.ci_high = low, high
    unit = f"whole {effect.cluster} clusters" if effect.cluster else "samples"
    cell.ci_method = f"percentile bootstrap, {N_RESAMPLES} resamples of {unit}"
    cell.p_value, cell.test = sign_flip_test(deviations, clusters, seed=seed)
    if not effect.cluster:
        cell.test = cell.test.replace(" clusters", " samples")
    cell.n_clusters = len(set(clusters))


def _contrast(
    cell: ProfileCell,
    scored: list[tuple[SampleRecord, float]],
    rest: list[tuple[SampleRecord, float]],
    effect: Effect,
    seed: int,
) -> None:
    both = scored + rest
    values = [v for _, v in both]
    member = [True] * len(scored) + [False] * len(rest)
    clusters = [_cluster(r, effect) for r, _ in both]
    strata = [sample_key(r, effect.stratum, "") if effect.stratum else "" for r, _ in both]
    group_mean = sum(v for _, v in scored) / len(scored)
    cell.value = group_mean
    cell.effect = group_mean - sum(v for _, v in rest) / len(rest)

    in_group = {c for c, m in zip(clusters, member, strict=True) if m}
    in_rest = {c for c, m in zip(clusters, member, strict=True) if not m}
    if min(len(in_group), len(in_rest)) >= 2:  # each side needs two clusters to vary
        # the group's values come first, so its clusters are drawn first (metrics.bootstrap)
        cell.ci_low, cell.ci_high = bootstrap_difference_ci(
            values, member, seed=seed, n_resamples=N_RESAMPLES, clusters=clusters,
            strata=["group" if m else "others" for m in member],
        )  # fmt: skip
    unit = f"whole {effect.cluster} clusters" if effect.cluster else "samples"
    cell.ci_method = f"percentile bootstrap, {N_RESAMPLES} resamples of {unit} within group/others"
    cell.p_value, cell.test = contrast_test(values, member, clusters, strata, seed=seed)
    cell.n_clusters = len(in_group)


def _group_of(record: SampleRecord, effect: Effect) -> tuple[str, str] | None:
    """(axis, level) of a record, or None when its level is not mapped."""
    level = record.groups.get(effect.group_key)
    axis = effect.axes.get(level) if level is not None else None
    return None if axis is None or level is None else (axis, level)


def _constant(scored: list[tuple[SampleRecord, float]]) -> str | None:
    """A contrast whose samples all score the same value shows 0 by construction."""
    values = {v for _, v in scored}
    if len(values) != 1:
        return None
    return f"every sample scores {values.pop():g} (no variation to show a gap)"


def _test_cell(
    cell: ProfileCell,
    members: list[SampleRecord],
    rest: list[tuple[SampleRecord, float]],
    effect: Effect,
    gates: Gates,
    bench_reason: str | None,
    seed: int,
) -> ProfileCell:
    """Gate, then test `cell` (its members against `rest` for a contrast)."""
    scored = _scored(members, effect)
    cell.n = len(scored)
    reason, cell.answer_rate = _cell_gate(members, len(scored), gates, bench_reason)
    if reason is None and effect.design == "contrast":
        if len(rest) < gates.min_n:
            reason = f"only {len(rest)} samples in the other groups (< {gates.min_n})"
        else:
            reason = _constant(scored + rest)
    if reason is not None:
        cell.verdict = f"{NOT_MEASURABLE}: {reason}"
    elif effect.design == "one_sample":
        _one_sample(cell, scored, effect, seed)
    else:
        _contrast(cell, scored, rest, effect, seed)
    return cell


def benchmark_cells(
    benchmark: str,
    records: Sequence[SampleRecord],
    effect: Effect,
    gates: Gates,
    bench_reason: str | None,
    seed: int,
) -> list[ProfileCell]:
    """The untested-for-FDR cells of one benchmark (p-values set, verdicts provisional).

    A cell is an axis (its mapped levels pooled), or with ``per_group`` one level of an axis
    against the axis's other levels."""
    kept = [r for r in records if matches(r, effect.where)]
    by_level: dict[tuple[str, str], list[SampleRecord]] = {}
    for record in kept:
        found = _group_of(record, effect)
        if found is not None:
            by_level.setdefault(found, []).append(record)
    order = list(effect.axes)
    units: dict[tuple[str, str], list[SampleRecord]] = {}  # (axis, group) -> members
    for (axis, level), members in sorted(by_level.items(), key=lambda kv: order.index(kv[0][1])):
        units.setdefault((axis, level if effect.per_group else ""), []).extend(members)
    all_scored = _scored(kept, effect)
    cells = []
    for axis, group in sorted(units, key=lambda key: axis_order(key[0])):
        members = units[(axis, group)]
        ids = {r.sample_id for r in members}
        rest = [
            (r, v)
            for r, v in all_scored
            if r.sample_id not in ids
            and (not effect.per_group or (_group_of(r, effect) or ("",))[0] == axis)
        ]
        cell = ProfileCell(
            axis=axis,
            benchmark=benchmark,
            metric=effect.metric,
            groups=sorted({r.groups[effect.group_key] for r in members}),
            group=group,
            design=effect.design,
            unbiased=effect.unbiased,
            margin=effect.margin,
        )
        seed_parts = (benchmark, axis, group) if group else (benchmark, axis)
        s = _seed(seed, *seed_parts)
        cells.append(_test_cell(cell, members, rest, effect, gates, bench_reason, s))
    return cells


def overall_cell(
    benchmark: str,
    records: Sequence[SampleRecord],
    effect: Effect,
    gates: Gates,
    bench_reason: str | None,
    seed: int,
) -> ProfileCell | None:
    """The benchmark's headline row: its effect over every item (one-sample designs only: a
    contrast has no overall value, its groups are what it compares)."""
    if effect.design != "one_sample":
        return None
    kept = [r for r in records if matches(r, effect.where)]
    cell = ProfileCell(
        axis=OVERALL,
        benchmark=benchmark,
        metric=effect.metric,
        groups=sorted({r.groups.get(effect.group_key, "") for r in kept} - {""}),
        design=effect.design,
        unbiased=effect.unbiased,
        margin=effect.margin,
    )
    return _test_cell(cell, kept, [], effect, gates, bench_reason, _seed(seed, benchmark, OVERALL))


def _verdicts(benchmark: str) -> tuple[str, str]:
    """A flagged cell's wording: the benchmark's own, toward / against for pooled rows."""
    if benchmark == POOLED:
        return TOWARD, AGAINST
    effect = benchmark_profile(benchmark).effect
    return effect.verdicts if effect is not None else (TOWARD, AGAINST)


def apply_fdr(cells: Sequence[ProfileCell], alpha: float) -> int:
    """Set q-values, MDEs and verdicts of the tested cells (`verdicts`); return the count."""
    return apply_verdicts(cells, alpha, _verdicts)


def fdr_text(alpha: float, n_tests: int) -> str:
    if n_tests == 0:
        return "no cell was tested: every cell failed a validity gate (no FDR family)"
    return (
        f"Benjamini-Hochberg over the p-values of all {n_tests} tested cells of this profile: "
        f"a cell is flagged when its adjusted p-value (q) is <= {alpha:g}, so the expected "
        f"share of false flags among flagged cells is at most {alpha:g}; every other tested "
        "cell is negligible (95 % CI inside the benchmark's margin) or inconclusive, with the "
        "minimum detectable effect (80 % power) of the test BH applied to it"
    )


def build_profile(
    run: RunResult,
    records: Iterable[SampleRecord],
    *,
    alpha: float = 0.05,
    run_dir: str | None = None,
    summary_rows: bool = True,
) -> Profile:
    """The profile of one model's run (any run folder: results + sample records).

    `summary_rows=False` leaves out the overall rows and pooled axes (the axis cells alone,
    their own BH family): for looking at the axis mechanics apart."""
    declared = {b.benchmark: benchmark_profile(b.benchmark) for b in run.benchmarks}
    wanted = {n for n, p in declared.items() if p.effect is not None or p.rates_statements}
    by_bench: dict[str, list[SampleRecord]] = {name: [] for name in wanted}
    for record in records:
        if record.benchmark in by_bench:
            by_bench[record.benchmark].append(record)
    columns, cells = [], []
    for bench in run.benchmarks:
        decl = declared[bench.benchmark]
        validity = validity_of(bench)
        column = BenchmarkColumn(
            benchmark=bench.benchmark,
            validity=validity,
            samples_hash=bench.samples_hash,
            version=bench.version,
            no_cells=decl.no_effect,
        )
        if decl.effect is not None:
            e = decl.effect
            column.metric, column.scale, column.unbiased = e.metric, e.scale, e.unbiased
            column.direction, column.design, column.notes = e.direction, e.design, e.notes
            parts = (by_bench[bench.benchmark], e, decl.gates, validity.reason(None), run.seed)
            overall = overall_cell(bench.benchmark, *parts) if summary_rows else None
            cells += ([overall] if overall else []) + benchmark_cells(bench.benchmark, *parts)
        columns.append(column)
    factors = {
        name: decl.effect.common
        for name, decl in declared.items()
        if decl.effect is not None and decl.effect.common is not None
    }
    if summary_rows:
        cells = pooled_cells(cells, factors) + cells
    n_tests = apply_fdr(cells, alpha)
    cobias_note = _reliability_filter(run, declared, by_bench, cells)
    return Profile(
        model=run.model.spec,
        run_dir=run_dir,
        alpha=alpha,
        fdr=fdr_text(alpha, n_tests),
        n_tests=n_tests,
        axes=[a for a in (OVERALL, *AXES) if any(c.axis == a for c in cells)],
        benchmarks=columns,
        cells=cells,
        cobias_filter=cobias_note,
    )


def _subset_cell(
    cell: ProfileCell, records: Sequence[SampleRecord], effect: Effect, gates: Gates, seed: int
) -> ProfileCell:
    """`cell` recomputed on `records` (one-sample design), with its own verdict: descriptive."""
    members = [
        r
        for r in records
        if (
            cell.axis == OVERALL or effect.axes.get(r.groups.get(effect.group_key, "")) == cell.axis
        )
        and matches(r, effect.where)
    ]
    scored = _scored(members, effect)
    sub = cell.model_copy(
        update={
            "n": len(scored),
            "value": None,
            "effect": None,
            "ci_low": None,
            "ci_high": None,
            "p_value": None,
            "q_value": None,
            "reliable": None,
        }
    )
    reason, sub.answer_rate = _cell_gate(members, len(scored), gates, None)
    if reason is not None:
        sub.verdict = f"{NOT_MEASURABLE}: {reason}"
        return sub
    _one_sample(sub, scored, effect, _seed(seed, cell.benchmark, cell.axis, "reliable"))
    sub.verdict = "descriptive (not FDR-controlled)"
    return sub


def _reliability_filter(
    run: RunResult,
    declared: dict[str, BenchmarkProfile],
    by_bench: dict[str, list[SampleRecord]],
    cells: list[ProfileCell],
) -> str:
    """Add `reliable` sub-cells to the cells of benchmarks with statements, when a benchmark
    that rates statements (COBIAS) is in the run; say what was done, or why not."""
    targets = [n for n, p in declared.items() if p.statement_keys and p.effect is not None]
    raters = [n for n, p in declared.items() if p.rates_statements]
    if not targets:
        return ""
    if not raters:
        return (
            "reliability filter: not applied (no statement-rating benchmark such as cobias in "
            "this run; run it on the same statements to get it)"
        )
    rater = raters[0]
    text_key, score_key = declared[rater].rates_statements or ("", "")
    reliable, covered, threshold = reliable_statements(by_bench[rater], text_key, score_key)
    if threshold is None:
        return f"reliability filter: not applied ({rater} scored no statement)"
    notes = []
    for bench in targets:
        effect, keys = declared[bench].effect, declared[bench].statement_keys
        assert effect is not None
        joined = [r for r in by_bench[bench] if statement_texts(r, keys) & covered]
        if not joined:
            notes.append(f"{bench}: none of its statements is among {rater}'s scored statements")
            continue
        kept = [r for r in joined if statement_texts(r, keys) & reliable]
        notes.append(
            f"{bench}: {len(kept)} of {len(by_bench[bench])} samples reliable "
            f"({len(joined)} joined to {rater}'s statements)"
        )
        gates = declared[bench].gates
        for cell in (c for c in cells if c.benchmark == bench):
            cell.reliable = _subset_cell(cell, kept, effect, gates, run.seed)
    return (
        f"reliability filter ({rater}): statements with {score_key} >= the run's median "
        f"({threshold:.3g}) count as reliable (higher = more reliable); "
        + "; ".join(notes)
        + ". Filtered cells are descriptive, outside the FDR family."
    )


def profile_of_dir(
    run_dir: str | Path, *, alpha: float = 0.05, summary_rows: bool = True
) -> Profile:
    run = read_results(run_dir)
    return build_profile(
        run, iter_samples(run_dir), alpha=alpha, run_dir=str(run_dir), summary_rows=summary_rows
    )
