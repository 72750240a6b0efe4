"""Horizontal SVG charts, one row per group: strip (individual values), forest (point and
interval per row) and stacked (100 % bars split into shares).

Same conventions as `svg`: standalone SVG with a title and description, ids from a hash of
the content; the drawing pieces are in `svg_parts`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from html import escape

from biasaudit.report.palette import INK, series_style
from biasaudit.report.svg_parts import (
    CHAR_W,
    LEGEND_H,
    WIDTH,
    Scale,
    chart_uid,
    clip_label,
    fmt,
    left_margin,
    legend_svg,
    marker_svg,
    nice_ticks,
    pattern_defs,
    series_fill,
    svg_open,
    value_domain,
    x_axis,
)


@dataclass(frozen=True)
class Interval:
    """A point estimate with an optional interval, one row of a forest plot."""

    label: str
    value: float | None
    low: float | None = None
    high: float | None = None


@dataclass(frozen=True)
class StripRow:
    """One row of a strip chart: the individual values (e.g. per template) of one group."""

    label: str
    values: Sequence[float]
    marks: dict[str, float] = field(default_factory=dict)


def strip_chart(
    title: str,
    rows: Sequence[StripRow],
    *,
    x_label: str = "value",
    domain: tuple[float, float] | None = None,
) -> str:
    """Each row's individual values as dots over a min-max line; `marks` as labelled ticks."""
    uid = chart_uid("strip", title, rows)
    d0, d1 = domain or value_domain([v for r in rows for v in r.values])
    left = left_margin([r.label for r in rows])
    row_h = 26.0
    top = 10.0
    plot_h = row_h * len(rows)
    height = top + plot_h + 40
    scale = Scale(d0, d1, left, WIDTH - 20)
    style = series_style(0)
    mark_styles = [series_style(i + 1) for i in range(4)]
    desc = "; ".join(
        f"{r.label}: {len(r.values)} values"
        + (f", min {fmt(min(r.values))}, max {fmt(max(r.values))}" if r.values else "")
        + "".join(f", {k} {fmt(v)}" for k, v in r.marks.items())
        for r in rows
    )
    out = svg_open(uid, height, title, desc)
    out.append(x_axis(scale, nice_ticks(d0, d1), top, top + plot_h, x_label))
    for ri, row in enumerate(rows):
        y = top + ri * row_h + row_h / 2
        out.append(
            f'<text x="{left - 6:.1f}" y="{y + 4:.1f}" text-anchor="end" fill="{INK}">'
            f"<title>{escape(row.label)}</title>{clip_label(row.label, 34)}</text>"
        )
        if row.values:
            out.append(
                f'<line x1="{scale(min(row.values)):.1f}" y1="{y:.1f}" '
                f'x2="{scale(max(row.values)):.1f}" y2="{y:.1f}" stroke="#9a9a9a" '
                'stroke-width="1"/>'
            )
        for vi, value in enumerate(row.values):
            jitter = ((vi * 7919) % 11 - 5) * 1.4  # deterministic vertical spread
            out.append(
                f'<circle cx="{scale(value):.1f}" cy="{y + jitter:.1f}" r="2.6" '
                f'fill="{style.colour}" fill-opacity="0.55"/>'
            )
        for mi, (name, value) in enumerate(row.marks.items()):
            ms = mark_styles[mi % len(mark_styles)]
            marker = marker_svg(ms.marker, scale(value), y, ms, r=4)
            out.append(f"<g><title>{escape(name)} {fmt(value)}</title>{marker}</g>")
    out.append("</svg>")
    return "".join(out)


def strip_legend(mark_names: Sequence[str]) -> str:
    """A small SVG legend for the marks of `strip_chart` (dots = individual values)."""
    uid = chart_uid("strip-legend", mark_names)
    out = svg_open(uid, 24, "legend", "dots: individual values; " + ", ".join(mark_names))
    dot = series_style(0)
    out.append(
        f'<circle cx="12" cy="12" r="3" fill="{dot.colour}" fill-opacity="0.55"/>'
        f'<text x="20" y="16" fill="{INK}">individual values</text>'
    )
    x = 20 + CHAR_W * 17 + 20
    for mi, name in enumerate(mark_names):
        ms = series_style(mi + 1)
        out.append(marker_svg(ms.marker, x, 12, ms, r=4))
        out.append(f'<text x="{x + 9:.1f}" y="16" fill="{INK}">{escape(name)}</text>')
        x += 9 + CHAR_W * len(name) + 20
    out.append("</svg>")
    return "".join(out)


def forest_chart(title: str, rows: Sequence[Interval], *, x_label: str = "difference") -> str:
    """Point estimates with interval whiskers around a zero line (differences between runs)."""
    uid = chart_uid("forest", title, rows)
    everything = [v for r in rows for v in (r.value, r.low, r.high)]
    present = [abs(v) for v in everything if v is not None and math.isfinite(v)]
    bound = max([*present, 1e-9]) * 1.05
    ticks = nice_ticks(-bound, bound)
    left = left_margin([r.label for r in rows], 40)
    row_h = 20.0
    top = 10.0
    plot_h = row_h * len(rows)
    height = top + plot_h + 40
    scale = Scale(ticks[0], ticks[-1], left, WIDTH - 60)
    style = series_style(0)
    desc = "; ".join(f"{r.label}: {fmt(r.value)} [{fmt(r.low)}, {fmt(r.high)}]" for r in rows)
    out = svg_open(uid, height, title, desc)
    out.append(x_axis(scale, ticks, top, top + plot_h, x_label))
    out.append(
        f'<line x1="{scale(0):.1f}" y1="{top:.1f}" x2="{scale(0):.1f}" '
        f'y2="{top + plot_h:.1f}" stroke="{INK}" stroke-width="1.2"/>'
    )
    for ri, row in enumerate(rows):
        y = top + ri * row_h + row_h / 2
        out.append(
            f'<text x="{left - 6:.1f}" y="{y + 4:.1f}" text-anchor="end" fill="{INK}">'
            f"<title>{escape(row.label)}</title>{clip_label(row.label, 40)}</text>"
        )
        if row.value is None:
            out.append(f'<text x="{scale(0) + 4:.1f}" y="{y + 4:.1f}" fill="#666666">n/a</text>')
            continue
        if row.low is not None and row.high is not None:
            xl, xh = scale(row.low), scale(row.high)
            out.append(
                f'<path d="M{xl:.1f},{y:.1f} H{xh:.1f} M{xl:.1f},{y - 4:.1f} V{y + 4:.1f} '
                f'M{xh:.1f},{y - 4:.1f} V{y + 4:.1f}" stroke="{INK}" stroke-width="1.3" '
                'fill="none"/>'
            )
        out.append(marker_svg("diamond", scale(row.value), y, style, r=4))
        out.append(
            f'<text x="{WIDTH - 56:.1f}" y="{y + 4:.1f}" fill="{INK}" font-size="10">'
            f"{fmt(row.value)}</text>"
        )
    out.append("</svg>")
    return "".join(out)


def stacked_chart(
    title: str,
    categories: Sequence[str],
    segments: Sequence[str],
    shares: Sequence[Sequence[float]],
    *,
    x_label: str = "share",
) -> str:
    """One 100% bar per category split into `segments` (shares[category][segment])."""
    uid = chart_uid("stack", title, categories, segments, shares)
    left = left_margin(categories, 40)
    bar_h = 16.0
    top = 8 + LEGEND_H
    plot_h = (bar_h + 6) * len(categories)
    height = top + plot_h + 40
    scale = Scale(0.0, 1.0, left, WIDTH - 20)
    styles = [series_style(i) for i in range(len(segments))]
    desc = "; ".join(
        f"{cat}: " + ", ".join(f"{seg} {fmt(v)}" for seg, v in zip(segments, row, strict=True))
        for cat, row in zip(categories, shares, strict=True)
    )
    out = svg_open(uid, height, title, desc)
    out.append(pattern_defs(uid, styles))
    out.append(legend_svg(uid, segments, 20, "bar"))
    out.append(x_axis(scale, nice_ticks(0.0, 1.0), top, top + plot_h, x_label))
    for ci, (category, row) in enumerate(zip(categories, shares, strict=True)):
        y = top + ci * (bar_h + 6) + 3
        out.append(
            f'<text x="{left - 6:.1f}" y="{y + bar_h - 4:.1f}" text-anchor="end" '
            f'fill="{INK}"><title>{escape(category)}</title>{clip_label(category, 40)}</text>'
        )
        start = 0.0
        for si, share in enumerate(row):
            if share <= 0:
                continue
            x0, x1 = scale(start), scale(min(start + share, 1.0))
            out.append(
                f'<rect x="{x0:.1f}" y="{y:.1f}" width="{max(x1 - x0, 0.8):.1f}" '
                f'height="{bar_h:.1f}" fill="{series_fill(uid, si, styles[si])}" stroke="{INK}" '
                f'stroke-width="0.6"><title>{escape(segments[si])}: {fmt(share)}</title></rect>'
            )
            start += share
    out.append("</svg>")
    return "".join(out)
