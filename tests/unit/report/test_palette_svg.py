"""Charts: well-formed standalone SVG, accessible, greyscale-safe styles."""

from __future__ import annotations

import itertools
import xml.etree.ElementTree as ET

import pytest

from biasaudit.report import svg
from biasaudit.report.palette import (
    COLOURS,
    DASHES,
    MARKERS,
    PATTERNS,
    contrast_ratio,
    relative_luminance,
    series_style,
)

NS = "{http://www.w3.org/2000/svg}"


def test_luminance_known_values() -> None:
    assert relative_luminance("#000000") == 0.0
    assert relative_luminance("#ffffff") == pytest.approx(1.0)
    assert contrast_ratio("#000000", "#ffffff") == pytest.approx(21.0)


def test_palette_is_distinguishable_in_greyscale() -> None:
    # Ordered dark to light, neighbours at least 1.4:1 apart in luminance contrast ...
    lums = [relative_luminance(c) for c in COLOURS]
    assert lums == sorted(lums)
    for a, b in itertools.pairwise(COLOURS):
        assert contrast_ratio(a, b) >= 1.4, (a, b)
    # ... and every series has its own pattern, marker and dash as well.
    for styles in (PATTERNS, MARKERS, DASHES):
        assert len(set(styles)) == len(COLOURS)


def test_series_style_cycles() -> None:
    assert series_style(0) == series_style(len(COLOURS))
    assert series_style(0) != series_style(1)


@pytest.mark.parametrize(
    ("low", "high", "expected"),
    [(0.0, 1.0, [0.0, 0.2, 0.4, 0.6, 0.8, 1.0]), (0.0, 7.0, [0, 2, 4, 6, 8]), (-0.3, 0.3, None)],
)
def test_nice_ticks(low: float, high: float, expected: list[float] | None) -> None:
    ticks = svg.nice_ticks(low, high)
    if expected is not None:
        assert ticks == pytest.approx(expected)
    assert ticks[0] <= low and ticks[-1] >= high


def test_fmt() -> None:
    assert svg.fmt(0.5) == "0.5"
    assert svg.fmt(0.12345) == "0.123"
    assert svg.fmt(None) == "n/a"
    assert svg.fmt(2.0) == "2"
    assert svg.fmt(0.0001) == "1.0e-04"


def _charts() -> dict[str, str]:
    bars = [
        svg.BarSeries("run <a>", [0.2, None, 0.9], [0.1, None, 0.8], [0.3, None, 1.0]),
        svg.BarSeries("run b", [0.4, 0.5, -0.1]),
    ]
    return {
        "bar": svg.bar_chart("groups & more", ["g1", "a very long group label " * 3, "g3"], bars),
        "line": svg.line_chart("steps", ["1", "2", "3"], [svg.LineSeries("low", [0.1, None, 0.3])]),
        "hist": svg.histogram("hist", ["0", "(0, 0.1]"], [3, 0]),
        "strip": svg.strip_chart("strip", [svg.StripRow("g", [0.1, 0.5], {"mean": 0.3})]),
        "legend": svg.strip_legend(["mean"]),
        "forest": svg.forest_chart(
            "diff", [svg.Interval("m", 0.1, -0.05, 0.2), svg.Interval("x", None)]
        ),
        "stack": svg.stacked_chart("stack", ["a"], ["answered", "refused"], [[0.75, 0.25]]),
    }


@pytest.mark.parametrize("kind", list(_charts()))
def test_charts_are_valid_accessible_svg(kind: str) -> None:
    text = _charts()[kind]
    root = ET.fromstring(text)
    assert root.tag == f"{NS}svg"
    assert root.get("role") == "img"
    title, desc = root.find(f"{NS}title"), root.find(f"{NS}desc")
    assert title is not None and title.text
    assert desc is not None and desc.text
    assert root.get("aria-labelledby") == f"{title.get('id')} {desc.get('id')}"
    assert "http" not in text.replace('xmlns="http://www.w3.org/2000/svg"', "")


def test_bar_chart_content_and_escaping() -> None:
    text = _charts()["bar"]
    assert "run &lt;a&gt;" in text  # series names are escaped
    assert ">0.9<" in text and ">n/a<" in text  # value labels and missing values
    assert text.count("<pattern") == 1  # the second series is patterned, the first solid
    assert "…" in text  # long labels are shortened, the full one kept in a <title>


def test_chart_ids_are_deterministic_and_distinct() -> None:
    a = svg.histogram("one", ["x"], [1])
    assert a == svg.histogram("one", ["x"], [1])
    ids_a = ET.fromstring(a).find(f"{NS}title").get("id")  # type: ignore[union-attr]
    ids_b = ET.fromstring(svg.histogram("two", ["x"], [1])).find(f"{NS}title").get("id")  # type: ignore[union-attr]
    assert ids_a != ids_b


def test_stacked_chart_segment_widths() -> None:
    root = ET.fromstring(svg.stacked_chart("s", ["a"], ["x", "y"], [[0.75, 0.25]]))
    widths = [
        float(r.get("width", 0)) for r in root.iter(f"{NS}rect") if r.find(f"{NS}title") is not None
    ]
    assert widths[0] == pytest.approx(3 * widths[1], rel=0.01)
