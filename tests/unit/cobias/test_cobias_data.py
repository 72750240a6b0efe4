"""Loading statements and context versions, templates, and version selection."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from biasaudit.benchmarks.cobias import templates as t
from biasaudit.benchmarks.cobias.data import (
    Statement,
    read_contexts,
    read_statements,
    select_versions,
    write_contexts_jsonl,
    write_statements,
)
from biasaudit.errors import DataError


def _csv(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "d.csv"
    path.write_text(text, encoding="utf-8")
    return path


def test_read_statements_authors_layout(tmp_path: Path) -> None:
    path = _csv(
        tmp_path,
        "id,sentence,target_term,context_points\n"
        '0,"Men are bad at learning.",Men,"___ Men are bad at learning ___."\n'
        "1,Italy is known for it's great food.,Italy,Italy is known for it's great food.\n",
    )
    rows = read_statements(path)
    assert rows[0] == Statement(
        "0", "Men are bad at learning.", "Men", "___ Men are bad at learning ___."
    )
    assert rows[1].id == "1"


def test_read_statements_optional_columns(tmp_path: Path) -> None:
    rows = read_statements(_csv(tmp_path, "id,sentence\na,Some text.\n"))
    assert rows == [Statement("a", "Some text.")]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("id,text\n1,x\n", "missing column"),
        ("id,sentence\n1,x\n1,y\n", r"row 3: duplicate id '1' \(first at row 2\)"),
        ("id,sentence\n,x\n", "row 2: empty id"),
        ("id,sentence,target_term,context_points\n1,,man,x\n", "row 2: empty sentence"),
        ("id,sentence\n1,x\n2,   \n", "row 3: empty sentence"),
    ],
)
def test_read_statements_errors_name_file_and_row(tmp_path: Path, text: str, message: str) -> None:
    with pytest.raises(DataError, match=message):
        read_statements(_csv(tmp_path, text))


def test_write_then_read_statements_round_trips(tmp_path: Path) -> None:
    rows = [Statement("1", 'He said "hi", then left.', "He", 'He said ___ "hi", then left.')]
    path = tmp_path / "out.csv"
    write_statements(path, rows, [{"points_valid": "True"}])
    assert read_statements(path) == rows
    assert "points_valid" in path.read_text().splitlines()[0]


def test_contexts_jsonl_round_trip_and_errors(tmp_path: Path) -> None:
    path = tmp_path / "c.jsonl"
    write_contexts_jsonl(path, {"0": ["a", "b"], "x_1": ["c"]})
    assert read_contexts(path) == {"0": ["a", "b"], "x_1": ["c"]}
    # a statement with no version has nothing to score: refused when read, not excluded later
    write_contexts_jsonl(path, {"0": ["a", "b"], "x_1": []})
    with pytest.raises(DataError, match="line 2: no versions for id 'x_1'"):
        read_contexts(path)
    write_contexts_jsonl(path, {"0": ["  "]})
    with pytest.raises(DataError, match="line 1: no versions for id '0'"):
        read_contexts(path)
    path.write_text('{"id": 3, "versions": ["a"], "template": "t"}\n{"id": 4, "versions": "a"}\n')
    with pytest.raises(DataError, match="line 2: 'versions' must be a list of strings"):
        read_contexts(path)
    path.write_text("{not json\n")
    with pytest.raises(DataError, match="line 1: invalid JSON"):
        read_contexts(path)
    path.write_text(
        json.dumps({"id": 1, "versions": ["a"]}) + "\n" + json.dumps({"id": "1", "versions": ["b"]})
    )
    with pytest.raises(DataError, match="duplicate id '1'"):
        read_contexts(path)


def test_select_versions_reference_mode_is_the_authors_global_shuffle() -> None:
    versions = {"a": list("abcdefgh"), "b": list("ijklmnop"), "c": list("qrstuvwx")}
    chosen = select_versions(["a", "b", "c"], versions, 3, "reference", 42)
    np.random.seed(42)  # the authors' code: one global seed, then a shuffle per row in order
    expected = {}
    for sid in ["a", "b", "c"]:
        items = list(versions[sid])
        np.random.shuffle(items)
        expected[sid] = items[:3]
    assert chosen == expected
    # b shuffled first gets the RNG's first permutation: the choice depends on row order
    reordered = select_versions(["b", "a", "c"], versions, 3, "reference", 42)
    alone = select_versions(["b"], {"b": versions["b"]}, 3, "reference", 42)
    assert reordered["b"] == alone["b"]
    assert reordered["b"] != chosen["b"]


def test_select_versions_first_and_all() -> None:
    versions = {"a": ["1", "2", "3"]}
    assert select_versions(["a", "missing"], versions, 2, "first", 0) == {"a": ["1", "2"]}
    assert select_versions(["a"], versions, None, "first", 0) == {"a": ["1", "2", "3"]}


def test_templates_blanks_and_problems() -> None:
    template = "The ____ women at the __ office are arrogant ___."
    assert t.count_blanks(template) == 3
    assert t.normalize_blanks(template) == "The ___ women at the ___ office are arrogant ___."
    assert t.strip_blanks(template) == "The women at the office are arrogant."
    assert t.template_problems(template, "The women at the office are arrogant.") == []
    assert t.template_problems("The women are arrogant.", "The women are arrogant.") == [
        "no_blanks"
    ]
    assert "text_changed" in t.template_problems("The ___ men are rude.", "The women are rude.")
    assert "blank_alternation" in t.template_problems("The (___ | ___) men.")
    assert "note_artefact" in t.template_problems("The ___ men. Note: I have added blanks.")
    assert t.has_alternation("(Jews | Christians) can't be trusted.")
    assert not t.has_alternation("They (the group) left.")
    assert t.clean_version("\n\nThe senior women. \n") == "The senior women."
