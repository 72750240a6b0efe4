"""COBIAS's own report sections: the score histogram and the least reliable statements.

Reads the ``statements`` table (id, sentence, cobias, cv, n_contexts). The histogram uses the
paper's bins: exact zeros, then ten right-closed bins (0, 0.1] ... (0.9, 1.0].

Direction: Eq. 3 rises with cv. The paper reads a higher COBIAS as more contextually reliable
(Table 3, and its human validation correlates positively with "sufficient context"), while its
Fig. 2 reads 0.72 as "possibly insufficient context". This view follows the reading the
paper's numbers support: the least reliable statements are those with the lowest COBIAS,
excluding exact zeros, which mean no context was added at all (listed separately by count).
"""

from __future__ import annotations

import math
from typing import Any

from biasaudit.report import html, svg
from biasaudit.report.sections import MissingTable, Section, skipped, table_rows
from biasaudit.results.schema import BenchmarkResult, SampleRecord

#: Statements listed as least reliable.
LISTED = 15
BIN_LABELS = ["0", *(f"({i / 10:.1f}, {(i + 1) / 10:.1f}]" for i in range(10))]


def histogram_counts(scores: list[float]) -> list[int]:
    """Counts for BIN_LABELS: exact zeros, then (k/10, (k+1)/10] for k = 0..9."""
    counts = [0] * len(BIN_LABELS)
    for score in scores:
        if score == 0.0:
            counts[0] += 1
        else:
            counts[1 + min(max(math.ceil(score * 10) - 1, 0), 9)] += 1
    return counts


def _score(row: dict[str, Any]) -> float | None:
    value = row["cobias"]
    return float(value) if isinstance(value, int | float) and math.isfinite(value) else None


def histogram_section(result: BenchmarkResult, rows: list[dict[str, Any]]) -> Section:
    title = "COBIAS: distribution of statement scores"
    scores = [s for r in rows if (s := _score(r)) is not None]
    counts = histogram_counts(scores)
    chart = svg.histogram(title, BIN_LABELS, counts, x_label="COBIAS score", y_label="statements")
    table = html.table(
        ["bin", "statements"], [[b, c] for b, c in zip(BIN_LABELS, counts, strict=True)]
    )
    unscored = len(rows) - len(scores)
    caption = f"{len(scores)} statements scored" + (
        f", {unscored} not scored (see exclusions)" if unscored else ""
    )
    return Section(title, html.figure(chart, table, caption))


def least_reliable_section(rows: list[dict[str, Any]]) -> Section:
    title = "COBIAS: least reliable statements"
    scored = [(s, r) for r in rows if (s := _score(r)) is not None]
    ranked = sorted(
        (item for item in scored if item[0] > 0.0), key=lambda item: (item[0], str(item[1]["id"]))
    )
    zeros = sum(1 for s, _ in scored if s == 0.0)
    table = html.table(
        ["id", "statement", "COBIAS", "cv", "contexts"],
        [[r["id"], r["sentence"], s, r["cv"], r["n_contexts"]] for s, r in ranked[:LISTED]],
        caption=f"lowest COBIAS first ({min(LISTED, len(ranked))} of {len(ranked)} "
        "non-zero scores)",
    )
    body = html.paragraph(
        "The paper reads a higher COBIAS as more contextually reliable (Table 3, human "
        "validation), so the lowest scores are listed; its Fig. 2 reads the scale the other way, "
        "and Eq. 3 rises with cv, so cv is shown alongside."
    )
    body += (
        '<details class="cw"><summary>Content warning: statements from bias benchmarks. '
        f"Show the list.</summary>{table}</details>"
    )
    if zeros:
        body += html.note(
            f"{zeros} statement(s) scored exactly 0: every context-added version equalled "
            "the statement (no context added)."
        )
    return Section(title, body)


def sections(result: BenchmarkResult, records: list[SampleRecord]) -> list[Section]:
    try:
        rows = table_rows(result, "statements", ["id", "sentence", "cobias", "cv", "n_contexts"])
    except MissingTable as exc:
        return [skipped("COBIAS: statement scores", exc)]
    return [histogram_section(result, rows), least_reliable_section(rows)]
