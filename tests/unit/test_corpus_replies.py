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


def test_a_reply_holding_a_unicode_line_separator_stays_one_line(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    import json
    import sys

    # json.dumps(ensure_ascii=False) leaves U+2028 as is; str.splitlines() would cut the
    # samples.jsonl line there (round 13's Gemma run), splitting on "\n" does not
    sample = {
        "benchmark": "bbnli",
        "sample_id": "s-1",
        "data": {"hypothesis": "H"},
        "exchanges": [_exchange("Yes.\u2028It is.")],
    }
    (tmp_path / "run.json").write_text(json.dumps({"options": {}, "seed": 1}))
    (tmp_path / "samples.jsonl").write_text(json.dumps(sample, ensure_ascii=False) + "\n")
    argv, sys.argv = sys.argv, ["corpus_replies.py", str(tmp_path), "model"]
    try:
        REPLIES.main()
    finally:
        sys.argv = argv
    lines = [line for line in capsys.readouterr().out.split("\n") if line]
    assert [json.loads(line)["reply"] for line in lines] == ["Yes.\u2028It is."]
