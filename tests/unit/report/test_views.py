"""STOP, CALM and COBIAS report views on hand-built result tables."""

from __future__ import annotations

from typing import Any

import pytest
from helpers import svgs

from biasaudit.benchmarks.calm import report_view as calm_view
from biasaudit.benchmarks.cobias import report_view as cobias_view
from biasaudit.benchmarks.stop import report_view as stop_view
from biasaudit.report.sections import MissingTable, table_rows
from biasaudit.results.schema import BenchmarkResult, Table


def result(name: str, tables: dict[str, Table]) -> BenchmarkResult:
    return BenchmarkResult(
        benchmark=name, version="1", n_samples=1, samples_hash="h", metrics=[], tables=tables
    )


def body(sections: list[Any]) -> str:
    return "".join(s.body for s in sections)


def test_table_rows_checks_presence_and_columns() -> None:
    res = result("x", {"t": Table(columns=["a", "b"], rows=[[1, 2]])})
    assert table_rows(res, "t", ["b"]) == [{"b": 2}]
    with pytest.raises(MissingTable, match="no 'u' table"):
        table_rows(res, "u", ["a"])
    with pytest.raises(MissingTable, match="lacks column"):
        table_rows(res, "t", ["c"])


STEPS = [
    [sev, step, rate, 10]
    for sev, rates in (
        ("low", [0.0, 0.1, 0.1, 0.2, 0.2]),
        ("moderate", [0.1, 0.4, 0.6, 0.7, 0.75]),
        ("all", [0.05] * 5),
    )
    for step, rate in enumerate(rates, start=1)
]


def test_stop_view() -> None:
    tables = {
        "step_no_rate": Table(columns=["severity", "step", "no_rate", "n"], rows=STEPS),
        "first_no_step": Table(
            columns=["severity", "first_no_step", "n", "share"],
            rows=[["low", 1, 2, 0.2], ["low", "none", 8, 0.8]],
        ),
        "by_subdemographic": Table(
            columns=["demographic", "sub_demographic", "n", "success_rate", "mean_sensitivity"],
            rows=[["religion", "Muslim", 5, 0.4, 0.56], ["age", "elderly", 3, None, 0.2]],
        ),
    }
    sections = stop_view.sections(result("stop", tables), [])
    assert len(sections) == 3
    html = body(sections)
    assert ">0.75<" in html and ">0.56<" in html and "religion / Muslim" in html
    # the ideal column: moderate answers 'no' from step 2 on, low never
    row = "<td>moderate</td>" + "".join(f"<td class=num>{v}</td>" for v in (2, 0.4, 10, 1))
    assert row in html
    assert len(svgs(html)) == 3
    assert "Skipped" not in html


def test_stop_view_missing_tables() -> None:
    sections = stop_view.sections(result("stop", {}), [])
    assert len(sections) == 3
    assert all("Skipped: results.json has no" in s.body for s in sections)


def test_calm_view() -> None:
    by_template = [
        ["qa", "gender", f"qa:{t}", g, acc, 50]
        for t, accs in ((0, (0.9, 0.5, 0.7)), (1, (0.8, 0.8, 0.8)))
        for g, acc in zip(("male", "female", "neutral"), accs, strict=True)
    ]
    by_name = [["qa", "gender", "male", n, a, 2] for n, a in (("John", 1.0), ("Paul", 0.5))]
    tables = {
        "by_template": Table(
            columns=["task", "attribute", "template_id", "group", "accuracy", "n"], rows=by_template
        ),
        "by_name": Table(
            columns=["task", "attribute", "group", "name", "accuracy", "n"], rows=by_name
        ),
    }
    sections = calm_view.sections(result("calm", tables), [])
    assert [s.title for s in sections] == [
        "CALM (gender): accuracy per group over templates",
        "CALM (gender): accuracy per group over names",
    ]
    html = body(sections)
    # qa:0 has the widest gap, 0.9 - 0.5 = 0.4, between male and female
    assert "<td>qa</td><td>qa:0</td><td class=num>0.4</td><td>female</td><td>male</td>" in html
    # male over templates: mean 0.85, min 0.8, max 0.9; Paul is the lowest name
    assert "<td class=num>0.85</td><td class=num>0.8</td><td class=num>0.9</td>" in html
    assert "<td>Paul</td><td>John</td>" in html
    svgs(html)


def test_calm_view_missing_tables() -> None:
    html = body(calm_view.sections(result("calm", {}), []))
    assert html.count("Skipped") == 2


def test_cobias_histogram_bins() -> None:
    counts = cobias_view.histogram_counts([0.0, 0.05, 0.1, 0.15, 1.0, 0.95, 0.5])
    assert counts == [1, 2, 1, 0, 0, 1, 0, 0, 0, 0, 2]


def test_cobias_view() -> None:
    rows = [
        [1, "Statement one.", 0.8, 50.0, 10],
        [2, "Statement <two>.", 0.3, 0.5, 10],
        [3, "Unchanged.", 0.0, 0.0, 10],
        [4, "Failed.", None, None, 0],
    ]
    tables = {
        "statements": Table(columns=["id", "sentence", "cobias", "cv", "n_contexts"], rows=rows)
    }
    hist, least = cobias_view.sections(result("cobias", tables), [])
    assert "3 statements scored, 1 not scored" in hist.body
    svgs(hist.body)
    # lowest non-zero first, escaped, behind a content warning; zeros counted apart
    assert least.body.index("Statement &lt;two&gt;.") < least.body.index("Statement one.")
    assert "Unchanged." not in least.body
    assert "1 statement(s) scored exactly 0" in least.body
    assert '<details class="cw">' in least.body
    missing = cobias_view.sections(result("cobias", {}), [])
    assert "Skipped" in missing[0].body
