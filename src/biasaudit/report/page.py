"""Assemble the self-contained report.html from loaded runs.

The page has no script and no external reference: styles are inline, charts are inline SVG,
and a Content-Security-Policy forbids loading anything, so the file works offline and a stray
URL cannot phone home.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from html import escape
from pathlib import Path

from biasaudit._version import __version__
from biasaudit.errors import RunError
from biasaudit.profile.build import build_profile
from biasaudit.profile.model import Profile
from biasaudit.report import generic, html, svg
from biasaudit.report.compare import Difference, compare_runs
from biasaudit.report.profile_view import profile_html
from biasaudit.report.runs import LoadedRun, benchmark_names, load_runs
from biasaudit.report.samples import samples_section
from biasaudit.report.sections import Section
from biasaudit.report.style import CSS
from biasaudit.report.views import view_sections
from biasaudit.results.outputs import atomic_output, check_output_file
from biasaudit.results.schema import SampleRecord

CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:"


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "section"


def _render(section: Section, level: int = 3, scope: str = "") -> str:
    """A section with a heading; `scope` (a run label) keeps ids unique across runs."""
    anchor = _slug(f"{scope} {section.title}")
    return (
        f'<section class="sub" id="{anchor}"><h{level}>{escape(section.title)}'
        f"</h{level}>{section.body}</section>"
    )


def _columns(parts: Sequence[str]) -> str:
    """Side by side when there are several (one per run), stacked on narrow screens."""
    return f'<div class="runs">{"".join(parts)}</div>' if len(parts) > 1 else "".join(parts)


def _overview(runs: Sequence[LoadedRun]) -> str:
    """Each benchmark's first metric, a row per run, then a chart of its 0-1 metrics."""
    rows: list[list[object]] = []
    for bench in benchmark_names(runs):
        first = next(b for run in runs if (b := run.benchmark(bench)) is not None)
        if not first.metrics:
            continue
        name = first.metrics[0].name
        for run in runs:
            result = run.benchmark(bench)
            metric = next((m for m in result.metrics if m.name == name), None) if result else None
            if metric is not None:
                ci = html.ci_text(metric.ci_low, metric.ci_high, metric.ci_level)
                rows.append([bench, name, run.label, metric.value, ci, metric.n])
    columns = ["benchmark", "metric", "run", "value", "95% CI", "n"]
    table = html.table(columns, rows, caption="headline metric of each benchmark")
    charts = [c for bench in benchmark_names(runs) if (c := generic.overview_chart(runs, bench))]
    return table + f'<div class="grid">{"".join(charts)}</div>'


def _difference_rows(diffs: Sequence[Difference]) -> list[list[object]]:
    return [
        [
            d.metric,
            d.group or "(overall)",
            d.baseline_value,
            html.ci_text(d.baseline_ci_low, d.baseline_ci_high),
            d.other_value,
            html.ci_text(d.other_ci_low, d.other_ci_high),
            d.difference,
            html.ci_text(d.ci_low, d.ci_high),
            d.method or "–",
            d.reading(),
        ]
        for d in diffs
    ]


def comparison_html(runs: Sequence[LoadedRun], diffs: Sequence[Difference]) -> str:
    """Tables and forest plots of each later run minus the first, per benchmark."""
    parts = [
        html.paragraph(
            f"Differences are '{'other run'} minus {runs[0].label}' (the first run given). "
            "'paired bootstrap': same samples in both runs, paired by sample hash and resampled "
            "together (by the metric's own clusters). 'conservative': [low_other - high_base, "
            "high_other - low_base] from the two stored 95% CIs, used for different samples or "
            "for metrics that are not per-sample means; it covers at least 90% (Bonferroni) and "
            "usually far more."
        )
    ]
    for other in runs[1:]:
        for bench in benchmark_names(runs):
            mine = [d for d in diffs if d.other == other.label and d.benchmark == bench]
            if not mine:
                continue
            overall = [d for d in mine if not d.group]
            columns = [
                "metric",
                "group",
                runs[0].label,
                "95% CI",
                other.label,
                "95% CI",
                "difference",
                "interval of difference",
                "method",
                "reading",
            ]
            title = f"{bench}: {other.label} minus {runs[0].label}"
            chart = svg.forest_chart(
                title,
                [svg.Interval(d.metric, d.difference, d.ci_low, d.ci_high) for d in overall],
                x_label=f"{other.label} − {runs[0].label}",
            )
            parts.append(f"<h3>{escape(title)}</h3>")
            parts.append(html.figure(chart, html.table(columns, _difference_rows(overall)), title))
            by_group = [d for d in mine if d.group]
            if by_group:
                parts.append(
                    '<details class="tbl"><summary>Differences by group</summary>'
                    f"{html.table(columns, _difference_rows(by_group))}</details>"
                )
    return "".join(parts)


def _benchmark_html(runs: Sequence[LoadedRun], bench: str) -> str:
    parts = [
        _render(generic.headline_section(runs, bench)),
        _render(generic.outcome_section(runs, bench)),
        _render(generic.group_section(runs, bench)),
        _render(generic.noise_floor_section(runs, bench)),
    ]
    if (contrasts := generic.contrast_section(runs, bench)) is not None:
        parts.append(_render(contrasts))
    present = [(run, b) for run in runs if (b := run.benchmark(bench)) is not None]
    views = []
    for run, result in present:
        sections = view_sections(result, run.samples(bench))
        label = f'<p class="runlabel">{escape(run.label)}</p>' if len(present) > 1 else ""
        if sections:
            rendered = "".join(_render(s, 4, run.label) for s in sections)
            views.append(f"<div>{label}{rendered}</div>")
    if views:
        parts.append(f"<h3>{escape(bench)}: benchmark views</h3>{_columns(views)}")
    samples = [_render(samples_section(run, result), 4) for run, result in present]
    parts.append(f"<h3>{escape(bench)}: sample browser</h3>{_columns(samples)}")
    return "".join(parts)


def _profiles(runs: Sequence[LoadedRun]) -> list[tuple[str, Profile]]:
    return [
        (run.label, build_profile(run.result, _all_records(run), run_dir=str(run.path)))
        for run in runs
    ]


def _all_records(run: LoadedRun) -> list[SampleRecord]:
    return [r for records in run.records.values() for r in records]


def status_banner(runs: Sequence[LoadedRun]) -> str:
    """A banner at the top for every run whose results are not complete (results.json
    `status`): a partial or failed audit must not read like a finished one."""
    notes = [
        f'<div class="banner" role="alert"><strong>{escape(run.label)}: '
        f"{escape(run.result.status)} run.</strong> {escape(run.result.status_reason or '')} "
        "The numbers below cover only what finished; rerun with --resume to complete it.</div>"
        for run in runs
        if run.result.status != "complete"
    ]
    return "".join(notes)


def build_html(runs: Sequence[LoadedRun]) -> str:
    """The whole report for `runs` (one run, or several side by side)."""
    benches = benchmark_names(runs)
    toc = [("profile", "Bias profile"), ("overview", "Overview")]
    body = [
        f'<section id="profile"><h2>Bias profile</h2>{profile_html(_profiles(runs))}</section>',
        f'<section id="overview"><h2>Overview</h2>{_overview(runs)}</section>',
    ]
    if len(runs) > 1:
        toc.append(("comparison", "Comparison"))
        diffs = compare_runs(runs)
        body.append(
            f'<section id="comparison"><h2>Comparison</h2>{comparison_html(runs, diffs)}</section>'
        )
    for bench in benches:
        anchor = f"bench-{_slug(bench)}"
        toc.append((anchor, bench))
        body.append(
            f'<section id="{anchor}"><h2>{escape(bench)}</h2>'
            f"{_benchmark_html(runs, bench)}</section>"
        )
    toc.append(("provenance", "Provenance"))
    provenance = [_render(generic.provenance_section(run)) for run in runs]
    body.append(f'<section id="provenance"><h2>Provenance</h2>{_columns(provenance)}</section>')
    nav = "".join(f'<li><a href="#{a}">{escape(t)}</a></li>' for a, t in toc)
    labels = ", ".join(run.label for run in runs)
    title = f"biasaudit report: {labels}"
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f'<meta http-equiv="Content-Security-Policy" content="{CSP}">'
        f"<title>{escape(title)}</title><style>{CSS}</style></head><body>"
        f'<header><h1>biasaudit report</h1><p class="meta">{len(runs)} run(s): {escape(labels)} · '
        f"benchmarks: {escape(', '.join(benches))} · biasaudit {escape(__version__)}</p></header>"
        f"{status_banner(runs)}"
        f'<nav aria-label="Contents"><ol>{nav}</ol></nav><main>{"".join(body)}</main>'
        "<footer><p>Generated by biasaudit. Every chart has a table equivalent under it. "
        "Sample transcripts may contain offensive text and are collapsed.</p></footer>"
        "</body></html>\n"
    )


def write_report(run_dirs: Sequence[str | Path], output: str | Path) -> Path:
    """Build the report for `run_dirs` and write it to `output`."""
    out = Path(output)
    if out.is_dir():
        raise RunError(f"{out}: is a directory; give a file name such as report.html")
    check_output_file(out, run_dirs)
    page = build_html(load_runs(run_dirs))
    with atomic_output(out) as tmp:  # a killed or failed write keeps the previous report
        tmp.write_text(page, encoding="utf-8")
    return out
