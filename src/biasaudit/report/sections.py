"""The unit a report is made of, and the contract benchmark views implement.

A benchmark package may provide ``biasaudit.benchmarks.<name>.report_view`` with::

    def sections(result: BenchmarkResult, records: list[SampleRecord]) -> list[Section]: ...

The report finds that module by the benchmark's name (`biasaudit.report.views`) and adds the
sections after the generic ones. `body` is trusted HTML: build it with the helpers in
`biasaudit.report.html` and `biasaudit.report.svg`, which escape every value, and give every
plot a table equivalent (`html.figure`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from html import escape
from typing import Any

from biasaudit.results.schema import BenchmarkResult


@dataclass(frozen=True)
class Section:
    title: str
    #: HTML fragment (typically an SVG chart and its table equivalent).
    body: str


class MissingTable(LookupError):
    """A view's input table is absent from results.json or lacks columns."""


def table_rows(result: BenchmarkResult, name: str, columns: Sequence[str]) -> list[dict[str, Any]]:
    """Rows of `result.tables[name]` as dicts of the needed `columns`; MissingTable otherwise."""
    table = result.tables.get(name)
    if table is None:
        raise MissingTable(f"results.json has no '{name}' table for {result.benchmark}")
    absent = [c for c in columns if c not in table.columns]
    if absent:
        raise MissingTable(f"table '{name}' lacks column(s) {', '.join(absent)}")
    index = [table.columns.index(c) for c in columns]
    return [{c: row[i] for c, i in zip(columns, index, strict=True)} for row in table.rows]


def skipped(title: str, reason: MissingTable) -> Section:
    """The section a view returns in place of one whose table is missing."""
    return Section(title, f'<p class="note">Skipped: {escape(str(reason))}.</p>')
