"""Outcome rates (the shares of parse outcomes every metric reports). The per-group means,
gaps and intervals of a score are `frame`'s (metrics/frame.py, the one MetricValue builder)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

#: Parse outcomes of a generated answer (DESIGN.md: never silently wrong).
OUTCOMES = ("answered", "unknown", "refused", "unparsed", "error")


def outcome_rates(outcomes: Sequence[str]) -> dict[str, float]:
    """Share of each outcome label; empty input gives {}."""
    if not outcomes:
        return {}
    counts = Counter(outcomes)
    return {label: counts[label] / len(outcomes) for label in sorted(counts)}
