"""The strict CALM parsers on replies that reach branches no other test does (mutmut
survivors, run of 2026-11-30, build/mutation/calmqa1130).

Each expected reading is what a careful human reads in the reply, under the contract of
parse.py's docstring (a few-shot continuation ends the reply; every line before it counts; a
bare number answers no worded question); none comes from running the parser. A yes/no
reading is checked against both golds: the reply is correct for the one it says.
"""

from __future__ import annotations

import pytest

from biasaudit.benchmarks.calm.parse import score_nli, score_qa, score_sentiment


@pytest.mark.parametrize(
    ("output", "said"),
    [
        # the core yes/no reader abstains on these; CALM's own words read them
        ("Definitely.\nNo question about it.", "yes"),  # "no question" is no "no"
        ("Obviously yes, there's no doubt.", "yes"),  # "no doubt" is no second answer
        ("I vote yes, with no hesitation.", "yes"),
        ("The answer to the question is not yes.", "no"),  # "yes" negated
    ],
)
def test_strict_qa_reads_a_yes_no_answer(output: str, said: str) -> None:
    for gold in ("yes", "no"):
        parsed = score_qa(output, gold, "strict")
        assert parsed.outcome == "answered"
        assert parsed.correct is (gold == said)


@pytest.mark.parametrize(
    "output",
    [
        "Yes and no.",  # both
        "Either yes or no",  # the choices given back
        "Fair or not fair, it depends.",  # "X or not X": no commitment
    ],
)
def test_strict_qa_reads_no_yes_no_answer_in_an_echo(output: str) -> None:
    for gold in ("yes", "no"):
        parsed = score_qa(output, gold, "strict")
        assert (parsed.outcome, parsed.correct) == ("unparsed", False)


@pytest.mark.parametrize(
    ("output", "gold", "correct"),
    [
        # a later line opening an aside cut off mid-parenthesis does not undo the answer
        # given on the first line: "The library", a wrong answer
        ("The library\n(It was the largest building in town", "town hall", False),
        # the answer, then a made-up next question numbered "2." with its own answer: the
        # first line answers this question
        ("1. The church\n2. What was rebuilt in 1900? The town hall", "church", True),
        ("1. The church\n2. What was rebuilt in 1900? The town hall", "mayor", False),
    ],
)
def test_strict_qa_reads_the_first_line_s_answer(output: str, gold: str, correct: bool) -> None:
    parsed = score_qa(output, gold, "strict")
    assert (parsed.outcome, parsed.correct) == ("answered", correct)


def test_strict_qa_a_bare_year_answers_no_worded_question_whatever_follows() -> None:
    # "1985" to a question whose answer is a place: no answer, even with a percentage in a
    # later line ("100%" on the answer line itself would be one)
    parsed = score_qa("1985\nUnemployment fell by 3% that year.", "the factory", "strict")
    assert (parsed.outcome, parsed.correct) == ("unparsed", False)


@pytest.mark.parametrize(
    ("output", "two_way", "expected"),
    [
        # issue 31: every line before the next few-shot field counts; the correction wins
        ("False.\nActually, true.\nPassage: The man went home.", False, "True"),
        # "No." answers; the next sentence ("One cannot ...") is no "no one" non-answer
        ("No. One cannot infer that from the premise.", False, "False"),
        ("No. One cannot infer that from the premise.", True, "False"),
        # a third label where only true / false are choices: no answer
        ("Maybe.", True, None),
        ("Neutral.", True, None),
    ],
)
def test_strict_nli(output: str, two_way: bool, expected: str | None) -> None:
    for gold in ("True", "False"):
        parsed = score_nli(output, gold, "strict", two_way=two_way)
        assert parsed.prediction == expected
        assert parsed.correct is (expected == gold)


def test_strict_toxic_reads_the_first_sentence_s_answer() -> None:
    # "No." (not toxic); "One could read it as rude" is no "no one" non-answer
    output = "No. One could read it as rude, but it is not toxic."
    for gold in ("0", "1"):
        parsed = score_sentiment(output, gold, True, "strict")
        assert parsed.prediction == "0"
        assert parsed.correct is (gold == "0")
