"""Inline SVG charts, generated as text: no plotting library, no script, no external asset.

Every chart is a standalone, well-formed SVG document fragment (it declares its namespace),
with a <title> and a <desc> for screen readers. Callers always pair a chart with a table of
the same numbers (see `biasaudit.report.html.figure`). Element ids are derived from a hash of
the chart's content, so two charts on one page do not clash and output is deterministic.

The drawing pieces (scales, axes, legends, markers, number labels) are in `svg_parts`; the
horizontal one-row-per-group charts (strip, forest, stacked) in `svg_rows`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from html import escape

from biasaudit.report.palette import INK, series_style
from biasaudit.report.svg_parts import (
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
    y_grid,
)
from biasaudit.report.svg_rows import (
    Interval,
    StripRow,
    forest_chart,
    stacked_chart,
    strip_chart,
    strip_legend,
)

# every chart is used as svg.NAME; fmt, nice_ticks and chart_uid too
__all__ = [
    "BarSeries",
    "Interval",
    "LineSeries",
    "StripRow",
    "bar_chart",
    "chart_uid",
    "fmt",
    "forest_chart",
    "histogram",
    "line_chart",
    "nice_ticks",
    "stacked_chart",
    "strip_chart",
    "strip_legend",
]


@dataclass(frozen=True)
class BarSeries:
    """One series of a bar chart: a value (and optional CI) per category."""

    name: str
    values: Sequence[float | None]
    lows: Sequence[float | None] = ()
    highs: Sequence[float | None] = ()


@dataclass(frozen=True)
class LineSeries:
    name: str
    values: Sequence[float | None]


def bar_chart(
    title: str,
    categories: Sequence[str],
    series: Sequence[BarSeries],
    *,
    x_label: str = "value",
    domain: tuple[float, float] | None = None,
) -> str:
    """Horizontal bars per category (one per series) with CI whiskers and value labels."""
    uid = chart_uid("bar", title, categories, series)
    everything = [v for s in series for v in (*s.values, *s.lows, *s.highs)]
    d0, d1 = domain or value_domain(everything)
    left = left_margin(categories)
    bar_h = 13.0
    band = bar_h * len(series) + 8
    legend = LEGEND_H if len(series) > 1 else 0
    top = 8 + legend
    plot_h = band * len(categories)
    height = top + plot_h + 40
    scale = Scale(d0, d1, left, WIDTH - 46)
    styles = [series_style(i) for i in range(len(series))]
    desc = "; ".join(
        f"{cat}: "
        + ", ".join(f"{s.name} {fmt(s.values[i] if i < len(s.values) else None)}" for s in series)
        for i, cat in enumerate(categories)
    )
    out = svg_open(uid, height, title, desc)
    out.append(pattern_defs(uid, styles))
    if legend:
        out.append(legend_svg(uid, [s.name for s in series], 20, "bar"))
    out.append(x_axis(scale, nice_ticks(d0, d1), top, top + plot_h, x_label))
    zero = scale(0.0 if d0 <= 0.0 <= d1 else d0)
    for ci, category in enumerate(categories):
        y0 = top + ci * band + 4
        out.append(
            f'<text x="{left - 6:.1f}" y="{y0 + band / 2:.1f}" text-anchor="end" '
            f'fill="{INK}"><title>{escape(category)}</title>{clip_label(category, 34)}</text>'
        )
        for si, s in enumerate(series):
            y = y0 + si * bar_h
            value = s.values[ci] if ci < len(s.values) else None
            if value is None or not math.isfinite(value):
                out.append(
                    f'<text x="{zero + 4:.1f}" y="{y + bar_h - 3:.1f}" fill="#666666">n/a</text>'
                )
                continue
            x_a, x_b = sorted((zero, scale(value)))
            out.append(
                f'<rect x="{x_a:.1f}" y="{y + 1:.1f}" width="{max(x_b - x_a, 0.8):.1f}" '
                f'height="{bar_h - 2:.1f}" fill="{series_fill(uid, si, styles[si])}" '
                f'stroke="{INK}" stroke-width="0.6"><title>{escape(s.name)}: '
                f"{fmt(value)}</title></rect>"
            )
            low = s.lows[ci] if ci < len(s.lows) else None
            high = s.highs[ci] if ci < len(s.highs) else None
            label_x = x_b
            if low is not None and high is not None:
                xl, xh, ym = scale(low), scale(high), y + bar_h / 2
                out.append(
                    f'<path d="M{xl:.1f},{ym:.1f} H{xh:.1f} M{xl:.1f},{ym - 4:.1f} '
                    f'V{ym + 4:.1f} M{xh:.1f},{ym - 4:.1f} V{ym + 4:.1f}" stroke="{INK}" '
                    'stroke-width="1.3" fill="none"/>'
                )
                label_x = max(label_x, xh)
            out.append(
                f'<text x="{label_x + 4:.1f}" y="{y + bar_h - 3:.1f}" fill="{INK}" '
                f'font-size="10">{fmt(value)}</text>'
            )
    out.append("</svg>")
    return "".join(out)


def line_chart(
    title: str,
    x_labels: Sequence[str],
    series: Sequence[LineSeries],
    *,
    x_label: str = "",
    y_label: str = "value",
    domain: tuple[float, float] | None = None,
) -> str:
    """Lines over categorical x positions, each series with its own marker and dash."""
    uid = chart_uid("line", title, x_labels, series)
    d0, d1 = domain or value_domain([v for s in series for v in s.values])
    legend = LEGEND_H
    top, left, right = 10 + legend, 56.0, WIDTH - 20
    plot_h = 220.0
    height = top + plot_h + 44
    y_scale = Scale(d0, d1, top + plot_h, top)
    step = (right - left) / max(len(x_labels), 1)
    x_of = [left + step * (i + 0.5) for i in range(len(x_labels))]
    desc = "; ".join(
        f"{s.name}: " + ", ".join(f"{x} {fmt(v)}" for x, v in zip(x_labels, s.values, strict=False))
        for s in series
    )
    out = svg_open(uid, height, title, desc)
    out.append(legend_svg(uid, [s.name for s in series], 20, "line"))
    out.append(y_grid(y_scale, nice_ticks(d0, d1), left, right))
    bottom = top + plot_h
    out.append(
        f'<line x1="{left:.1f}" y1="{bottom:.1f}" x2="{right:.1f}" y2="{bottom:.1f}" '
        f'stroke="{INK}"/>'
    )
    for x, label in zip(x_of, x_labels, strict=True):
        out.append(
            f'<text x="{x:.1f}" y="{bottom + 15:.1f}" text-anchor="middle" fill="{INK}">'
            f"{escape(label)}</text>"
        )
    out.append(
        f'<text x="{(left + right) / 2:.1f}" y="{bottom + 32:.1f}" text-anchor="middle" '
        f'fill="{INK}">{escape(x_label)}</text>'
        f'<text transform="translate(14 {top + plot_h / 2:.1f}) rotate(-90)" '
        f'text-anchor="middle" fill="{INK}">{escape(y_label)}</text>'
    )
    for si, s in enumerate(series):
        style = series_style(si)
        points = [
            (x_of[i], y_scale(v))
            for i, v in enumerate(s.values[: len(x_of)])
            if v is not None and math.isfinite(v)
        ]
        if len(points) > 1:
            path = " ".join(f"{x:.1f},{y:.1f}" for x, y in points)
            out.append(
                f'<polyline points="{path}" fill="none" stroke="{style.colour}" '
                f'stroke-width="2" stroke-dasharray="{style.dash}"/>'
            )
        out.extend(marker_svg(style.marker, x, y, style) for x, y in points)
    out.append("</svg>")
    return "".join(out)


def histogram(
    title: str,
    bin_labels: Sequence[str],
    counts: Sequence[int],
    *,
    x_label: str = "",
    y_label: str = "count",
) -> str:
    """Vertical bars of counts, labelled with the count."""
    uid = chart_uid("hist", title, bin_labels, counts)
    top, left, right = 14.0, 52.0, WIDTH - 16
    plot_h = 200.0
    height = top + plot_h + 62
    peak = max([*counts, 1])
    ticks = nice_ticks(0, peak)
    y_scale = Scale(0, ticks[-1], top + plot_h, top)
    step = (right - left) / max(len(bin_labels), 1)
    desc = ", ".join(f"{b}: {c}" for b, c in zip(bin_labels, counts, strict=True))
    style = series_style(0)
    out = svg_open(uid, height, title, desc)
    out.append(y_grid(y_scale, ticks, left, right))
    bottom = top + plot_h
    for i, (label, count) in enumerate(zip(bin_labels, counts, strict=True)):
        x = left + step * i
        y = y_scale(count)
        out.append(
            f'<rect x="{x + 2:.1f}" y="{y:.1f}" width="{step - 4:.1f}" '
            f'height="{bottom - y:.1f}" fill="{style.colour}" stroke="{INK}" '
            f'stroke-width="0.6"/><text x="{x + step / 2:.1f}" y="{y - 3:.1f}" '
            f'text-anchor="middle" fill="{INK}" font-size="10">{count}</text>'
            f'<text x="{x + step / 2:.1f}" y="{bottom + 14:.1f}" text-anchor="middle" '
            f'fill="{INK}" font-size="10">{escape(label)}</text>'
        )
    out.append(
        f'<line x1="{left:.1f}" y1="{bottom:.1f}" x2="{right:.1f}" y2="{bottom:.1f}" '
        f'stroke="{INK}"/><text x="{(left + right) / 2:.1f}" y="{bottom + 34:.1f}" '
        f'text-anchor="middle" fill="{INK}">{escape(x_label)}</text>'
        f'<text transform="translate(14 {top + plot_h / 2:.1f}) rotate(-90)" '
        f'text-anchor="middle" fill="{INK}">{escape(y_label)}</text></svg>'
    )
    return "".join(out)
