"""The BBQ reader: pinned keys, row counts, one-line errors for malformed rows."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from biasaudit.data import DataStore
from biasaudit.datasets.bbq import (
    BBQ_CATEGORIES,
    SCRIPT_KEYS,
    TEMPLATE_KEYS,
    data_key,
    load_bbq,
    read_bbq_rows,
)
from biasaudit.datasets.bbq_templates import read_template_groups
from biasaudit.discovery import open_store
from biasaudit.errors import DataError

# Parrish et al. 2022, Table 4 (examples per category); 58,492 in all.
PAPER_COUNTS = {
    "Age": 3680,
    "Disability_status": 1556,
    "Gender_identity": 5672,
    "Nationality": 3080,
    "Physical_appearance": 1576,
    "Race_ethnicity": 6880,
    "Religion": 1200,
    "Sexual_orientation": 864,
    "SES": 6864,
    "Race_x_gender": 15960,
    "Race_x_SES": 11160,
}


def test_every_file_is_pinned():
    for key in [data_key(c) for c in BBQ_CATEGORIES] + list(TEMPLATE_KEYS) + list(SCRIPT_KEYS):
        source = open_store().source(key)
        assert source.upstream == "github.com/nyu-mll/BBQ"
        assert len(source.sha256) == 64
    url = open_store().source("downstream/bbq/templates/new_templates_Age.csv").url
    assert url is not None and url.endswith("templates/new_templates%20-%20Age.csv")


@pytest.mark.parametrize("category", sorted(PAPER_COUNTS))
def test_row_counts_match_the_paper(category: str, store: DataStore):
    rows = read_bbq_rows(store.path(data_key(category)), category)
    assert len(rows) == PAPER_COUNTS[category]
    assert {r.context_condition for r in rows} == {"ambig", "disambig"}
    assert {r.question_polarity for r in rows} == {"neg", "nonneg"}


def test_load_bbq_items(store: DataStore):
    items = load_bbq(store, ["Religion"])
    with store.path(data_key("Religion")).open() as handle:
        raw = json.loads(handle.readline())
    first = items[0]
    assert first.category == "Religion" and first.example_id == raw["example_id"]
    assert first.answers == (raw["ans0"], raw["ans1"], raw["ans2"])
    assert first.context == raw["context"] and first.label == raw["label"]
    assert all(i.answers[i.unknown_loc] for i in items)
    assert all(i.label_type == "label" for i in items)  # Religion has no name proxies


def test_name_proxies_are_question_index_over_25_in_race_ethnicity(store: DataStore):
    # R line 81: question_index > 25 uses proper names; Race_ethnicity templates 26-50 have
    # Proper_nouns_only TRUE.
    items = load_bbq(store, ["Race_ethnicity"])
    for item in items:
        assert item.label_type == ("name" if int(item.question_index) > 25 else "label")


def test_unknown_category_is_a_one_line_error(store: DataStore):
    with pytest.raises(DataError, match="unknown BBQ category Gender; choose from"):
        load_bbq(store, ["Gender"])


def _row(**overrides: object) -> dict:
    row = {
        "example_id": 0,
        "question_index": "1",
        "question_polarity": "neg",
        "context_condition": "ambig",
        "category": "Age",
        "answer_info": {
            "ans0": ["grandfather", "old"],
            "ans1": ["grandson", "nonOld"],
            "ans2": ["Unknown", "unknown"],
        },
        "additional_metadata": {"stereotyped_groups": ["old"]},
        "context": "c",
        "question": "q",
        "ans0": "The grandfather",
        "ans1": "The grandson",
        "ans2": "Unknown",
        "label": 2,
    }
    row.update(overrides)
    return row


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        ("{not json", "row 2: invalid JSON"),
        (json.dumps(_row(label=3)), "row 2: field label: 3 is not 0, 1 or 2"),
        (json.dumps(_row(label="2")), "row 2: field label:"),
        (json.dumps(_row(context_condition="vague")), "row 2: field context_condition: 'vague'"),
        (json.dumps(_row(question_polarity="pos")), "row 2: field question_polarity: 'pos'"),
        (json.dumps(_row(category="SES")), "row 2: field category: 'SES' in the Age file"),
        (json.dumps({k: v for k, v in _row().items() if k != "ans1"}), "row 2: field ans1:"),
        (json.dumps(_row(answer_info={"ans0": ["a", "b"]})), "row 2: field answer_info: keys"),
        (
            json.dumps(_row(answer_info={"ans0": ["a"], "ans1": ["b", "c"], "ans2": ["d", "e"]})),
            "row 2: field answer_info.ans0: expected",
        ),
        (json.dumps(_row(example_id=0)), "row 2: duplicate example_id 0"),
        ("[1, 2]", "row 2: expected a JSON object"),
    ],
)
def test_malformed_rows_name_file_and_row(tmp_path: Path, bad: str, message: str):
    path = tmp_path / "Age.jsonl"
    path.write_text(json.dumps(_row()) + "\n" + bad + "\n")
    with pytest.raises(DataError) as info:
        read_bbq_rows(path, "Age")
    text = str(info.value)
    assert str(path) in text and message in text
    assert "\n" not in text


def test_empty_file_is_an_error(tmp_path: Path):
    path = tmp_path / "Age.jsonl"
    path.write_text("\n")
    with pytest.raises(DataError, match="no rows"):
        read_bbq_rows(path, "Age")


def test_bad_template_q_id_is_a_one_line_error(tmp_path: Path):
    path = tmp_path / "new_templates_Age.csv"
    path.write_text(
        "Q_id,Category,Relevant_social_values,Known_stereotyped_groups\n1,Age,x,old\nx,Age,y,old\n"
    )
    with pytest.raises(DataError, match=r"row 3: Q_id 'x' is not an integer"):
        read_template_groups([path])


def test_line_separators_inside_json_strings_stay_in_their_row(tmp_path: Path):
    # JSON strings may hold U+2028, U+2029 and U+0085 unescaped (json.dumps with
    # ensure_ascii=False writes them raw); str.splitlines split such a row in two
    path = tmp_path / "Age.jsonl"
    context = "The grandfather\u2028and the grandson\u2029met\x85at noon."
    rows = [_row(context=context), _row(example_id=1)]
    path.write_text("\r\n".join(json.dumps(r, ensure_ascii=False) for r in rows) + "\r\n")
    read = read_bbq_rows(path, "Age")
    assert [r.example_id for r in read] == [0, 1]
    assert read[0].context == context
