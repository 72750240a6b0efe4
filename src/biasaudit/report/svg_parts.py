"""The pieces the SVG charts are drawn with: number labels, ticks, scales, axes, legends.

Layout constants (widths in px at the chart font size), the `<svg>` opening with its title
and description, fill patterns for series that must not rely on colour, markers, and the
x axis / y grid. The charts themselves are in `svg`.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Sequence
from html import escape

from biasaudit.report.palette import INK, SeriesStyle, relative_luminance, series_style

WIDTH = 640
FONT = 12
CHAR_W = 6.6  # average glyph width at FONT px, for layout estimates
ROW_H = 16
LEGEND_H = 22


def fmt(value: float | None, digits: int = 3) -> str:
    """Compact number for chart labels."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "n/a"
    if value != 0 and abs(value) < 10 ** -(digits - 1):
        return f"{value:.1e}"
    text = f"{value:.{digits}g}" if abs(value) >= 1000 else f"{value:.{digits}f}"
    return text.rstrip("0").rstrip(".") if "." in text else text


def chart_uid(*parts: object) -> str:
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


def value_domain(values: Sequence[float | None], include_zero: bool = True) -> tuple[float, float]:
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


class Scale:
    def __init__(self, d0: float, d1: float, r0: float, r1: float) -> None:
        self.d0, self.d1, self.r0, self.r1 = d0, d1, r0, r1

    def __call__(self, value: float) -> float:
        span = self.d1 - self.d0 or 1.0
        clipped = min(max(value, self.d0), self.d1)
        return self.r0 + (clipped - self.d0) / span * (self.r1 - self.r0)


def svg_open(uid: str, height: float, title: str, desc: str) -> list[str]:
    return [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" viewBox="0 0 {WIDTH} '
        f'{height:.0f}" width="{WIDTH}" height="{height:.0f}" role="img" '
        f'aria-labelledby="{uid}-t {uid}-d" font-family="system-ui, sans-serif" '
        f'font-size="{FONT}">',
        f'<title id="{uid}-t">{escape(title)}</title>',
        f'<desc id="{uid}-d">{escape(desc)}</desc>',
    ]


def pattern_defs(uid: str, styles: Sequence[SeriesStyle]) -> str:
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


def series_fill(uid: str, index: int, style: SeriesStyle) -> str:
    return style.colour if style.pattern == "solid" else f"url(#{uid}-p{index})"


def marker_svg(shape: str, x: float, y: float, style: SeriesStyle, r: float = 4.5) -> str:
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


def legend_svg(uid: str, names: Sequence[str], y: float, kind: str) -> str:
    """A one-line legend; `kind` is "bar" (swatches) or "line" (marker + dash)."""
    out = []
    x = 10.0
    for i, name in enumerate(names):
        style = series_style(i)
        if kind == "bar":
            out.append(
                f'<rect x="{x:.1f}" y="{y - 10:.1f}" width="14" height="12" '
                f'fill="{series_fill(uid, i, style)}" stroke="{INK}" stroke-width="0.8"/>'
            )
        else:
            out.append(
                f'<line x1="{x - 2:.1f}" y1="{y - 4:.1f}" x2="{x + 18:.1f}" y2="{y - 4:.1f}" '
                f'stroke="{style.colour}" stroke-width="2" stroke-dasharray="{style.dash}"/>'
            )
            out.append(marker_svg(style.marker, x + 8, y - 4, style, r=3.5))
        out.append(f'<text x="{x + 22:.1f}" y="{y:.1f}" fill="{INK}">{escape(name)}</text>')
        x += 22 + CHAR_W * len(name) + 18
    return "".join(out)


def clip_label(text: str, max_chars: int) -> str:
    shown = text if len(text) <= max_chars else text[: max_chars - 1] + "…"
    return escape(shown)


def x_axis(scale: Scale, ticks: Sequence[float], top: float, bottom: float, label: str) -> str:
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


def y_grid(scale: Scale, ticks: Sequence[float], left: float, right: float) -> str:
    """Horizontal grid lines with tick labels on the left."""
    return "".join(
        f'<line x1="{left:.1f}" y1="{scale(t):.1f}" x2="{right:.1f}" y2="{scale(t):.1f}" '
        f'stroke="#d0d0d0" stroke-width="0.8"/><text x="{left - 6:.1f}" y="{scale(t) + 4:.1f}" '
        f'text-anchor="end" fill="{INK}">{fmt(t)}</text>'
        for t in ticks
    )


def left_margin(labels: Sequence[str], max_chars: int = 34) -> float:
    longest = max((min(len(label), max_chars) for label in labels), default=4)
    return 12 + CHAR_W * longest
