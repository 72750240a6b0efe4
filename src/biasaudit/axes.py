"""The demographic axes of the bias profile, shared by every benchmark.

Each benchmark maps its own groups (CrowS-Pairs bias types, BBQ categories, STOP
demographics, ...) onto these names in its folder (``benchmarks/<name>/profile.py``); the
profile is a table of these axes by benchmarks. The order here is the row order of the table.
Intersectional axes are kept apart from their parts: an item about Black women is evidence
about the intersection, not about race or gender alone.
"""

from __future__ import annotations

AXES: tuple[str, ...] = (
    "gender",
    "race/ethnicity",
    "religion",
    "age",
    "disability",
    "nationality",
    "sexual orientation",
    "socio-economic status",
    "physical appearance",
    "profession",
    "political ideology",
    "race x gender",
    "race x socio-economic status",
)


def check_axes(mapping: dict[str, str], owner: str) -> None:
    """Raise ValueError when a benchmark maps a group onto an axis the core does not name."""
    unknown = sorted(set(mapping.values()) - set(AXES))
    if unknown:
        raise ValueError(f"{owner} maps groups onto unknown axes {unknown} (known: {AXES})")


def axis_order(axis: str) -> int:
    return AXES.index(axis) if axis in AXES else len(AXES)
