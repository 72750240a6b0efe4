"""scripts/corpus_replies.py: the BBNLI lines keep the hypothesis each reply was asked about
(the sample's own for its first reply, the twin's for its second). Oracle: the sample below."""

from __future__ import annotations

from script_module import load_script

REPLIES = load_script("corpus_replies")


def _exchange(text: str) -> dict:
    return {"request": {"kind": "generate"}, "response": {"text": text, "error": None}}


def test_bbnli_lines_carry_the_hypothesis_of_their_own_request() -> None:
    sample = {
        "benchmark": "bbnli",
        "sample_id": "s-1",
        "data": {"hypothesis": "H own", "twin_hypothesis": "H twin"},
        "exchanges": [_exchange("Yes."), _exchange("No.")],
    }
    rows = list(REPLIES.rows(sample, {}, "source", "model"))
    assert [(r["reply"], r["hypothesis"], r["corpus"]) for r in rows] == [
        ("Yes.", "H own", "bbnli_nli"),
        ("No.", "H twin", "bbnli_nli"),
    ]
    assert all(r["label"] is None for r in rows)  # written for a person to label
