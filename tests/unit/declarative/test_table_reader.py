"""`table_reader`: a declarative task's items from a JSON-lines or CSV table, by column names
(expected items written by hand from the rows below)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from biasaudit.declarative import Item, table_reader
from biasaudit.errors import DataError

ROWS = [
    {"q": "The nurse said", "opts": ["he", "she"], "label": "he", "stereo": 1, "g": "f"},
    {"q": "The pilot said", "opts": ["he", "she"], "label": 1, "stereo": "he", "g": "m"},
]


def test_jsonl_rows_with_a_list_column(tmp_path: Path) -> None:
    path = tmp_path / "items.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in ROWS) + "\n\n")
    read = table_reader(
        options=["opts"], gold="label", stereotyped="stereo", fields=["q"], groups=["g"]
    )
    assert list(read({"toy/items.jsonl": path})) == [
        Item("items.jsonl-1", {"q": "The nurse said"}, ["he", "she"], 0, 1, {"g": "f"}),
        Item("items.jsonl-2", {"q": "The pilot said"}, ["he", "she"], 1, 0, {"g": "m"}),
    ]  # fmt: skip


def test_csv_rows_with_one_column_per_option(tmp_path: Path) -> None:
    path = tmp_path / "items.csv"
    path.write_text("id,q,a,b,gold,g\nx1,The cook said,he,she,she,f\nx2,The chef said,he,she,0,m\n")
    read = table_reader(options=["a", "b"], gold="gold", fields=["q"], groups=["g"], id_column="id")
    assert list(read({"toy/items.csv": path})) == [
        Item("x1", {"q": "The cook said"}, ["he", "she"], 1, None, {"g": "f"}),
        Item("x2", {"q": "The chef said"}, ["he", "she"], 0, None, {"g": "m"}),
    ]


@pytest.mark.parametrize(
    ("row", "message"),
    [
        (
            {"q": "x", "opts": ["a", "b"], "g": "f"},
            r"toy/t\.jsonl, line 1: no value in column 'label'",
        ),
        ({"q": "x", "opts": "a b", "label": 0, "g": "f"}, r"line 1: 'opts' is not a list"),
        ({"q": "x", "opts": ["a", "b"], "label": 2, "g": "f"}, r"line 1: label 2 is neither"),
        ({"q": "x", "opts": ["a", "b"], "label": "c", "g": "f"}, r"line 1: label 'c' is neither"),
    ],
)
def test_bad_rows_are_one_line_naming_file_line_and_column(
    row: dict[str, object], message: str, tmp_path: Path
) -> None:
    path = tmp_path / "t.jsonl"
    path.write_text(json.dumps(row) + "\n")
    read = table_reader(options=["opts"], gold="label", fields=["q"], groups=["g"])
    with pytest.raises(DataError, match=message):
        list(read({"toy/t.jsonl": path}))


def test_a_short_csv_row_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "t.csv"
    path.write_text("q,a,b,gold\nx,he,she\n")
    with pytest.raises(DataError, match="row 2 has fewer fields than the header"):
        list(table_reader(options=["a", "b"], gold="gold", fields=["q"])({"toy/t.csv": path}))
