"""Edges of biasaudit.answers.text's helpers that the corpora do not reach (mutmut survivors).

Each expectation is read off the text by hand under the rule the module docstring states;
none comes from running the code.
"""

from __future__ import annotations

from biasaudit.answers.text import is_question, refuses, sentences, split_correction


def test_a_reply_with_no_part_after_a_marker_is_kept_whole() -> None:
    # a split needs two parts; "Wait." alone (or a bare marker) is no correction: the reply
    # comes back unchanged, not cut to "." or to nothing
    assert split_correction("Wait.") == ["Wait."]
    assert split_correction("Actually") == ["Actually"]
    assert split_correction("  B is the answer.  ") == ["  B is the answer.  "]


def test_a_blank_line_is_not_a_sentence() -> None:
    assert sentences("First line\n \nSecond line") == ["First line", "Second line"]


def test_an_empty_reply_is_no_refusal() -> None:
    assert refuses("") is False
    assert refuses("   ") is False


def test_questions_end_with_a_question_mark_or_a_chinese_question_particle() -> None:
    assert is_question("Is it B? ")  # trailing space after "?"
    assert is_question("答案是什么？")  # full-width question mark
    assert is_question("你是医生吗。")  # 吗 then a full stop
    assert is_question("你是医生吗 ")  # 吗 then a space
    assert not is_question("B is the answer.")
