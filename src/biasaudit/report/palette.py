"""Series styles that stay distinguishable in greyscale and for colour-blind readers.

Colours are ordered by relative luminance (WCAG 2), so neighbouring series differ in
lightness, not only in hue; each series also has its own fill pattern, marker shape and dash
pattern, so a black-and-white print keeps them apart. `tests/unit/report/test_palette.py`
checks the luminance separation.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class SeriesStyle:
    colour: str
    #: Fill pattern drawn over the colour (see PATTERNS).
    pattern: str
    #: Line-chart marker (see MARKERS).
    marker: str
    #: SVG stroke-dasharray for lines ("" = solid).
    dash: str


#: Dark to light; adjacent colours differ by a greyscale contrast ratio of at least 1.4
#: (the last is white, hatched in ink, for a sixth series).
COLOURS = ("#1b2a57", "#b2182b", "#2a9d8f", "#f4a261", "#f6d55c", "#ffffff")
PATTERNS = ("solid", "diagonal", "dots", "cross", "horizontal", "backdiagonal")
MARKERS = ("circle", "square", "triangle", "diamond", "cross", "ring")
DASHES = ("", "6 3", "2 3", "8 3 2 3", "1 2", "10 2 2 2 2 2")

#: Ink for axes, outlines and text.
INK = "#222222"


def series_style(index: int) -> SeriesStyle:
    """Style of the `index`-th series; cycles after six."""
    i = index % len(COLOURS)
    return SeriesStyle(COLOURS[i], PATTERNS[i], MARKERS[i], DASHES[i])


def relative_luminance(colour: str) -> float:
    """WCAG 2 relative luminance of a #rrggbb colour (0 = black, 1 = white)."""
    channels = [int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast_ratio(a: str, b: str) -> float:
    """WCAG contrast ratio between two colours, >= 1 (what is left of them in greyscale)."""
    la, lb = sorted((relative_luminance(a), relative_luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)
