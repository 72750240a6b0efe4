"""Plain-text tables for the terminal."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


def format_cell(value: Any, digits: int = 4) -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:.{digits}g}" if abs(value) >= 1e-3 or value == 0 else f"{value:.3e}"
    return str(value)


def format_table(columns: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    """Left-aligned text columns, with a rule under the header."""
    cells = [[format_cell(v) for v in row] for row in rows]
    widths = [len(c) for c in columns]
    for row in cells:
        for i, cell in enumerate(row):
            widths[i] = max(widths[i], len(cell))

    def line(values: Sequence[str]) -> str:
        return "  ".join(v.ljust(w) for v, w in zip(values, widths, strict=False)).rstrip()

    out = [line(list(columns)), line(["-" * w for w in widths])]
    out.extend(line(row) for row in cells)
    return "\n".join(out)
