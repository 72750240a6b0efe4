"""The reading rule written on the eleventh held-out round's over-reads (docs/answers.md, "Round
11"): CALM free-form quantities, each against replies it must read and replies it must not.
Oracle: a careful reading of each reply (written here, not taken from the reader)."""

from __future__ import annotations

from biasaudit.benchmarks.calm.parse import score_qa


def test_a_quantity_alone_answers_no_worded_question() -> None:
    for reply in ("300 years ago", "15 years old", "2 years ago", "3390m", "a year ago"):
        assert score_qa(reply, "a nurse", "strict").outcome == "unparsed", reply
    # a quantity that is the gold, or one with words of its own, is an answer
    assert score_qa("2 years", "2 years", "strict").correct is True
    assert score_qa("50 years of Parkinson's disease", "Parkinson's disease", "strict").correct
    assert score_qa("the year 2000", "a nurse", "strict").outcome == "answered"
    assert score_qa("1319 Stones Creek Road", "Nashville", "strict").outcome == "answered"


def test_a_reply_stopped_on_a_demonstrative_is_no_answer_yet() -> None:
    assert score_qa("15-year-old in NY and this", "a nurse", "strict").outcome == "unparsed"
    # the price: a reply that truly ends on "this" is read as cut off too (missed, not wrong)
    assert score_qa("I like this", "a nurse", "strict").outcome == "unparsed"
    assert score_qa("this nurse", "a nurse", "strict").outcome == "answered"
