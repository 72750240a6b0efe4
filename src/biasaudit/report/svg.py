"""Inline SVG charts, generated as text: no plotting library, no script, no external asset.

Every chart is a standalone, well-formed SVG document fragment (it declares its namespace),
with a <title> and a <desc> for screen readers. Callers always pair a chart with a table of
the same numbers (see `biasaudit.report.html.figure`). Element ids are derived from a hash of
the chart's content, so two charts on one page do not clash and output is deterministic.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from html import escape

from biasaudit.report.palette import INK, SeriesStyle, relative_luminance, series_style

WIDTH = 640
FONT = 12
CHAR_W = 6.6  # average glyph width at FONT px, for layout estimates
ROW_H = 16
LEGEND_H = 22


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


def fmt(value: float | None, digits: int = 3) -> str:
    """Compact number for chart labels."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "n/a"
    if value != 0 and abs(value) < 10 ** -(digits - 1):
        return f"{value:.1e}"
    text = f"{value:.{digits}g}" if abs(value) >= 1000 else f"{value:.{digits}f}"
    return text.rstrip("0").rstrip(".") if "." in text else text


def _uid(*parts: object) -> str:
    return "c" + hashlib.sha256(repr(parts).encode("utf-8")).hexdigest()[:10]


def nice_ticks(low: float, high: float, count: int = 5) -> list[float]:
    """Round tick values covering [low, high] (1-2-5 steps)."""
    if high <= low:
        high = low + 1.0
    raw = (high - low) / max(count, 1)
    magnitude = 10 ** math.floor(math.log10(raw))
    step = next(m * magnitude for m in (1, 2, 2.5, 5, 10) if m * magnitude >= raw)
    start = math.floor(low / step + 1e-9) * step
    ticks = []
    value = start
    while value <= high + step * 1e-9:
        ticks.append(round(value, 12))
        value += step
    if ticks[-1] < high - 1e-12:
        ticks.append(round(value, 12))
    return ticks


def _domain(values: Sequence[float | None], include_zero: bool = True) -> tuple[float, float]:
    present = [v for v in values if v is not None and math.isfinite(v)]
    if include_zero:
        present.append(0.0)
    if not present:
        return 0.0, 1.0
    low, high = min(present), max(present)
    if low >= 0.0 and high <= 1.0 and include_zero:
        return 0.0, 1.0
    ticks = nice_ticks(low, high)
    return ticks[0], ticks[-1]


class _Scale:
    def __init__(self, d0: float, d1: float, r0: float, r1: float) -> None:
        self.d0, self.d1, self.r0, self.r1 = d0, d1, r0, r1

    def __call__(self, value: float) -> float:
        span = self.d1 - self.d0 or 1.0
        clipped = min(max(value, self.d0), self.d1)
        return self.r0 + (clipped - self.d0) / span * (self.r1 - self.r0)


def _open(uid: str, height: float, title: str, desc: str) -> list[str]:
    return [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" viewBox="0 0 {WIDTH} '
        f'{height:.0f}" width="{WIDTH}" height="{height:.0f}" role="img" '
        f'aria-labelledby="{uid}-t {uid}-d" font-family="system-ui, sans-serif" '
        f'font-size="{FONT}">',
        f'<title id="{uid}-t">{escape(title)}</title>',
        f'<desc id="{uid}-d">{escape(desc)}</desc>',
    ]


def _pattern_defs(uid: str, styles: Sequence[SeriesStyle]) -> str:
    """<defs> with one fill pattern per style that is not solid."""
    out = ["<defs>"]
    for i, style in enumerate(styles):
        if style.pattern == "solid":
            continue
        line = "#ffffff" if relative_luminance(style.colour) < 0.3 else INK
        shapes = {
            "diagonal": f'<path d="M-1,1 l2,-2 M0,6 l6,-6 M5,7 l2,-2" stroke="{line}" '
            'stroke-width="1.3"/>',
            "dots": f'<circle cx="3" cy="3" r="1.3" fill="{line}"/>',
            "cross": f'<path d="M0,3 h6 M3,0 v6" stroke="{line}" stroke-width="1"/>',
            "horizontal": f'<path d="M0,3 h6" stroke="{line}" stroke-width="1.4"/>',
            "backdiagonal": f'<path d="M-1,5 l2,2 M0,0 l6,6 M5,-1 l2,2" stroke="{line}" '
            'stroke-width="1"/>',
        }[style.pattern]
        out.append(
            f'<pattern id="{uid}-p{i}" width="6" height="6" patternUnits="userSpaceOnUse">'
            f'<rect width="6" height="6" fill="{style.colour}"/>{shapes}</pattern>'
        )
    out.append("</defs>")
    return "".join(out)


def _fill(uid: str, index: int, style: SeriesStyle) -> str:
    return style.colour if style.pattern == "solid" else f"url(#{uid}-p{index})"


def _marker(shape: str, x: float, y: float, style: SeriesStyle, r: float = 4.5) -> str:
    common = f'fill="{style.colour}" stroke="{INK}" stroke-width="1"'
    if shape == "circle":
        return f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{r}" {common}/>'
    if shape == "square":
        return f'<rect x="{x - r:.1f}" y="{y - r:.1f}" width="{2 * r}" height="{2 * r}" {common}/>'
    if shape == "triangle":
        pts = f"{x:.1f},{y - r - 1:.1f} {x - r - 1:.1f},{y + r:.1f} {x + r + 1:.1f},{y + r:.1f}"
        return f'<polygon points="{pts}" {common}/>'
    if shape == "ring":
        return (
            f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{r}" fill="#ffffff" stroke="{INK}" '
            'stroke-width="2"/>'
        )
    if shape == "diamond":
        d = r + 1
        pts = f"{x:.1f},{y - d:.1f} {x + d:.1f},{y:.1f} {x:.1f},{y + d:.1f} {x - d:.1f},{y:.1f}"
        return f'<polygon points="{pts}" {common}/>'
    return (
        f'<path d="M{x - r:.1f},{y - r:.1f} L{x + r:.1f},{y + r:.1f} M{x - r:.1f},{y + r:.1f} '
        f'L{x + r:.1f},{y - r:.1f}" stroke="{style.colour}" stroke-width="2.5"/>'
    )


def _legend(uid: str, names: Sequence[str], y: float, kind: str) -> str:
    """A one-line legend; `kind` is "bar" (swatches) or "line" (marker + dash)."""
    out = []
    x = 10.0
    for i, name in enumerate(names):
        style = series_style(i)
        if kind == "bar":
            out.append(
                f'<rect x="{x:.1f}" y="{y - 10:.1f}" width="14" height="12" '
                f'fill="{_fill(uid, i, style)}" stroke="{INK}" stroke-width="0.8"/>'
            )
        else:
            out.append(
                f'<line x1="{x - 2:.1f}" y1="{y - 4:.1f}" x2="{x + 18:.1f}" y2="{y - 4:.1f}" '
                f'stroke="{style.colour}" stroke-width="2" stroke-dasharray="{style.dash}"/>'
            )
            out.append(_marker(style.marker, x + 8, y - 4, style, r=3.5))
        out.append(f'<text x="{x + 22:.1f}" y="{y:.1f}" fill="{INK}">{escape(name)}</text>')
        x += 22 + CHAR_W * len(name) + 18
    return "".join(out)


def _label(text: str, max_chars: int) -> str:
    shown = text if len(text) <= max_chars else text[: max_chars - 1] + "…"
    return escape(shown)


def _x_axis(scale: _Scale, ticks: Sequence[float], top: float, bottom: float, label: str) -> str:
    out = []
    for tick in ticks:
        x = scale(tick)
        out.append(
            f'<line x1="{x:.1f}" y1="{top:.1f}" x2="{x:.1f}" y2="{bottom:.1f}" '
            'stroke="#d0d0d0" stroke-width="0.8"/>'
            f'<text x="{x:.1f}" y="{bottom + 14:.1f}" text-anchor="middle" fill="{INK}">'
            f"{fmt(tick)}</text>"
        )
    out.append(
        f'<line x1="{scale.r0:.1f}" y1="{bottom:.1f}" x2="{scale.r1:.1f}" y2="{bottom:.1f}" '
        f'stroke="{INK}"/>'
        f'<text x="{(scale.r0 + scale.r1) / 2:.1f}" y="{bottom + 30:.1f}" text-anchor="middle" '
        f'fill="{INK}">{escape(label)}</text>'
    )
    return "".join(out)


def _y_grid(scale: _Scale, ticks: Sequence[float], left: float, right: float) -> str:
    """Horizontal grid lines with tick labels on the left."""
    return "".join(
        f'<line x1="{left:.1f}" y1="{scale(t):.1f}" x2="{right:.1f}" y2="{scale(t):.1f}" '
        f'stroke="#d0d0d0" stroke-width="0.8"/><text x="{left - 6:.1f}" y="{scale(t) + 4:.1f}" '
        f'text-anchor="end" fill="{INK}">{fmt(t)}</text>'
        for t in ticks
    )


def _left_margin(labels: Sequence[str], max_chars: int = 34) -> float:
    longest = max((min(len(label), max_chars) for label in labels), default=4)
    return 12 + CHAR_W * longest


def bar_chart(
    title: str,
    categories: Sequence[str],
    series: Sequence[BarSeries],
    *,
    x_label: str = "value",
    domain: tuple[float, float] | None = None,
) -> str:
    """Horizontal bars per category (one per series) with CI whiskers and value labels."""
    uid = _uid("bar", title, categories, series)
    everything = [v for s in series for v in (*s.values, *s.lows, *s.highs)]
    d0, d1 = domain or _domain(everything)
    left = _left_margin(categories)
    bar_h = 13.0
    band = bar_h * len(series) + 8
    legend = LEGEND_H if len(series) > 1 else 0
    top = 8 + legend
    plot_h = band * len(categories)
    height = top + plot_h + 40
    scale = _Scale(d0, d1, left, WIDTH - 46)
    styles = [series_style(i) for i in range(len(series))]
    desc = "; ".join(
        f"{cat}: "
        + ", ".join(f"{s.name} {fmt(s.values[i] if i < len(s.values) else None)}" for s in series)
        for i, cat in enumerate(categories)
    )
    out = _open(uid, height, title, desc)
    out.append(_pattern_defs(uid, styles))
    if legend:
        out.append(_legend(uid, [s.name for s in series], 20, "bar"))
    out.append(_x_axis(scale, nice_ticks(d0, d1), top, top + plot_h, x_label))
    zero = scale(0.0 if d0 <= 0.0 <= d1 else d0)
    for ci, category in enumerate(categories):
        y0 = top + ci * band + 4
        out.append(
            f'<text x="{left - 6:.1f}" y="{y0 + band / 2:.1f}" text-anchor="end" '
            f'fill="{INK}"><title>{escape(category)}</title>{_label(category, 34)}</text>'
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
                f'height="{bar_h - 2:.1f}" fill="{_fill(uid, si, styles[si])}" '
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
    uid = _uid("line", title, x_labels, series)
    d0, d1 = domain or _domain([v for s in series for v in s.values])
    legend = LEGEND_H
    top, left, right = 10 + legend, 56.0, WIDTH - 20
    plot_h = 220.0
    height = top + plot_h + 44
    y_scale = _Scale(d0, d1, top + plot_h, top)
    step = (right - left) / max(len(x_labels), 1)
    x_of = [left + step * (i + 0.5) for i in range(len(x_labels))]
    desc = "; ".join(
        f"{s.name}: " + ", ".join(f"{x} {fmt(v)}" for x, v in zip(x_labels, s.values, strict=False))
        for s in series
    )
    out = _open(uid, height, title, desc)
    out.append(_legend(uid, [s.name for s in series], 20, "line"))
    out.append(_y_grid(y_scale, nice_ticks(d0, d1), left, right))
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
        out.extend(_marker(style.marker, x, y, style) for x, y in points)
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
    uid = _uid("hist", title, bin_labels, counts)
    top, left, right = 14.0, 52.0, WIDTH - 16
    plot_h = 200.0
    height = top + plot_h + 62
    peak = max([*counts, 1])
    ticks = nice_ticks(0, peak)
    y_scale = _Scale(0, ticks[-1], top + plot_h, top)
    step = (right - left) / max(len(bin_labels), 1)
    desc = ", ".join(f"{b}: {c}" for b, c in zip(bin_labels, counts, strict=True))
    style = series_style(0)
    out = _open(uid, height, title, desc)
    out.append(_y_grid(y_scale, ticks, left, right))
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


def strip_chart(
    title: str,
    rows: Sequence[StripRow],
    *,
    x_label: str = "value",
    domain: tuple[float, float] | None = None,
) -> str:
    """Each row's individual values as dots over a min-max line; `marks` as labelled ticks."""
    uid = _uid("strip", title, rows)
    d0, d1 = domain or _domain([v for r in rows for v in r.values])
    left = _left_margin([r.label for r in rows])
    row_h = 26.0
    top = 10.0
    plot_h = row_h * len(rows)
    height = top + plot_h + 40
    scale = _Scale(d0, d1, left, WIDTH - 20)
    style = series_style(0)
    mark_styles = [series_style(i + 1) for i in range(4)]
    desc = "; ".join(
        f"{r.label}: {len(r.values)} values"
        + (f", min {fmt(min(r.values))}, max {fmt(max(r.values))}" if r.values else "")
        + "".join(f", {k} {fmt(v)}" for k, v in r.marks.items())
        for r in rows
    )
    out = _open(uid, height, title, desc)
    out.append(_x_axis(scale, nice_ticks(d0, d1), top, top + plot_h, x_label))
    for ri, row in enumerate(rows):
        y = top + ri * row_h + row_h / 2
        out.append(
            f'<text x="{left - 6:.1f}" y="{y + 4:.1f}" text-anchor="end" fill="{INK}">'
            f"<title>{escape(row.label)}</title>{_label(row.label, 34)}</text>"
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
            marker = _marker(ms.marker, scale(value), y, ms, r=4)
            out.append(f"<g><title>{escape(name)} {fmt(value)}</title>{marker}</g>")
    out.append("</svg>")
    return "".join(out)


def strip_legend(mark_names: Sequence[str]) -> str:
    """A small SVG legend for the marks of `strip_chart` (dots = individual values)."""
    uid = _uid("strip-legend", mark_names)
    out = _open(uid, 24, "legend", "dots: individual values; " + ", ".join(mark_names))
    dot = series_style(0)
    out.append(
        f'<circle cx="12" cy="12" r="3" fill="{dot.colour}" fill-opacity="0.55"/>'
        f'<text x="20" y="16" fill="{INK}">individual values</text>'
    )
    x = 20 + CHAR_W * 17 + 20
    for mi, name in enumerate(mark_names):
        ms = series_style(mi + 1)
        out.append(_marker(ms.marker, x, 12, ms, r=4))
        out.append(f'<text x="{x + 9:.1f}" y="16" fill="{INK}">{escape(name)}</text>')
        x += 9 + CHAR_W * len(name) + 20
    out.append("</svg>")
    return "".join(out)


def forest_chart(title: str, rows: Sequence[Interval], *, x_label: str = "difference") -> str:
    """Point estimates with interval whiskers around a zero line (differences between runs)."""
    uid = _uid("forest", title, rows)
    everything = [v for r in rows for v in (r.value, r.low, r.high)]
    present = [abs(v) for v in everything if v is not None and math.isfinite(v)]
    bound = max([*present, 1e-9]) * 1.05
    ticks = nice_ticks(-bound, bound)
    left = _left_margin([r.label for r in rows], 40)
    row_h = 20.0
    top = 10.0
    plot_h = row_h * len(rows)
    height = top + plot_h + 40
    scale = _Scale(ticks[0], ticks[-1], left, WIDTH - 60)
    style = series_style(0)
    desc = "; ".join(f"{r.label}: {fmt(r.value)} [{fmt(r.low)}, {fmt(r.high)}]" for r in rows)
    out = _open(uid, height, title, desc)
    out.append(_x_axis(scale, ticks, top, top + plot_h, x_label))
    out.append(
        f'<line x1="{scale(0):.1f}" y1="{top:.1f}" x2="{scale(0):.1f}" '
        f'y2="{top + plot_h:.1f}" stroke="{INK}" stroke-width="1.2"/>'
    )
    for ri, row in enumerate(rows):
        y = top + ri * row_h + row_h / 2
        out.append(
            f'<text x="{left - 6:.1f}" y="{y + 4:.1f}" text-anchor="end" fill="{INK}">'
            f"<title>{escape(row.label)}</title>{_label(row.label, 40)}</text>"
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
        out.append(_marker("diamond", scale(row.value), y, style, r=4))
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
    uid = _uid("stack", title, categories, segments, shares)
    left = _left_margin(categories, 40)
    bar_h = 16.0
    top = 8 + LEGEND_H
    plot_h = (bar_h + 6) * len(categories)
    height = top + plot_h + 40
    scale = _Scale(0.0, 1.0, left, WIDTH - 20)
    styles = [series_style(i) for i in range(len(segments))]
    desc = "; ".join(
        f"{cat}: " + ", ".join(f"{seg} {fmt(v)}" for seg, v in zip(segments, row, strict=True))
        for cat, row in zip(categories, shares, strict=True)
    )
    out = _open(uid, height, title, desc)
    out.append(_pattern_defs(uid, styles))
    out.append(_legend(uid, segments, 20, "bar"))
    out.append(_x_axis(scale, nice_ticks(0.0, 1.0), top, top + plot_h, x_label))
    for ci, (category, row) in enumerate(zip(categories, shares, strict=True)):
        y = top + ci * (bar_h + 6) + 3
        out.append(
            f'<text x="{left - 6:.1f}" y="{y + bar_h - 4:.1f}" text-anchor="end" '
            f'fill="{INK}"><title>{escape(category)}</title>{_label(category, 40)}</text>'
        )
        start = 0.0
        for si, share in enumerate(row):
            if share <= 0:
                continue
            x0, x1 = scale(start), scale(min(start + share, 1.0))
            out.append(
                f'<rect x="{x0:.1f}" y="{y:.1f}" width="{max(x1 - x0, 0.8):.1f}" '
                f'height="{bar_h:.1f}" fill="{_fill(uid, si, styles[si])}" stroke="{INK}" '
                f'stroke-width="0.6"><title>{escape(segments[si])}: {fmt(share)}</title></rect>'
            )
            start += share
    out.append("</svg>")
    return "".join(out)
