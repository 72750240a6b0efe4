"""`biasaudit reproduce bbq`: its checks and tables, on hand-made items and on the release.

Expected values: on the hand-made items, counted by hand (written next to each assertion);
on the release, the paper's Table 4 (`test_bbq_data.PAPER_COUNTS`), the R script's comment
("is actually 16"), rows counted from the raw jsonl with `json`, and the per-category
target counts given in docs/benchmarks/bbq.md.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

from tests.unit.bbq.test_bbq_data import PAPER_COUNTS

from biasaudit.benchmarks.bbq.reproduce import reproduce, summarise
from biasaudit.data import DataStore
from biasaudit.datasets.bbq import BBQ_CATEGORIES, BBQItem
from biasaudit.datasets.files import read_json_lines


def _item(
    category: str,
    example_id: int,
    *,
    condition: str = "ambig",
    label_type: str = "label",
    target: int | None = 0,
    question_index: str = "1",
) -> BBQItem:
    return BBQItem(
        example_id=example_id,
        category=category,
        question_index=question_index,
        question_polarity="neg",
        context_condition=condition,
        context="ctx",
        question="q?",
        answers=("the man", "the boy", "Unknown"),
        label=2,
        answer_info={"ans0": ["man", "M"], "ans1": ["boy", "M"], "ans2": ["Unknown", "unknown"]},
        additional_metadata={},
        target_loc=target,
        label_type=label_type,
    )


def _items() -> list[BBQItem]:
    return [
        _item("Age", 0, target=0),
        _item("Age", 1, condition="disambig", target=1),
        _item("Age", 2, label_type="name", target=1),
        _item("Age", 3, condition="disambig", label_type="name", target=2),
        _item("Religion", 7, target=None, question_index="4"),
        _item("Gender_identity", 5, condition="disambig", target=None, question_index="13"),
        _item("Gender_identity", 6, target=0),
    ]


def _rows(table_rows: list[list[object]]) -> dict[object, list[object]]:
    return {row[0]: row[1:] for row in table_rows}


def test_checks_on_hand_made_items():
    result = summarise(_items(), 9)
    checks = [(c.name, c.expected, c.actual, c.passed) for c in result.checks]
    # one row-count check per category, in the release's category order, against Table 4
    by_category = {"Age": 4, "Gender_identity": 2, "Religion": 1}
    expected = [
        (f"rows {c}", PAPER_COUNTS[c], by_category.get(c, 0), False) for c in BBQ_CATEGORIES
    ]
    expected += [
        ("rows total", 58_492, 7, False),
        ("rows without a target (R: 'is actually 16')", 16, 2, False),
        # two categories have a row without a target: joined in sorted order
        (
            "category of the rows without a target",
            "Gender_identity",
            "Gender_identity,Religion",
            False,
        ),
    ]
    assert checks == expected
    assert result.ok is False
    assert result.benchmark == "bbq"
    assert result.analysis == "reproduce"
    assert result.source == "downstream/bbq (nyu-mll/BBQ data, templates and analysis_scripts)"


def test_tables_on_hand_made_items():
    result = summarise(_items(), 9)
    assert set(result.tables) == {"targets", "excluded"}
    targets = result.tables["targets"]
    assert targets.columns == [
        "category",
        "rows",
        "ambiguous",
        "name proxies",
        "t=0",
        "t=1",
        "t=2",
        "none",
    ]
    assert targets.description == "rows per category and the derived biased option (target_loc)"
    # every category gets a row, in the release's order; counted by hand from _items()
    assert [row[0] for row in targets.rows] == list(BBQ_CATEGORIES)
    rows = _rows(targets.rows)
    # Age: 4 rows, 2 ambiguous (ids 0, 2), 2 names (ids 2, 3), targets 0, 1, 1, 2
    assert rows["Age"] == [4, 2, 2, 1, 2, 1, 0]
    # Gender_identity: ids 5 (disambig, no target) and 6 (ambig, target 0)
    assert rows["Gender_identity"] == [2, 1, 0, 1, 0, 0, 1]
    assert rows["Religion"] == [1, 1, 0, 0, 0, 0, 1]
    assert rows["SES"] == [0, 0, 0, 0, 0, 0, 0]
    listing = result.tables["excluded"]
    assert listing.columns == ["category", "example_id", "question_index", "options (answer_info)"]
    assert listing.description == (
        "the rows without a target (dropped from bias scores, kept for accuracy)"
    )
    # in item order; the options are the answer_info group labels joined with "; "
    assert listing.rows == [
        ["Religion", 7, "4", "M; M; unknown"],
        ["Gender_identity", 5, "13", "M; M; unknown"],
    ]


def test_notes_name_the_metadata_row_count():
    result = summarise(_items(), 9)
    assert result.notes == [
        "9 metadata rows for 7 data rows: Gender_identity Q12 has two template variants, so R's "
        "merge gives those rows two metadata rows (they agree).",
        "target_loc is the port of BBQ_results_metadata.R; it is checked on every row against "
        "an independent pandas port in the test suite.",
    ]


def test_no_row_without_a_target():
    items = [_item("Sexual_orientation", 0, target=2)]
    result = summarise(items, 1)
    by_name = {c.name: c for c in result.checks}
    assert by_name["rows without a target (R: 'is actually 16')"].actual == 0
    # no category to name: None (the check fails), never an empty string
    assert by_name["category of the rows without a target"].actual is None
    assert result.tables["excluded"].rows == []
    assert _rows(result.tables["targets"].rows)["Sexual_orientation"] == [1, 1, 0, 0, 0, 1, 0]


def _raw_counts(data_dir: Path) -> tuple[Counter[str], Counter[str], int]:
    """Rows and ambiguous rows per category, and Gender_identity Q12 rows, read with json."""
    rows: Counter[str] = Counter()
    ambiguous: Counter[str] = Counter()
    q12 = 0
    for category in BBQ_CATEGORIES:
        path = data_dir / "downstream" / "bbq" / f"{category}.jsonl"
        for line in path.read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            rows[category] += 1
            ambiguous[category] += row["context_condition"] == "ambig"
            q12 += category == "Gender_identity" and row["question_index"] == "12"
    return rows, ambiguous, q12


def test_the_release_reproduces(store: DataStore, data_dir: Path):
    result = reproduce(store)
    assert [c.name for c in result.checks if not c.passed] == []
    assert len(result.checks) == 14
    by_name = {c.name: c.actual for c in result.checks}
    for category, n in PAPER_COUNTS.items():
        assert by_name[f"rows {category}"] == n
    assert by_name["rows total"] == 58_492
    assert by_name["rows without a target (R: 'is actually 16')"] == 16  # R line 140
    assert by_name["category of the rows without a target"] == "Gender_identity"
    rows, ambiguous, q12 = _raw_counts(data_dir)
    targets = _rows(result.tables["targets"].rows)
    for category in BBQ_CATEGORIES:
        assert targets[category][:2] == [rows[category], ambiguous[category]]
        assert sum(targets[category][3:]) == rows[category]
    # docs/benchmarks/bbq.md: biased option at 0 / 1 / 2 / none
    assert targets["Sexual_orientation"][3:] == [292, 260, 312, 0]
    assert targets["Gender_identity"][3:] == [1858, 1828, 1970, 16]
    assert len(result.tables["excluded"].rows) == 16
    # every Gender_identity Q12 row has two metadata rows (docs: 64 rows)
    assert q12 == 64
    assert result.notes[0].startswith(f"{58_492 + q12} metadata rows for 58492 data rows:")
    # Race_ethnicity: templates 26-50 use proper names (R line 81; test_bbq_data)
    path = data_dir / "downstream" / "bbq" / "Race_ethnicity.jsonl"
    raw = read_json_lines(path)
    assert targets["Race_ethnicity"][2] == sum(int(r["question_index"]) > 25 for r in raw)
