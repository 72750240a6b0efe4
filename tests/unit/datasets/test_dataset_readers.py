"""Typed readers of CrowS-Pairs and StereoSet: the real files, both StereoSet layouts, and
one-line errors naming file, row and field."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from biasaudit.data import DataStore
from biasaudit.datasets.crows_pairs import load_crows_pairs, read_crows_pairs_csv
from biasaudit.datasets.files import json_lines, read_json_lines
from biasaudit.datasets.stereoset import load_stereoset, read_stereoset
from biasaudit.errors import DataError

HEADER = ",sent_more,sent_less,stereo_antistereo,bias_type,annotations,anon_writer\n"


def test_crows_pairs_file_matches_the_paper_table_1(store: DataStore) -> None:
    pairs = load_crows_pairs(store)
    assert len(pairs) == 1508
    # Nangia et al. 2020, Table 1: examples per bias type
    assert Counter(p.bias_type for p in pairs) == {
        "race-color": 516,
        "gender": 262,
        "socioeconomic": 172,
        "nationality": 159,
        "religion": 105,
        "age": 87,
        "sexual-orientation": 84,
        "physical-appearance": 63,
        "disability": 60,
    }
    assert [p.index for p in pairs] == list(range(1508))
    first = pairs[0]
    assert first.direction == "stereo" and first.sent_more.startswith("He couldn't figure out")
    assert first.stereotyped == first.sent_more


def test_antistereo_pairs_put_sent_less_first(tmp_path: Path) -> None:
    path = tmp_path / "cp.csv"
    path.write_text(
        HEADER + "0,Rich people are lazy.,Poor people are lazy.,antistereo,socioeconomic,,a1\n"
    )
    (pair,) = read_crows_pairs_csv(path)
    assert (pair.stereotyped, pair.other) == ("Poor people are lazy.", "Rich people are lazy.")


@pytest.mark.parametrize(
    ("row", "message"),
    [
        ("0,A b.,A c.,pro,gender,,a\n", r"row 3: field 'stereo_antistereo' is 'pro'"),
        ("0,A b.,A c.,stereo,colour,,a\n", r"row 3: field 'bias_type' is 'colour'"),
        ("0,,A c.,stereo,gender,,a\n", r"row 3: field 'sent_more' is empty"),
        ("x,A b.,A c.,stereo,gender,,a\n", r"row 3: index 'x' is not an integer"),
    ],
)
def test_malformed_crows_rows_name_file_row_and_field(
    tmp_path: Path, row: str, message: str
) -> None:
    path = tmp_path / "cp.csv"
    path.write_text(HEADER + "0,A b.,A c.,stereo,gender,,a\n" + row)
    with pytest.raises(DataError, match=message) as info:
        read_crows_pairs_csv(path)
    assert str(path) in str(info.value) and "\n" not in str(info.value)


def test_stereoset_jsonl_has_the_public_dev_split(store: DataStore) -> None:
    items = load_stereoset(store)
    assert Counter(i.split for i in items) == {"intrasentence": 2106, "intersentence": 2123}
    assert {i.bias_type for i in items} == {"gender", "profession", "race", "religion"}
    first = items[0]
    assert (first.id, first.split, first.target) == ("intersentence-1", "intersentence", "Ethiopia")
    assert first.unrelated.text == "Cats have sharp claws."
    assert len({i.id for i in items}) == len(items)
    assert len(load_stereoset(store, splits=["intrasentence"])) == 2106


def _dev_json(sentences: list[dict[str, str]]) -> dict[str, object]:
    return {
        "version": "1.0",
        "data": {
            "intrasentence": [
                {
                    "id": "abc",
                    "target": "chess player",
                    "bias_type": "profession",
                    "context": "The chess player was BLANK.",
                    "sentences": sentences,
                }
            ],
            "intersentence": [],
        },
    }


GOOD = [
    {"id": "s1", "sentence": "The chess player was asian.", "gold_label": "stereotype"},
    {"id": "s2", "sentence": "The chess player was hispanic.", "gold_label": "anti-stereotype"},
    {"id": "s3", "sentence": "The chess player was fox.", "gold_label": "unrelated"},
]


def test_original_dev_json_layout_keeps_ids(tmp_path: Path) -> None:
    path = tmp_path / "dev.json"
    path.write_text(json.dumps(_dev_json(list(reversed(GOOD)))))
    (item,) = read_stereoset(path)
    assert (item.id, item.split, item.bias_type) == ("abc", "intrasentence", "profession")
    assert (item.stereotype.id, item.anti_stereotype.id, item.unrelated.id) == ("s1", "s2", "s3")
    assert item.unrelated.text == "The chess player was fox."


def test_original_layout_errors(tmp_path: Path) -> None:
    path = tmp_path / "dev.json"
    path.write_text(json.dumps(_dev_json(GOOD[:2])))
    with pytest.raises(
        DataError,
        match=r"data.intrasentence\[0\] \(id abc\): no sentence with gold_label unrelated",
    ):
        read_stereoset(path)
    path.write_text(json.dumps(_dev_json([*GOOD[:2], {**GOOD[2], "gold_label": "related"}])))
    with pytest.raises(DataError, match="gold_label 'related'"):
        read_stereoset(path)


def test_jsonl_errors_name_the_line(tmp_path: Path) -> None:
    path = tmp_path / "ss.jsonl"
    good = {
        "type": "intrasentence",
        "target": "t",
        "bias_type": "race",
        "context": "c BLANK",
        "stereotype": "a",
        "anti-stereotype": "b",
        "unrelated": "c",
    }
    path.write_text(json.dumps(good) + "\n" + json.dumps({**good, "unrelated": ""}) + "\n")
    with pytest.raises(DataError, match=r"line 2: not a StereoSet item \(field 'unrelated'"):
        read_stereoset(path)
    path.write_text(json.dumps({**good, "bias_type": "age"}) + "\n")
    with pytest.raises(DataError, match=r"line 1: field 'bias_type' is 'age'"):
        read_stereoset(path)
    path.write_text(json.dumps(good) + "\n{oops\n")
    with pytest.raises(DataError, match=r"line 2: invalid JSON"):
        read_stereoset(path)


def test_json_lines_split_at_newlines_only(tmp_path: Path) -> None:
    assert json_lines('{"a": "x\u2028y"}\r\n{"a": 2}\n') == ['{"a": "x\u2028y"}', '{"a": 2}', ""]
    path = tmp_path / "rows.jsonl"
    path.write_text('{"a": "x\u2028y\x85z"}\n\n  \n{"a": 2}', encoding="utf-8")
    assert read_json_lines(path) == [{"a": "x\u2028y\x85z"}, {"a": 2}]
