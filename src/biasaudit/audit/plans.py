"""A suite's plan for each benchmark: options, stratified sample, or why it is skipped."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from biasaudit.api import build_benchmarks
from biasaudit.contract import Benchmark
from biasaudit.declarations import part_problems
from biasaudit.discovery import open_store
from biasaudit.errors import BiasauditError, RunError
from biasaudit.options import parse_options
from biasaudit.plugin import get_spec
from biasaudit.profile_spec import BenchmarkProfile
from biasaudit.sampling import Selection
from biasaudit.selection import sample_benchmark


@dataclass
class BenchmarkPlan:
    """What a suite does with one benchmark: run it (options, selection) or skip it."""

    name: str
    options: dict[str, Any] = field(default_factory=dict)
    selection: Selection | None = None
    skip_reason: str | None = None
    #: The benchmark built for the plan (None when skipped): the object the run uses.
    bench: Benchmark | None = None

    def built(self) -> Benchmark:
        """The benchmark object of a plan that runs."""
        if self.bench is None:
            raise RunError(f"benchmark '{self.name}' is skipped: {self.skip_reason}")
        return self.bench


def _suite_options(
    name: str, suite: str, user: dict[str, Any]
) -> tuple[dict[str, Any] | None, str | None]:
    """(options, None) for a benchmark in `suite`, or (None, why it is skipped)."""
    declared = get_spec(name).suites
    if declared is None:
        if suite != "full":
            return None, f"declares no '{suite}' subset (SPEC.suites); it runs in --suite full"
        return dict(user), None
    entry = declared.entry(suite)
    if entry is None:
        return None, f"declares no '{suite}' subset"
    for option, why in declared.requires.items():
        if option not in user:
            return None, f"needs -O {name}.{option}=...: {why}"
    return {**entry.options, **user}, None


def _default_of(bench_cls: type[Benchmark], option: str) -> Any:
    info = bench_cls.Options.model_fields.get(option)
    return None if info is None else info.get_default(call_default_factory=True)


def plan_suite(
    names: Sequence[str],
    suite: str,
    user_options: dict[str, dict[str, Any]],
    *,
    seed: int,
    data_dir: str | Path | None,
) -> list[BenchmarkPlan]:
    """Each benchmark's plan in `suite`; a benchmark whose data cannot be read is skipped
    with the error (the rest of the audit still runs)."""
    from biasaudit.plugin import benchmark_class

    store = open_store(data_dir)
    plans: list[BenchmarkPlan] = []
    built: dict[str, Benchmark] = {}
    for name in names:
        user = user_options.get(name, {})
        options, why = _suite_options(name, suite, user)
        declared = get_spec(name).suites
        if options is not None and declared is not None:
            cls = benchmark_class(name)
            for option in declared.requires:
                if user.get(option) == _default_of(cls, option):
                    options, why = (
                        None,
                        f"-O {name}.{option} is the default: {declared.requires[option]}",
                    )
        if options is None:
            plans.append(BenchmarkPlan(name, skip_reason=why))
            continue
        broken = part_problems(name, get_spec(name))  # a broken part skips this benchmark only
        if broken:
            plans.append(BenchmarkPlan(name, skip_reason=f"cannot load: {'; '.join(broken)}"))
            continue
        if user:  # the user's own -O mistake stops the audit (exit 2), never a skip
            parse_options(benchmark_class(name).Options, options, name)
        try:
            bench = build_benchmarks([name], {name: options}, store, seed)[0]
            for key in bench.data_keys():
                store.path(key)
            entry = declared.entry(suite) if declared is not None else None
            selection = (
                sample_benchmark(bench, entry.size, seed, suite)
                if entry is not None and entry.size is not None
                else None
            )
        except BiasauditError as exc:
            plans.append(BenchmarkPlan(name, skip_reason=f"cannot load: {exc}"))
            continue
        built[name] = bench
        plans.append(BenchmarkPlan(name, options=options, selection=selection, bench=bench))
    join_statement_raters(plans, built, suite, seed)
    return plans


def join_statement_raters(
    plans: Sequence[BenchmarkPlan], built: dict[str, Benchmark], suite: str, seed: int
) -> None:
    """Redraw the sample of each benchmark whose profile rates statements (COBIAS:
    `rates_statements`) from the statements of the other benchmarks' drawn samples first
    (profiles with `statement_keys`: CrowS-Pairs, StereoSet), so that the reliability filter
    (biasaudit.profile.reliability) has statements to join; the rest fills up only when
    there are too few. Benchmarks run in full (no selection) are left as they are."""
    from biasaudit.profile.reliability import data_statements, norm

    drawn = {p.name: p.selection for p in plans if p.selection is not None}
    profiles = {name: _profile_of(built[name]) for name in drawn}
    targets = sorted(n for n, p in profiles.items() if p.statement_keys)
    statements: set[str] = set()
    for name in targets:
        keys, ids = profiles[name].statement_keys, drawn[name].ids
        for sample in built[name].samples():
            if sample.id in ids:
                statements |= data_statements(sample.data, keys)
    for plan in plans:
        rates = profiles[plan.name].rates_statements if plan.name in profiles else None
        if rates is None or not statements or plan.selection is None:
            continue
        bench = built[plan.name]
        prefer = {s.id for s in bench.samples() if norm(s.data.get(rates[0], "")) in statements}
        plan.selection = sample_benchmark(
            bench, plan.selection.plan.size, seed, suite, prefer=prefer, joined_with=targets
        )


def _profile_of(bench: Benchmark) -> BenchmarkProfile:
    declared = bench.declaration
    return declared.profile if declared is not None else BenchmarkProfile()


def limit_warnings(
    names: Sequence[str],
    options: dict[str, dict[str, Any]],
    limit: int,
    data_dir: str | Path | None,
) -> list[str]:
    """One line per benchmark whose first `limit` samples miss whole groups of a key it
    stratifies by (or, without a declaration, of any of its group keys)."""
    lines: list[str] = []
    store = open_store(data_dir)
    for bench in build_benchmarks(names, options, store, 0):
        declared = bench.declaration.suites if bench.declaration is not None else None
        present: dict[str, set[str]] = {}
        kept: dict[str, set[str]] = {}
        for position, sample in enumerate(bench.samples()):
            keys = declared.strata if declared is not None else tuple(sample.groups)
            for key in keys:
                value = str(sample.groups.get(key, ""))
                present.setdefault(key, set()).add(value)
                if position < limit:
                    kept.setdefault(key, set()).add(value)
        dropped = [
            f"{len(kept.get(k, ()))} of {len(v)} {k}"
            for k, v in present.items()
            if len(kept.get(k, ())) < len(v) and len(v) <= 100
        ]
        if dropped:
            lines.append(
                f"--limit {limit} takes the first {limit} {bench.name} samples in file order "
                f"and keeps {', '.join(dropped)}; --sample {limit} draws a stratified subset"
            )
    return lines
