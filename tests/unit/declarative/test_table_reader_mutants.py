"""`table_reader` edge by edge (the mutation run of issue 24 item 9): which value is missing,
option indices against option texts, the bounds of an index, string conversion, ids, and
every error message in full (a user sees it as the one line of a failed run).

Expected items are written by hand from the rows in each test.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from biasaudit.declarative import Item, table_reader
from biasaudit.errors import DataError


def _jsonl(tmp_path: Path, rows: list[Any], name: str = "t.jsonl") -> Path:
    path = tmp_path / name
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


def _error(read: Any, paths: dict[str, Path]) -> str:
    with pytest.raises(DataError) as caught:
        list(read(paths))
    return str(caught.value)


FULL = {"q": "Q", "opts": ["he", "she"], "label": 0, "stereo": 1, "g": "f", "id": "i1"}


def _read_all() -> Any:
    """A reader of every kind of column of FULL."""
    return table_reader(
        options=["opts"], gold="label", stereotyped="stereo", fields=["q"], groups=["g"],
        id_column="id",
    )  # fmt: skip


@pytest.mark.parametrize(
    ("drop", "column"),
    [
        (["label", "stereo", "id"], "label"),  # the gold before the stereotyped and the id
        (["q", "g"], "q"),  # fields before groups
        (["g", "stereo"], "g"),  # groups before the stereotyped option
        (["stereo", "id"], "stereo"),  # the stereotyped option before the id
        (["id"], "id"),
        (["opts", "label"], "opts"),  # the options first
    ],
)
@pytest.mark.parametrize("empty", [None, ""])
def test_the_first_missing_value_is_named(
    drop: list[str], column: str, empty: Any, tmp_path: Path
) -> None:
    row = {**FULL, **{c: empty for c in drop}}
    path = _jsonl(tmp_path, [FULL, row])
    message = _error(_read_all(), {"toy/t.jsonl": path})
    assert message == f"toy/t.jsonl, line 2: no value in column {column!r}"


def test_a_column_left_out_of_the_row_is_missing_and_zero_or_false_is_a_value(
    tmp_path: Path,
) -> None:
    row = {k: v for k, v in FULL.items() if k != "g"}
    message = _error(_read_all(), {"toy/t.jsonl": _jsonl(tmp_path, [row])})
    assert message == "toy/t.jsonl, line 1: no value in column 'g'"
    row = {**FULL, "q": 0, "g": False, "id": 0}
    [item] = _read_all()({"toy/t.jsonl": _jsonl(tmp_path, [row])})
    assert item == Item("0", {"q": "0"}, ["he", "she"], 0, 1, {"g": "False"})


def test_no_stereotyped_and_no_id_column_asked_for_needs_neither(tmp_path: Path) -> None:
    row = {"q": "Q", "opts": ["he", "she"], "label": 1, "g": "f"}
    path = _jsonl(tmp_path, [row, {**row, "label": "he"}], name="items.jsonl")
    read = table_reader(options=["opts"], gold="label", fields=["q"], groups=["g"])
    assert list(read({"toy/sub/items.jsonl": path})) == [
        Item("items.jsonl-1", {"q": "Q"}, ["he", "she"], 1, None, {"g": "f"}),
        Item("items.jsonl-2", {"q": "Q"}, ["he", "she"], 0, None, {"g": "f"}),
    ]


def test_values_are_strings_whatever_their_json_type(tmp_path: Path) -> None:
    row = {"q": 3, "opts": [1, 2.5, True], "label": 2, "stereo": "2.5", "g": 7, "id": 41}
    [item] = _read_all()({"toy/t.jsonl": _jsonl(tmp_path, [row])})
    assert item == Item("41", {"q": "3"}, ["1", "2.5", "True"], 2, 1, {"g": "7"})


def test_one_column_per_option_in_json_lines(tmp_path: Path) -> None:
    row = {"a": "he", "b": "she", "c": 3, "gold": "she", "q": "Q"}
    read = table_reader(options=["a", "b", "c"], gold="gold", fields=["q"])
    [item] = read({"toy/t.jsonl": _jsonl(tmp_path, [row])})
    assert item == Item("t.jsonl-1", {"q": "Q"}, ["he", "she", "3"], 1, None, {})


@pytest.mark.parametrize(
    ("opts", "shown"),
    [(["only"], "'opts'"), ("he she", "'opts'"), ({"a": 1, "b": 2}, "'opts'")],
)
def test_one_options_column_must_hold_a_list_of_two_or_more(
    opts: Any, shown: str, tmp_path: Path
) -> None:
    row = {"opts": opts, "label": 0}
    message = _error(
        table_reader(options=["opts"], gold="label"), {"k/t.jsonl": _jsonl(tmp_path, [row])}
    )
    assert message == f"k/t.jsonl, line 1: {shown} is not a list of options"


@pytest.mark.parametrize(
    ("label", "index"),
    [
        (0, 0),
        (2, 2),  # the last option
        ("2", 2),  # an index written as text
        ("1", 0),  # the text of an option wins over an index: option 0 is "1"
        ("zero", 1),
    ],
)
def test_gold_is_an_option_text_or_a_zero_based_index(
    label: Any, index: int, tmp_path: Path
) -> None:
    row = {"opts": ["1", "zero", "two"], "label": label, "stereo": label}
    read = table_reader(options=["opts"], gold="label", stereotyped="stereo")
    [item] = read({"k/t.jsonl": _jsonl(tmp_path, [row])})
    assert (item.gold, item.stereotyped) == (index, index)


@pytest.mark.parametrize(
    ("label", "shown"),
    [(3, "3"), (-1, "-1"), ("three", "'three'"), ([0], "[0]"), ({"i": 0}, "{'i': 0}")],
)
@pytest.mark.parametrize("column", ["label", "stereo"])
def test_a_value_that_is_neither_an_option_nor_its_index_is_one_line(
    label: Any, shown: str, column: str, tmp_path: Path
) -> None:
    row = {"opts": ["1", "zero", "two"], "label": 0, "stereo": 0, column: label}
    read = table_reader(options=["opts"], gold="label", stereotyped="stereo")
    message = _error(read, {"k/t.jsonl": _jsonl(tmp_path, [row])})
    assert message == f"k/t.jsonl, line 1: {column} {shown} is neither an option nor its index"


def test_a_json_line_that_is_not_an_object_is_one_line(tmp_path: Path) -> None:
    path = _jsonl(tmp_path, [{"opts": ["a", "b"], "label": 0}, ["a", "b"]])
    message = _error(table_reader(options=["opts"], gold="label"), {"k/t.jsonl": path})
    assert message == "k/t.jsonl, line 2: expected a JSON object"


def test_csv_files_are_read_as_csv_and_json_lines_as_json(tmp_path: Path) -> None:
    csv = tmp_path / "t.csv"
    csv.write_text('a,b,gold\n"x, y",z,1\n')
    jsonl = _jsonl(tmp_path, [{"a": "p", "b": "q", "gold": 0}], name="u.jsonl")
    read = table_reader(options=["a", "b"], gold="gold")
    assert list(read({"toy/t.csv": csv, "toy/u.jsonl": jsonl})) == [
        Item("t.csv-2", {}, ["x, y", "z"], 1, None, {}),
        Item("u.jsonl-1", {}, ["p", "q"], 0, None, {}),
    ]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("a,b,gold\nx,y\n", "toy/t.csv: row 2 has fewer fields than the header (no gold)"),
        ("a,b,gold\nx,y,0,9\n", "toy/t.csv: row 2 has more fields than the header (3)"),
        ("a,b,gold\nx,y,0\nx,,1\n", "toy/t.csv, line 3: no value in column 'b'"),
    ],
)
def test_a_bad_csv_row_is_one_line_naming_the_key(text: str, message: str, tmp_path: Path) -> None:
    path = tmp_path / "t.csv"
    path.write_text(text)
    assert _error(table_reader(options=["a", "b"], gold="gold"), {"toy/t.csv": path}) == message


@pytest.mark.parametrize(
    ("label", "shown"),
    [
        (True, "True"),  # a JSON boolean is not an index (bool is an int in Python)
        (1.5, "1.5"),  # was truncated to option 1
        (1e400, "inf"),  # was an OverflowError traceback
        (float("nan"), "nan"),
    ],
)
def test_a_boolean_a_fraction_or_a_non_finite_number_is_not_an_index(
    label: Any, shown: str, tmp_path: Path
) -> None:
    path = tmp_path / "t.jsonl"
    text = {True: "true", 1e400: "1e400"}.get(label, json.dumps(label))
    path.write_text('{"opts": ["1", "zero", "two"], "label": ' + text + "}\n")
    message = _error(table_reader(options=["opts"], gold="label"), {"k/t.jsonl": path})
    assert message == f"k/t.jsonl, line 1: label {shown} is neither an option nor its index"


@pytest.mark.parametrize(("label", "index"), [("1.0", None), (1.0, 1), (2.0, 2), (-0.0, 0)])
def test_a_whole_float_is_an_index_and_text_must_be_digits(
    label: Any, index: int | None, tmp_path: Path
) -> None:
    row = {"opts": ["a", "b", "c"], "label": label}
    read = table_reader(options=["opts"], gold="label")
    path = _jsonl(tmp_path, [row])
    if index is None:
        message = f"k/t.jsonl, line 1: label {label!r} is neither an option nor its index"
        assert _error(read, {"k/t.jsonl": path}) == message
    else:
        assert [item.gold for item in read({"k/t.jsonl": path})] == [index]


@pytest.mark.parametrize("empty", [None, ""])
def test_an_empty_option_in_a_list_column_is_one_line(empty: Any, tmp_path: Path) -> None:
    # one column per option already refuses an empty one ("no value in column"); a list
    # column read null as the option "None" and "" as an empty option
    rows = [{"opts": ["a", "b", "c"], "label": 0}, {"opts": ["a", empty, "c"], "label": 0}]
    read = table_reader(options=["opts"], gold="label")
    message = _error(read, {"k/t.jsonl": _jsonl(tmp_path, rows)})
    assert message == "k/t.jsonl, line 2: option 2 of 'opts' is empty"
