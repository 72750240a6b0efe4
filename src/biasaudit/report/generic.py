"""Sections every benchmark gets: headline metrics, outcome rates, per-group charts, provenance.

Each function takes all runs being reported, so one run and several runs side by side share
the code: with several runs, tables gain a column block per run and charts a series per run.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from biasaudit.metrics.grouped import OUTCOMES
from biasaudit.report import html, svg
from biasaudit.report.runs import LoadedRun
from biasaudit.report.sections import Section
from biasaudit.results.schema import BenchmarkResult, GroupValue, MetricValue, NoiseFloor


def _present(runs: Sequence[LoadedRun], bench: str) -> list[tuple[LoadedRun, BenchmarkResult]]:
    return [(run, b) for run in runs if (b := run.benchmark(bench)) is not None]


def _metric_names(results: Sequence[BenchmarkResult]) -> list[str]:
    names: dict[str, None] = {}
    for result in results:
        for metric in result.metrics:
            names.setdefault(metric.name, None)
    return list(names)


def _find(result: BenchmarkResult, name: str) -> MetricValue | None:
    return next((m for m in result.metrics if m.name == name), None)


def _outcome_labels(metrics: Sequence[MetricValue]) -> list[str]:
    seen = {label for m in metrics for label in m.outcome_rates}
    seen |= {
        label for m in metrics for b in m.breakdowns for g in b.groups for label in g.outcome_rates
    }
    return [o for o in OUTCOMES if o in seen] + sorted(seen - set(OUTCOMES))


def headline_section(runs: Sequence[LoadedRun], bench: str) -> Section:
    """Every metric with its value, CI and n (one column block per run), and its meaning."""
    present = _present(runs, bench)
    columns = ["metric"]
    for run, _ in present:
        prefix = f"{run.label}: " if len(present) > 1 else ""
        columns += [f"{prefix}value", f"{prefix}95% CI", f"{prefix}n", f"{prefix}excluded"]
    columns += ["better", "description"]
    rows = []
    for name in _metric_names([b for _, b in present]):
        row: list[object] = [name]
        described: MetricValue | None = None
        for _, result in present:
            metric = _find(result, name)
            described = described or metric
            if metric is None:
                row += [None, None, None, None]
            else:
                gated = (metric.undefined_reason or "").startswith("not measurable")
                row += [
                    metric.undefined_reason if gated else metric.value,
                    html.ci_text(metric.ci_low, metric.ci_high, metric.ci_level),
                    metric.n,
                    metric.n_excluded,
                ]
        assert described is not None
        better = {True: "higher", False: "lower", None: "–"}[described.higher_is_better]
        why = described.undefined_reason if described.value is None else None
        text = f"not measurable: {why}. {described.description}" if why else described.description
        row += [better, text]
        rows.append(row)
    methods = sorted({m.ci_method for _, b in present for m in b.metrics if m.ci_method})
    body = html.table(columns, rows, caption=f"{bench}: headline metrics")
    if methods:
        body += html.note("CI methods: " + "; ".join(methods) + ".")
    return Section(f"{bench}: headline metrics", body)


#: Metrics drawn in a benchmark's overview chart, at most.
OVERVIEW_METRICS = 8


def _unit_scale(metric: MetricValue) -> bool:
    values = (metric.value, metric.ci_low, metric.ci_high)
    return metric.value is not None and all(v is None or 0.0 <= v <= 1.0 for v in values)


def overview_chart(runs: Sequence[LoadedRun], bench: str) -> str | None:
    """The benchmark's metrics on a 0-1 scale (shares, rates), a bar per run, with CIs."""
    present = _present(runs, bench)
    names = [
        n
        for n in _metric_names([b for _, b in present])
        if all((m := _find(b, n)) is None or _unit_scale(m) for _, b in present)
    ][:OVERVIEW_METRICS]
    if not names:
        return None
    series = []
    rows: list[list[object]] = [[n] for n in names]
    for run, result in present:
        found = [_find(result, n) for n in names]
        series.append(
            svg.BarSeries(
                run.label,
                [m.value if m else None for m in found],
                [m.ci_low if m else None for m in found],
                [m.ci_high if m else None for m in found],
            )
        )
        for row, m in zip(rows, found, strict=True):
            row += [m.value, html.ci_text(m.ci_low, m.ci_high, m.ci_level)] if m else [None, None]
    columns = ["metric"]
    for run, _ in present:
        columns += [f"{run.label}: value", f"{run.label}: 95% CI"]
    title = f"{bench}: metrics on a 0–1 scale, by run"
    chart = svg.bar_chart(title, names, series, x_label="value (95% CI)", domain=(0.0, 1.0))
    return html.figure(chart, html.table(columns, rows), title)


def outcome_section(runs: Sequence[LoadedRun], bench: str) -> Section:
    """Shares of each parse outcome, overall per metric and per group of the first metric."""
    present = _present(runs, bench)
    metrics = [m for _, b in present for m in b.metrics]
    labels = _outcome_labels(metrics)
    if not labels:
        return Section(
            f"{bench}: outcomes", html.note("No parse outcomes recorded for this benchmark.")
        )
    rows = []
    for run, result in present:
        for metric in result.metrics:
            if metric.outcome_rates:
                rows.append(
                    [run.label, metric.name, *(metric.outcome_rates.get(o, 0.0) for o in labels)]
                )
    body = html.table(["run", "metric", *labels], rows, caption="outcome rates (share of answers)")
    first = next((m for m in present[0][1].metrics if m.by_group and m.outcome_rates), None)
    if first is not None:
        cats, shares, table_rows = [], [], []
        for run, result in present:
            found = _find(result, first.name)
            if found is None:
                continue
            for group in found.by_group:
                cat = f"{group.group} · {run.label}" if len(present) > 1 else group.group
                cats.append(cat)
                shares.append([group.outcome_rates.get(o, 0.0) for o in labels])
                table_rows.append([cat, group.n, *shares[-1]])
        title = f"{bench}: outcome rates by {first.group_by or 'group'} ({first.name})"
        chart = svg.stacked_chart(title, cats, labels, shares)
        body += html.figure(
            chart, html.table([first.group_by or "group", "n", *labels], table_rows), title
        )
    return Section(f"{bench}: outcomes (answered, refused, unparsed, ...)", body)


def _groups(metric: MetricValue, by: str) -> list[GroupValue]:
    return next((b.groups for b in metric.breakdowns if b.by == by), [])


def group_chart(runs: Sequence[LoadedRun], bench: str, name: str, by: str) -> str | None:
    """Bar chart with CI whiskers of one metric by one grouping (a series per run), a table."""
    present = [(run, m) for run, b in _present(runs, bench) if (m := _find(b, name)) is not None]
    present = [(run, m) for run, m in present if _groups(m, by)]
    if not present:
        return None
    groups: dict[str, None] = {}
    for _, metric in present:
        for g in _groups(metric, by):
            groups.setdefault(g.group, None)
    categories = list(groups)
    series, columns = [], [by]
    rows: list[list[object]] = [[c] for c in categories]
    for run, metric in present:
        by_label = {g.group: g for g in _groups(metric, by)}
        picked = [by_label.get(c) for c in categories]
        series.append(
            svg.BarSeries(
                run.label,
                [g.value if g else None for g in picked],
                [g.ci_low if g else None for g in picked],
                [g.ci_high if g else None for g in picked],
            )
        )
        prefix = f"{run.label}: " if len(present) > 1 else ""
        columns += [f"{prefix}value", f"{prefix}95% CI", f"{prefix}n"]
        for row, pick in zip(rows, picked, strict=True):
            row += (
                [pick.value, html.ci_text(pick.ci_low, pick.ci_high, metric.ci_level), pick.n]
                if pick
                else [None, None, None]
            )
    first = present[0][1]
    title = f"{name} by {by}"
    caption = title + (f": {first.description}" if first.description else "")
    chart = svg.bar_chart(title, categories, series, x_label=name)
    return html.figure(chart, html.table(columns, rows), caption)


def _floor_row(
    run: LoadedRun, metric: MetricValue, by: str, floor: NoiseFloor | None
) -> list[object] | None:
    if floor is None or floor.observed is None:
        return None
    within = floor.null_p95 is not None and floor.observed <= floor.null_p95
    reading = (
        "within chance (at or below the null's 95th percentile)"
        if within
        else ("above the chance floor")
    )
    return [
        run.label, metric.name, by, floor.observed, floor.null_mean, floor.null_p95,
        floor.p_value, _shuffled(floor), floor.n_permutations, reading,
    ]  # fmt: skip


def _shuffled(floor: NoiseFloor) -> str:
    """Within which key labels moved, and whether whole units (clusters, blocks) moved."""
    within = floor.permuted_within or "-"
    return f"{within} (whole {floor.permuted_unit} levels)" if floor.permuted_unit else within


def noise_floor_section(runs: Sequence[LoadedRun], bench: str) -> Section:
    """Each group-gap score next to the gap that shuffled group labels give."""
    rows = []
    for run, result in _present(runs, bench):
        for metric in result.metrics:
            candidates = [(metric.name if metric.noise_floor else "", metric.noise_floor)]
            candidates += [(b.by, b.noise_floor) for b in metric.breakdowns]
            candidates += [(c.name, c.noise_floor) for c in metric.contrasts]
            for by, floor in candidates:
                if (row := _floor_row(run, metric, by or "(the score itself)", floor)) is not None:
                    rows.append(row)
            for b in metric.breakdowns:
                if b.noise_floor_reason:
                    rows.append([run.label, metric.name, b.by, *["–"] * 6, b.noise_floor_reason])
    title = f"{bench}: noise floors of group gaps"
    if not rows:
        return Section(title, html.note("No metric of this benchmark reports a noise floor."))
    columns = [
        "run", "metric", "gap across", "observed", "null mean", "null 95th pct", "p",
        "shuffled within", "permutations", "reading",
    ]  # fmt: skip
    body = html.note(
        "A gap between groups is never exactly 0 on finite data. Group labels were shuffled "
        "(within the stated unit) and the gap recomputed: a gap at or below the null's 95th "
        "percentile is what a model treating every group alike would show."
    )
    return Section(title, body + html.table(columns, rows, caption=title))


def contrast_section(runs: Sequence[LoadedRun], bench: str) -> Section | None:
    """Signed contrasts mean(a) - mean(b) with CI and two-sided permutation p (None: none)."""
    rows = []
    for run, result in _present(runs, bench):
        for metric in result.metrics:
            for c in metric.contrasts:
                p = c.noise_floor.p_value if c.noise_floor else None
                rows.append(
                    [
                        run.label, metric.name, c.name, c.value,
                        html.ci_text(c.ci_low, c.ci_high, metric.ci_level), c.n_a, c.n_b,
                        p, c.undefined_reason or c.noise_floor_reason or "",
                    ]
                )  # fmt: skip
    if not rows:
        return None
    title = f"{bench}: signed contrasts (a - b)"
    columns = [
        "run",
        "metric",
        "contrast",
        "a - b",
        "95% CI",
        "n a",
        "n b",
        "p (two-sided)",
        "note",
    ]
    body = html.note(
        "Directional differences between two groups (or one group and the rest): the CI "
        "bootstraps the difference with the metric's clusters and strata; p is the share of "
        "label shuffles giving a |difference| at least as large."
    )
    return Section(title, body + html.table(columns, rows, caption=title))


def group_section(runs: Sequence[LoadedRun], bench: str) -> Section:
    present = _present(runs, bench)
    breakdowns: dict[tuple[str, str], None] = {}
    for _, result in present:
        for metric in result.metrics:
            for breakdown in metric.breakdowns:
                breakdowns.setdefault((metric.name, breakdown.by), None)
    charts = [c for n, by in breakdowns if (c := group_chart(runs, bench, n, by))]
    body = (
        f'<div class="grid">{"".join(charts)}</div>'
        if charts
        else html.note("No metric has a by-group breakdown.")
    )
    return Section(f"{bench}: by group (95% CI whiskers)", body)


def _plain(value: object) -> object:
    return value if isinstance(value, str | int | float) else json.dumps(value)


def _identity_rows(run: LoadedRun) -> list[list[object]]:
    r = run.result
    rows: list[list[object]] = [
        ["model spec", r.model.spec],
        ["backend", r.model.backend],
        *([f"model {k}", _plain(v)] for k, v in r.model.identity.items()),
        ["backend fingerprint", r.model.fingerprint],
        ["chat rendered as transcript", r.model.chat_as_transcript],
        ["toolkit", f"biasaudit {r.toolkit.version}"],
        ["git revision", r.toolkit.git_revision or "unknown"],
        ["python", r.toolkit.python],
        ["created", r.created_at],
        ["seed", r.seed],
        ["batch size", r.batch_size],
        ["limit", r.limit if r.limit is not None else "none (all samples)"],
        ["shard", r.shard or "none"],
        ["run directory", str(run.path)],
    ]
    return rows


def _benchmark_rows(result: BenchmarkResult) -> list[list[object]]:
    rows: list[list[object]] = [
        ["version", result.version],
        ["options", json.dumps(result.options, sort_keys=True)],
        ["samples", f"{result.n_samples} ({result.n_excluded} excluded)"],
        ["samples hash", result.samples_hash],
        ["prompt templates", ", ".join(result.prompt_template_ids) or "–"],
        [
            "requests",
            f"{result.requests_sent} sent, {result.requests_cached} cached, "
            f"{result.requests_failed} failed",
        ],
        ["wall time", f"{result.wall_time_s:.1f} s"],
    ]
    rows += [[f"data {f.path}", f"sha256 {f.sha256}"] for f in result.data_files]
    return rows


def provenance_section(run: LoadedRun) -> Section:
    """Who and what produced a run: model identity, toolkit, data checksums, options, seed."""
    body = html.table(["field", "value"], _identity_rows(run), caption=f"run: {run.label}")
    for result in run.result.benchmarks:
        body += html.table(
            ["field", "value"], _benchmark_rows(result), caption=f"benchmark: {result.benchmark}"
        )
    return Section(f"Provenance: {run.label}", body)
