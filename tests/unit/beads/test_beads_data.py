"""BEADs readers on hand-made fixtures in the released layout, and on malformed files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from biasaudit.benchmarks.beads import dataset_labels as lab
from biasaudit.benchmarks.beads.dataset import (
    BeadsData,
    all_splits,
    conll_sentences,
    load_file,
)
from biasaudit.errors import DataError

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "beads"


@pytest.fixture()
def data() -> BeadsData:
    return BeadsData(FIXTURES)


def test_every_split_of_the_layout_has_a_fixture_and_loads(data: BeadsData) -> None:
    assert data.available() == all_splits()
    for key in all_splits():
        assert data.load(key).rows, key


def test_bias_split_counts_and_labels(data: BeadsData) -> None:
    train = data.load("1-Text_Classification/bias_train")
    assert len(train.rows) == 60
    assert train.rows[0]["text"] == "Women are too emotional to be good leaders."
    assert train.rows[0]["label"] == "biased"
    assert train.rows[1]["label"] == "neutral"
    assert sum(r["label"] == "biased" for r in train.rows) == 30
    assert train.rows[0].row == 1


def test_full_annotations_ternary_labels_lists_and_floats(data: BeadsData) -> None:
    rows = data.load("Full_Annotations/full").rows
    assert [r["label"] for r in rows] == [
        "biased",
        "neutral",
        "biased",  # Slightly Biased -> biased by default
        "biased",
        "neutral",
        "biased",
    ]
    assert rows[0]["biased_words"] == ["never understand", "hopeless"]
    assert rows[2]["biased_words"] == ["too emotional"]  # JSON-style list
    assert rows[1]["biased_words"] == []
    assert rows[3]["toxic"] == "toxic"
    assert rows[0]["toxic"] == "non-toxic"
    assert rows[0]["sentiment"] == "negative"


def test_slightly_biased_policy() -> None:
    data = BeadsData(FIXTURES, policy=lab.LabelPolicy(slightly_biased="neutral"))
    assert data.load("Full_Annotations/full").rows[2]["label"] == "neutral"


def test_numeric_sentiment_kept_unless_mapped() -> None:
    rows = BeadsData(FIXTURES).load("1-Text_Classification/sentiment_valid").rows
    assert [r["label"] for r in rows] == ["2", "0", "1"]
    names = {"0": "negative", "1": "neutral", "2": "positive"}
    data = BeadsData(FIXTURES, policy=lab.LabelPolicy(sentiment_names=names))
    rows = data.load("1-Text_Classification/sentiment_valid").rows
    assert [r["label"] for r in rows] == ["positive", "negative", "neutral"]


def test_toxic_floats(data: BeadsData) -> None:
    rows = data.load("1-Text_Classification/toxic_valid").rows
    assert [r["label"] for r in rows] == ["toxic", "non-toxic", "toxic", "non-toxic"]
    assert rows[0]["text"] == "Go away, nobody wants your stupid opinion."


def test_conll_grouped_into_sentences(data: BeadsData) -> None:
    sentences = conll_sentences(data.load("2-Token_Classification/conll"))
    assert [s.id for s in sentences] == ["1", "2", "3"]
    assert sentences[0].tokens == ("Women", "are", "overreacting", "bossy", "managers", ".")
    assert sentences[0].tags == ("O", "O", "B-BIAS", "B-BIAS", "I-BIAS", "O")


def test_probe_files(data: BeadsData) -> None:
    template = data.load("4-Bias-Quantification-Demographics/demographic_template").rows
    assert len(template) == 16
    assert template[0]["label"] == "biased"  # "Bias"
    assert template[0]["identity"] == "female"
    stereo = data.load("4-Bias-Quantification-Demographics/stereotype_prompts").rows
    assert stereo[0]["template"] == "Muslims are frequently labeled as being criminals"
    variation = data.load("4-Bias-Quantification-Demographics/demographic_variation").rows
    assert len(variation) == 30
    assert variation[0]["base_id"] == "1"
    assert variation[0]["group"] == "male"
    debias = data.load("5-Language-Generation/bias_debias").rows
    assert debias[0]["debiased_text"] == "The managers displayed strong leadership."


def test_column_mapping(tmp_path: Path) -> None:
    path = tmp_path / "mine.csv"
    path.write_text("sentence_text,is_biased\nWomen can't drive.,1\nIt rained.,0\n")
    loaded = load_file(path, "bias", columns={"text": "sentence_text", "label": "is_biased"})
    assert [r["label"] for r in loaded.rows] == ["biased", "neutral"]
    data = BeadsData(
        tmp_path,
        files={"1-Text_Classification/bias_valid": str(path)},
        columns={
            "1-Text_Classification/bias_valid": {"text": "sentence_text", "label": "is_biased"}
        },
    )
    assert len(data.load("1-Text_Classification/bias_valid").rows) == 2


def test_json_jsonl_and_parquet(tmp_path: Path) -> None:
    records = [{"text": "Men are brutes.", "label": 1}, {"text": "It rained.", "label": 0}]
    (tmp_path / "a.json").write_text(json.dumps(records))
    (tmp_path / "a.jsonl").write_text("\n".join(json.dumps(r) for r in records) + "\n")
    for name in ("a.json", "a.jsonl"):
        rows = load_file(tmp_path / name, "bias").rows
        assert [r["label"] for r in rows] == ["biased", "neutral"]
    pq = pytest.importorskip("pyarrow.parquet")
    import pyarrow as pa

    pq.write_table(pa.Table.from_pylist(records), tmp_path / "a.parquet")
    rows = load_file(tmp_path / "a.parquet", "bias").rows
    assert [(r["text"], r["label"]) for r in rows] == [
        ("Men are brutes.", "biased"),
        ("It rained.", "neutral"),
    ]


def _error(path: Path, schema: str, **kwargs: object) -> str:
    with pytest.raises(DataError) as info:
        load_file(path, schema, **kwargs)  # type: ignore[arg-type]
    message = str(info.value)
    assert "\n" not in message
    return message


def test_missing_column_names_file_and_columns(tmp_path: Path) -> None:
    path = tmp_path / "bias-valid.csv"
    path.write_text("sentence,tag\nA.,1\n")
    message = _error(path, "bias")
    assert str(path) in message
    assert "missing column 'label'" in message
    assert "columns: sentence, tag" in message


def test_bad_label_names_file_row_and_column(tmp_path: Path) -> None:
    path = tmp_path / "bias-valid.csv"
    path.write_text("text,label\nFine.,0\nAlso fine.,1\nOdd.,maybe\n")
    message = _error(path, "bias")
    assert message.startswith(f"{path}: row 3, column 'label': unknown bias label 'maybe'")


def test_empty_text_and_malformed_list(tmp_path: Path) -> None:
    path = tmp_path / "Bias_tokens.csv"
    path.write_text("text,biased_words\nMen are brutes.,\"['brutes'\"\n")
    assert "row 1, column 'biased_words': malformed list" in _error(path, "bias_tokens")
    path.write_text("text,biased_words\n   ,[]\n")
    assert "row 1, column 'text': empty text" in _error(path, "bias_tokens")


def test_ragged_csv_row_and_skip_mode(tmp_path: Path) -> None:
    path = tmp_path / "bias-train.csv"
    path.write_text("text,label\nFine.,0\nToo, many, fields,1\nBad.,x\nLast.,1\n")
    assert "row 2: more fields than the header has" in _error(path, "bias")
    loaded = load_file(path, "bias", on_error="skip")
    assert [r.row for r in loaded.rows] == [1, 4]
    assert len(loaded.skipped) == 2
    assert "row 3, column 'label'" in loaded.skipped[1]


def test_bad_files(tmp_path: Path) -> None:
    assert "file not found" in _error(tmp_path / "nope.csv", "bias")
    (tmp_path / "a.xlsx").write_text("x")
    assert "unsupported file type" in _error(tmp_path / "a.xlsx", "bias")
    (tmp_path / "b.json").write_text("[{")
    assert "invalid JSON at line 1" in _error(tmp_path / "b.json", "bias")
    (tmp_path / "c.csv").write_text("text,label\n")
    assert "no data rows" in _error(tmp_path / "c.csv", "bias")
    assert "unknown BEADs schema" in _error(tmp_path / "c.csv", "nope")
    (tmp_path / "d.csv").write_text("sentence_id,token,tag\n1,Men,B-PER\n")
    assert "row 1, column 'tag': unknown BIO tag 'B-PER'" in _error(tmp_path / "d.csv", "conll")


def test_unknown_split_and_missing_file(tmp_path: Path) -> None:
    with pytest.raises(DataError, match="unknown BEADs split 'Bias_classification/train'"):
        BeadsData(tmp_path).load("Bias_classification/train")
    with pytest.raises(DataError, match="not found; fetch the data"):
        BeadsData(tmp_path).load("3-Aspects/aspects")
    with pytest.raises(DataError, match="does not exist"):
        BeadsData(tmp_path / "missing")


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("Biased", "biased"),
        ("NON-BIASED", "neutral"),
        ("Non-biased", "neutral"),
        ("non_bias", "neutral"),
        (1.0, "biased"),
        ("0.0", "neutral"),
        ("Highly Biased", "biased"),
        ("Unclear", "unclear"),
    ],
)
def test_bias_label_spellings(value: object, expected: str) -> None:
    assert lab.bias_label(value) == expected


def test_label_errors() -> None:
    with pytest.raises(lab.LabelError):
        lab.bias_label(0.5)
    with pytest.raises(lab.LabelError):
        lab.toxicity_label("2")
    with pytest.raises(lab.LabelError):
        lab.sentiment_label("happy")
    with pytest.raises(lab.LabelError):
        lab.string_list("['a', 3]")
    assert lab.string_list("N/A") == []
    assert lab.string_list('["a", " b "]') == ["a", "b"]
