"""`biasaudit beads train-spans` on the demo sentences with a tiny BERT encoder (random
weights, real WordPiece tokenizer): the first-sub-token labelling by hand, and the reported
seqeval scores against seqeval on the written predictions and the independently aligned gold."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
from seqeval.metrics import f1_score
from tests.conformance import tiny_models

from biasaudit.analysis import Context
from biasaudit.benchmarks.beads.benchmark import DEMO
from biasaudit.benchmarks.beads.spantagger import (
    IGNORE,
    TRAIN_SPANS,
    SpanArgs,
    first_subtoken_tags,
    word_labels,
)
from biasaudit.data import DataStore
from biasaudit.metrics.spans import align_phrases


def test_first_subtoken_labelling_by_hand() -> None:
    # [CLS] women are over ##react ##ing [SEP]: words 0, 1, 2 with word 2 in three pieces
    word_ids = [None, 0, 1, 2, 2, 2, None]
    tags = ["O", "O", "B-BIAS"]
    assert word_labels(word_ids, tags) == [IGNORE, 0, 0, 1, IGNORE, IGNORE, IGNORE]
    # predictions on the later pieces are ignored; a word cut off by truncation stays O
    assert first_subtoken_tags(word_ids, [0, 0, 1, 2, 1, 1, 0], 4) == ["O", "B-BIAS", "I-BIAS", "O"]


@pytest.mark.integration
def test_train_spans_on_the_demo(store: DataStore, tmp_path: Path) -> None:
    encoder = tiny_models.build_masked_lm(tmp_path / "enc", tiny_models.real_tokenizer())
    args = SpanArgs(encoder=str(encoder), max_epochs=2, batch_size=4, learning_rate=1e-3)
    ctx = Context(store=store, output_dir=tmp_path / "out", progress=False)
    result = TRAIN_SPANS.run(args, ctx)
    rows = [json.loads(x) for x in (tmp_path / "out" / "span_predictions.jsonl").open()]
    with (DEMO / "2-Token-Classification" / "Bias_tokens.csv").open(newline="") as handle:
        demo = list(csv.DictReader(handle))
    assert len(rows) == round(0.2 * len(demo))  # 8 sentences, 2 held out
    for row in rows:
        source = demo[row["sentence"]]
        phrases = json.loads(source["biased_words"].replace("'", '"'))
        assert row["gold"] == align_phrases(source["text"], phrases).tags
    values = {m.name: m.value for m in result.metrics}
    expected = f1_score([r["gold"] for r in rows], [r["predicted"] for r in rows], zero_division=0)
    assert values["seqeval_f1"] == pytest.approx(expected)
    assert (tmp_path / "out" / "span_model" / "config.json").is_file()
    config = json.loads((tmp_path / "out" / "span_model" / "config.json").read_text())
    assert config["id2label"] == {"0": "O", "1": "B-BIAS", "2": "I-BIAS"}
