"""The report's first section: the bias profile as a heat map and a verdict table.

Rows are the demographic axes, columns the benchmarks with cells. A cell's colour is its
verdict (dark red: bias toward the stereotype, dark blue: against, light grey: no detectable
bias at this n, hatched white: not measurable, blank: not covered), with a symbol for each
so that greyscale and colour-blind readers keep them apart; its text is the signed effect on
the benchmark's own scale. Gated cells show no number.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from biasaudit.profile.model import AGAINST, NONE_DETECTED, TOWARD, Profile, ProfileCell
from biasaudit.report import html, svg
from biasaudit.report.palette import INK

#: verdict -> (fill, text colour, symbol)
STYLE = {
    TOWARD: ("#b2182b", "#ffffff", "▲"),
    AGAINST: ("#1b2a57", "#ffffff", "▼"),
    NONE_DETECTED: ("#e6e6e6", INK, "○"),
}
CELL_W, CELL_H, LEFT, TOP = 92.0, 26.0, 190.0, 64.0


def _signed(value: float | None) -> str:
    if value is None:
        return "–"
    return ("+" if value > 0 else "") + svg.fmt(value, 3)


def _columns(profile: Profile) -> list[str]:
    return [
        b.benchmark
        for b in profile.benchmarks
        if any(c.benchmark == b.benchmark for c in profile.cells)
    ]


def heatmap(profile: Profile, title: str) -> str:
    benches = _columns(profile)
    axes = profile.axes
    width = LEFT + CELL_W * max(1, len(benches)) + 10
    height = TOP + CELL_H * max(1, len(axes)) + 40
    uid = svg._uid("profile", title, profile.model_dump_json())
    desc = "; ".join(
        f"{c.axis} / {c.benchmark}: {c.verdict}"
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
    for j, bench in enumerate(benches):
        x = LEFT + CELL_W * j + CELL_W / 2
        out.append(
            f'<text x="{x:.1f}" y="{TOP - 8:.1f}" text-anchor="middle" fill="{INK}" '
            f'font-weight="bold">{escape(bench)}</text>'
        )
    for i, axis in enumerate(axes):
        y = TOP + CELL_H * i
        out.append(
            f'<text x="{LEFT - 8:.1f}" y="{y + CELL_H / 2 + 4:.1f}" text-anchor="end" '
            f'fill="{INK}">{escape(axis)}</text>'
        )
        for j, bench in enumerate(benches):
            x = LEFT + CELL_W * j
            cell = profile.cell(axis, bench)
            out.append(_cell(cell, x, y, uid))
    legend_y = TOP + CELL_H * max(1, len(axes)) + 22
    legend = "▲ toward stereotype   ▼ against stereotype   ○ no detectable bias   ▨ not measurable"
    out.append(f'<text x="{LEFT:.1f}" y="{legend_y:.1f}" fill="{INK}">{escape(legend)}</text>')
    out.append("</svg>")
    return "".join(out)


def _cell(cell: ProfileCell | None, x: float, y: float, uid: str) -> str:
    box = f'x="{x + 1:.1f}" y="{y + 1:.1f}" width="{CELL_W - 2:.1f}" height="{CELL_H - 2:.1f}"'
    if cell is None:
        return f'<rect {box} fill="#ffffff" stroke="#dddddd"/>'
    tip = f"<title>{escape(cell.axis)} / {escape(cell.benchmark)}: {escape(cell.verdict)}</title>"
    cx, cy = x + CELL_W / 2, y + CELL_H / 2 + 4
    if not cell.measurable:
        return (
            f'<g>{tip}<rect {box} fill="url(#{uid}-h)" stroke="#999999"/>'
            f'<text x="{cx:.1f}" y="{cy:.1f}" text-anchor="middle" fill="{INK}">n/m</text></g>'
        )
    fill, ink, symbol = STYLE[cell.verdict]
    return (
        f'<g>{tip}<rect {box} fill="{fill}" stroke="{INK}" stroke-width="0.5"/>'
        f'<text x="{cx:.1f}" y="{cy:.1f}" text-anchor="middle" fill="{ink}">'
        f"{symbol} {escape(_signed(cell.effect))}</text></g>"
    )


def verdict_rows(profile: Profile) -> list[list[object]]:
    rows: list[list[object]] = []
    for cell in profile.cells:
        shown = cell.measurable
        rows.append(
            [
                cell.axis,
                cell.benchmark,
                cell.metric,
                _signed(cell.effect) if shown else "–",
                svg.fmt(cell.unbiased, 3),
                html.ci_text(cell.ci_low, cell.ci_high) if shown else "–",
                svg.fmt(cell.q_value, 2) if cell.q_value is not None else "–",
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
            "(CrowS-Pairs and StereoSet 50, BBQ and BBNLI 0, STOP: this group minus the others); "
            "positive = toward the stereotype. Verdicts control the false discovery rate over the "
            "whole profile (Benjamini-Hochberg). 'not measurable' cells failed a validity gate and "
            "show no number. See docs/profile.md."
        )
    )
    return "".join(parts)
