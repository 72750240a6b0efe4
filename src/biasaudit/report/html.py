"""HTML fragments for reports: escaped tables, figures with table equivalents, notes.

Every helper escapes the values it is given, so callers (including benchmark views) can pass
raw model output and dataset text.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from html import escape
from typing import Any

from biasaudit.report.svg import fmt


def cell(value: Any, digits: int = 3) -> str:
    """A table cell's text: numbers compactly, None as an en dash, the rest as text."""
    if value is None:
        return "–"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return "n/a" if math.isnan(value) else fmt(value, digits)
    return str(value)


def ci_text(low: float | None, high: float | None, level: float = 0.95) -> str:
    """ "[low, high]", with the level appended when it is not the 95% the headers state."""
    if low is None or high is None:
        return "–"
    suffix = "" if abs(level - 0.95) < 1e-9 else f" ({level:.0%})"
    return f"[{fmt(low)}, {fmt(high)}]{suffix}"


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _numberish(value: Any) -> bool:
    """Numbers, and intervals rendered by `ci_text`: aligned right, never wrapped."""
    return _number(value) or (isinstance(value, str) and (value == "–" or value.startswith("[")))


def table(
    columns: Sequence[str],
    rows: Sequence[Sequence[Any]],
    *,
    caption: str = "",
    numeric: Sequence[bool] | None = None,
) -> str:
    """A <table>; columns of numbers and intervals align right and do not wrap."""
    if numeric is None:
        numeric = [
            any(r[i] not in (None, "–") for r in rows)
            and all(r[i] is None or _numberish(r[i]) for r in rows)
            for i in range(len(columns))
        ]
    head = "".join(
        f'<th scope="col"{" class=num" if numeric[i] else ""}>{escape(c)}</th>'
        for i, c in enumerate(columns)
    )
    body = []
    for row in rows:
        cells = "".join(
            f"<td{' class=num' if numeric[i] else ''}>{escape(cell(v))}</td>"
            for i, v in enumerate(row)
        )
        body.append(f"<tr>{cells}</tr>")
    cap = f"<caption>{escape(caption)}</caption>" if caption else ""
    return (
        f'<div class="tablewrap"><table>{cap}<thead><tr>{head}</tr></thead>'
        f"<tbody>{''.join(body)}</tbody></table></div>"
    )


def figure(svg: str, table_html: str, caption: str = "") -> str:
    """A chart with its table equivalent (collapsed on screen, expanded when printed)."""
    cap = f"<figcaption>{escape(caption)}</figcaption>" if caption else ""
    return (
        f'<figure>{svg}{cap}<details class="tbl"><summary>Table of this chart</summary>'
        f"{table_html}</details></figure>"
    )


def note(text: str) -> str:
    return f'<p class="note">{escape(text)}</p>'


def paragraph(text: str) -> str:
    return f"<p>{escape(text)}</p>"
