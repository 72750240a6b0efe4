"""CALM's own report sections: how accuracy spreads per group over templates and names.

Reads ``by_template`` (accuracy of each group on each template) and ``by_name`` (accuracy of
each name). Per bias attribute (gender, race) it shows each group's accuracy on every
template and for every name as a strip of dots, the templates with the widest gap between
groups, and summary tables. A missing table skips its section with a note.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from typing import Any

from biasaudit.report import html, svg
from biasaudit.report.sections import MissingTable, Section, skipped, table_rows
from biasaudit.results.schema import BenchmarkResult, SampleRecord

#: Templates listed as the widest between-group gaps, per attribute.
TOP_GAPS = 10


def _spread_rows(values: dict[tuple[str, str], list[tuple[str, float]]]) -> list[list[Any]]:
    """task, group, count, mean, min, max, max - min, sd, lowest and highest item."""
    out = []
    for (task, group), items in values.items():
        accs = [a for _, a in items]
        low = min(items, key=lambda item: item[1])
        high = max(items, key=lambda item: item[1])
        out.append(
            [
                task,
                group,
                len(accs),
                statistics.fmean(accs),
                low[1],
                high[1],
                high[1] - low[1],
                statistics.pstdev(accs),
                low[0],
                high[0],
            ]
        )
    return out


def _collect(
    rows: Sequence[dict[str, Any]], attribute: str, item: str
) -> dict[tuple[str, str], list[tuple[str, float]]]:
    out: dict[tuple[str, str], list[tuple[str, float]]] = {}
    for r in rows:
        if r["attribute"] == attribute and r["accuracy"] is not None:
            out.setdefault((str(r["task"]), str(r["group"])), []).append(
                (str(r[item]), float(r["accuracy"]))
            )
    return out


def _strip_figure(
    title: str, values: dict[tuple[str, str], list[tuple[str, float]]], item: str
) -> str:
    rows = [
        svg.StripRow(
            f"{task} · {group}",
            [a for _, a in items],
            {"mean": statistics.fmean(a for _, a in items)},
        )
        for (task, group), items in values.items()
    ]
    chart = svg.strip_chart(title, rows, x_label="accuracy", domain=(0.0, 1.0))
    table = html.table(
        [
            "task",
            "group",
            item + "s",
            "mean",
            "min",
            "max",
            "max − min",
            "sd",
            f"lowest {item}",
            f"highest {item}",
        ],
        _spread_rows(values),
    )
    legend = svg.strip_legend(["mean"])
    return legend + html.figure(chart, table, f"each dot is one {item}'s accuracy for the group")


def _gap_table(rows: Sequence[dict[str, Any]], attribute: str) -> str:
    per_template: dict[tuple[str, str], dict[str, float]] = {}
    for r in rows:
        if r["attribute"] == attribute and r["accuracy"] is not None:
            per_template.setdefault((str(r["task"]), str(r["template_id"])), {})[
                str(r["group"])
            ] = float(r["accuracy"])
    gaps = [
        (max(accs.values()) - min(accs.values()), key, accs)
        for key, accs in per_template.items()
        if len(accs) >= 2
    ]
    gaps.sort(key=lambda g: (-g[0], g[1]))
    table_rows_ = [
        [
            task,
            template,
            gap,
            min(accs, key=accs.__getitem__) if gap > 0 else None,
            max(accs, key=accs.__getitem__) if gap > 0 else None,
            ", ".join(f"{g} {html.cell(a)}" for g, a in sorted(accs.items())),
        ]
        for gap, (task, template), accs in gaps[:TOP_GAPS]
    ]
    return html.table(
        [
            "task",
            "template",
            "gap (max − min)",
            "lowest group",
            "highest group",
            "accuracy per group",
        ],
        table_rows_,
        caption=f"templates with the widest gap between {attribute} groups "
        f"({min(TOP_GAPS, len(gaps))} of {len(gaps)})",
    )


def spread_sections(result: BenchmarkResult, item: str) -> list[Section]:
    """Per attribute, each group's accuracy over templates (`item` "template_id") or names."""
    table, label = ("by_template", "template") if item == "template_id" else ("by_name", "name")
    title = f"CALM: accuracy per group and {label}"
    try:
        rows = table_rows(result, table, ["task", "attribute", item, "group", "accuracy", "n"])
    except MissingTable as exc:
        return [skipped(title, exc)]
    out = []
    for attribute in dict.fromkeys(str(r["attribute"]) for r in rows):
        heading = f"CALM ({attribute}): accuracy per group over {label}s"
        body = _strip_figure(heading, _collect(rows, attribute, item), label)
        if item == "template_id":
            body += _gap_table(rows, attribute)
        out.append(Section(heading, body))
    return out or [Section(title, html.note(f"The {table} table is empty."))]


def sections(result: BenchmarkResult, records: list[SampleRecord]) -> list[Section]:
    return [*spread_sections(result, "template_id"), *spread_sections(result, "name")]
