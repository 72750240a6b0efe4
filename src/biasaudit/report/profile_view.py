"""The report's first section: the bias profile as a heat map and a verdict table.

Rows are the demographic axes, columns the benchmarks with cells. A cell's colour is its
verdict (dark red: bias toward the stereotype, dark blue: against, white "=": negligible,
light grey: inconclusive at this n (the MDE is in the table), hatched white: not measurable,
blank: not covered; orange / purple: bias in favour of / against a group, for per-group cells
such as CALM's, which split their square
into one part per group), with a symbol for each so that greyscale and colour-blind readers
keep them apart; its text is the signed effect on the benchmark's own scale. Gated cells
show no number.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from biasaudit.profile.model import (
    AGAINST,
    DISFAVOURS,
    FAVOURS,
    INCONCLUSIVE,
    NEGLIGIBLE,
    NONE_DETECTED,
    POOLED,
    TOWARD,
    Profile,
    ProfileCell,
)
from biasaudit.report import html, svg
from biasaudit.report.palette import INK

#: verdict -> (fill, text colour, symbol)
STYLE = {
    TOWARD: ("#b2182b", "#ffffff", "▲"),
    AGAINST: ("#1b2a57", "#ffffff", "▼"),
    NONE_DETECTED: ("#e6e6e6", INK, "○"),
    INCONCLUSIVE: ("#e6e6e6", INK, "○"),
    NEGLIGIBLE: ("#ffffff", INK, "="),
    FAVOURS: ("#e08214", INK, "△"),
    DISFAVOURS: ("#542788", "#ffffff", "▽"),
}
CELL_W, CELL_H, LEFT, TOP = 92.0, 26.0, 190.0, 64.0
#: Width of one group's part of a per-group cell (its text names the group).
GROUP_W = 118.0


def _signed(value: float | None) -> str:
    if value is None:
        return "–"
    return ("+" if value > 0 else "") + svg.fmt(value, 3)


def _columns(profile: Profile) -> list[str]:
    """The pooled column first (when there is one), then the benchmarks with cells."""
    pooled = [POOLED] if any(c.benchmark == POOLED for c in profile.cells) else []
    return pooled + [
        b.benchmark
        for b in profile.benchmarks
        if any(c.benchmark == b.benchmark for c in profile.cells)
    ]


def _widths(profile: Profile, benches: list[str]) -> list[float]:
    """A column's width: one cell, or one part per group of its widest per-group row."""
    out = []
    for bench in benches:
        parts = max(len(profile.cells_at(axis, bench)) for axis in profile.axes)
        grouped = any(c.group for c in profile.cells if c.benchmark == bench)
        out.append(GROUP_W * parts if grouped else CELL_W)
    return out


def heatmap(profile: Profile, title: str) -> str:
    benches = _columns(profile)
    widths = _widths(profile, benches)
    starts = [LEFT + sum(widths[:j]) for j in range(len(benches))]
    axes = profile.axes
    # wide enough for the legend (about 7 px a character at font-size 12)
    width = max(LEFT + (sum(widths) or CELL_W) + 10, LEFT + 560.0)
    grouped = any(c.group for c in profile.cells)
    height = TOP + CELL_H * max(1, len(axes)) + (58 if grouped else 40)
    uid = svg.chart_uid("profile", title, profile.model_dump_json())
    desc = "; ".join(
        f"{c.label} / {c.benchmark}: {c.verdict}"
        + (f", effect {_signed(c.effect)}" if c.measurable else "")
        for c in profile.cells
    )
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" role="img" aria-labelledby="{uid}-t {uid}-d" '
        f'viewBox="0 0 {width:.0f} {height:.0f}" width="{width:.0f}" height="{height:.0f}" '
        f'font-family="sans-serif" font-size="12">'
        f'<title id="{uid}-t">{escape(title)}</title><desc id="{uid}-d">{escape(desc)}</desc>'
        f'<defs><pattern id="{uid}-h" width="6" height="6" patternUnits="userSpaceOnUse" '
        f'patternTransform="rotate(45)"><line x1="0" y1="0" x2="0" y2="6" stroke="#999999" '
        f'stroke-width="1"/></pattern></defs>'
    ]
    for bench, x0, w in zip(benches, starts, widths, strict=True):
        out.append(
            f'<text x="{x0 + w / 2:.1f}" y="{TOP - 8:.1f}" text-anchor="middle" fill="{INK}" '
            f'font-weight="bold">{escape(bench)}</text>'
        )
    for i, axis in enumerate(axes):
        y = TOP + CELL_H * i
        out.append(
            f'<text x="{LEFT - 8:.1f}" y="{y + CELL_H / 2 + 4:.1f}" text-anchor="end" '
            f'fill="{INK}">{escape(axis)}</text>'
        )
        for bench, x0, w in zip(benches, starts, widths, strict=True):
            cells = profile.cells_at(axis, bench)
            if not cells:
                out.append(_cell(None, x0, y, uid, w))
            part = w / max(1, len(cells))
            out += [_cell(c, x0 + part * k, y, uid, part) for k, c in enumerate(cells)]
    legend_y = TOP + CELL_H * max(1, len(axes)) + 22
    legend = [
        "▲ toward stereotype   ▼ against   = negligible   ○ inconclusive (MDE in the table)   "
        "▨ not measurable"
    ]
    if grouped:
        legend.append(
            "△ / ▽ a group against its axis' other groups: + / − (CALM: in favour of / against)"
        )
    for k, line in enumerate(legend):
        y = legend_y + 18 * k
        out.append(f'<text x="{LEFT:.1f}" y="{y:.1f}" fill="{INK}">{escape(line)}</text>')
    out.append("</svg>")
    return "".join(out)


def style(cell: ProfileCell) -> tuple[str, str, str]:
    """(fill, text colour, symbol) of a measurable cell; a benchmark's own verdict words
    (BEADs: "agrees more with labels about this group") take the per-group styles by sign."""
    if cell.verdict in STYLE:
        return STYLE[cell.verdict]
    quiet = cell.verdict.split(":", 1)[0]
    if quiet in (NEGLIGIBLE, INCONCLUSIVE):
        return STYLE[quiet]
    return STYLE[FAVOURS if (cell.effect or 0.0) > 0 else DISFAVOURS]


def _cell(cell: ProfileCell | None, x: float, y: float, uid: str, w: float = CELL_W) -> str:
    box = f'x="{x + 1:.1f}" y="{y + 1:.1f}" width="{w - 2:.1f}" height="{CELL_H - 2:.1f}"'
    if cell is None:
        return f'<rect {box} fill="#ffffff" stroke="#dddddd"/>'
    tip = f"<title>{escape(cell.label)} / {escape(cell.benchmark)}: {escape(cell.verdict)}</title>"
    cx, cy = x + w / 2, y + CELL_H / 2 + 4
    name = f"{cell.group} " if cell.group else ""
    if not cell.measurable:
        return (
            f'<g>{tip}<rect {box} fill="url(#{uid}-h)" stroke="#999999"/>'
            f'<text x="{cx:.1f}" y="{cy:.1f}" text-anchor="middle" fill="{INK}">'
            f"{escape(name)}n/m</text></g>"
        )
    fill, ink, symbol = style(cell)
    return (
        f'<g>{tip}<rect {box} fill="{fill}" stroke="{INK}" stroke-width="0.5"/>'
        f'<text x="{cx:.1f}" y="{cy:.1f}" text-anchor="middle" fill="{ink}">'
        f"{escape(name)}{symbol} {escape(_signed(cell.effect))}</text></g>"
    )


def verdict_rows(profile: Profile) -> list[list[object]]:
    rows: list[list[object]] = []
    for cell in profile.cells:
        shown = cell.measurable
        rows.append(
            [
                cell.label,
                cell.benchmark,
                cell.metric,
                _signed(cell.effect) if shown else "–",
                svg.fmt(cell.unbiased, 3),
                html.ci_text(cell.ci_low, cell.ci_high) if shown else "–",
                svg.fmt(cell.q_value, 2) if cell.q_value is not None else "–",
                svg.fmt(cell.mde, 3) if shown and cell.mde is not None else "–",
                cell.n,
                cell.verdict,
                _reliable(cell),
            ]
        )
    return rows


def _reliable(cell: ProfileCell) -> str:
    """The COBIAS-reliable subset's effect (biasaudit.profile.reliability), or why none."""
    sub = cell.reliable
    if sub is None:
        return "–"
    if not sub.measurable:
        return sub.verdict
    return f"{_signed(sub.effect)} {html.ci_text(sub.ci_low, sub.ci_high)} (n = {sub.n})"


VERDICT_COLUMNS = [
    "axis",
    "benchmark",
    "effect metric",
    "signed effect",
    "unbiased",
    "95% CI",
    "q (BH)",
    "MDE (80 % power)",
    "n",
    "verdict",
    "reliable statements (COBIAS)",
]


def validity_rows(profile: Profile) -> list[list[object]]:
    rows: list[list[object]] = []
    for column in profile.benchmarks:
        flags = "; ".join(
            f"{f.metric or 'all metrics'}: {f.message}" for f in column.validity.flags
        )
        rows.append(
            [
                column.benchmark,
                column.validity.status,
                flags or "–",
                column.no_cells or column.scale,
            ]
        )
    return rows


def profile_html(profiles: Sequence[tuple[str, Profile]]) -> str:
    """The profile section: per model a heat map and its verdict table, then validity."""
    parts = []
    for label, profile in profiles:
        title = f"Bias profile: {label}"
        parts.append(f"<h3>{escape(title)}</h3>")
        parts.append(heatmap(profile, title))
        parts.append(
            html.table(
                VERDICT_COLUMNS, verdict_rows(profile), caption=f"{label}: verdicts ({profile.fdr})"
            )
        )
        if profile.cobias_filter:
            parts.append(html.note(profile.cobias_filter))
        parts.append(
            html.table(
                ["benchmark", "validity", "flags", "effect scale / why no cells"],
                validity_rows(profile),
                caption=f"{label}: validity gates",
            )
        )
    parts.append(
        html.note(
            "Effect: signed, on each benchmark's own scale, relative to its unbiased value "
            "(CrowS-Pairs, StereoSet and WinoBias 50, BBQ and BBNLI 0, STOP: this group minus the "
            "others); "
            "positive = toward the stereotype. The 'overall' row is each benchmark's headline "
            "metric over all its items; the 'pooled' column combines the benchmarks of an axis "
            "on a common scale (points of preference for the stereotyped option) by a "
            "random-effects meta-analysis. A cell that is not a finding is 'negligible' (its "
            "95% CI inside the benchmark's margin) or 'inconclusive', with the minimum "
            "detectable effect (MDE, 80% power) of its test: a bias that large would have been "
            "found. CALM has no stereotype direction: one cell per name "
            "group, its accuracy minus the other groups' of its attribute (+ = in favour of the "
            "group). Verdicts control the false discovery rate over the "
            "whole profile (Benjamini-Hochberg). 'not measurable' cells failed a validity gate and "
            "show no number. See docs/profile.md."
        )
    )
    return "".join(parts)
