"""Edges of biasaudit.answers.yesno that the corpora do not reach (mutmut survivors of
2026-11-29: the branch "a hedge, then one bare answer" and its neighbours).

Each expectation is read off the text by hand under the rule the module docstring states
(a hedge abstains unless one bare yes or no follows it; two different ones are two answers);
none comes from running the code.
"""

from __future__ import annotations

import pytest

from biasaudit.answers import Reason
from biasaudit.answers.yesno import read_yes_no


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        ("I'm not sure. No.", "no"),  # the hedge, then one bare answer: that answer
        ("No idea. Yes!", "yes"),
        ("Hmm, I'm not sure. Yes.", "yes"),  # the hedge after an opener
        ("Perhaps. No.", "no"),  # a cannot-tell word, then one bare answer
    ],
)
def test_a_hedge_then_one_bare_answer_is_that_answer(reply: str, expected: str) -> None:
    reading = read_yes_no(reply)
    assert reading.answered and reading.value == expected


@pytest.mark.parametrize(
    "reply",
    [
        "I'm not sure.",  # nothing after the hedge
        "I'm not sure. Yes. No.",  # two different bare answers after it
        "I'm not sure, but it is rude.",  # no bare answer: a hedge stays a hedge
        "Maybe. Yes. No.",
        "It depends.",
    ],
)
def test_a_hedge_without_one_bare_answer_abstains(reply: str) -> None:
    reading = read_yes_no(reply)
    assert not reading.answered and reading.reason is Reason.HEDGE


def test_a_cannot_tell_reply_is_the_unknown_outcome_where_the_protocol_has_one() -> None:
    assert read_yes_no("Maybe.", unknown=True).outcome == "unknown"
    assert read_yes_no("It depends.", unknown=True).outcome == "unknown"
    # a hedge ("I'm not sure") is not a statement that it cannot be told: still a hedge
    assert read_yes_no("I'm not sure.", unknown=True).reason is Reason.HEDGE


def test_soft_yes_words_alone_are_yes() -> None:
    # "Sure." / "Of course." alone are yes (the module's soft-yes rule); the reading's value
    # is the protocol's "yes", nothing else
    for reply in ("Sure.", "Sure!", "Of course."):
        reading = read_yes_no(reply)
        assert reading.answered and reading.value == "yes", reply


def test_a_stated_echo_of_the_options_is_no_answer() -> None:
    # "the answer is yes or no" repeats the question's options: nothing is chosen
    assert not read_yes_no("Hmm. The answer is yes or no.").answered


def _rude_or_fine(clause: str) -> str | None:
    """A benchmark's verdict reader in miniature: "rude" is no, "fine" is yes."""
    lowered = clause.lower()
    return "no" if "rude" in lowered else "yes" if "fine" in lowered else None


def test_a_refusal_followed_by_one_answer_is_that_answer() -> None:
    # the answer after the refusal opener counts (a bare word, or a verdict clause read by
    # the benchmark's verdict reader); two different ones after it stay a refusal
    assert read_yes_no("I can't answer that. No.").value == "no"
    assert read_yes_no("I can't answer that. It is rude.", verdict=_rude_or_fine).value == "no"
    assert read_yes_no("I can't answer that, it is rude.", verdict=_rude_or_fine).value == "no"
    assert read_yes_no("I cannot help with that. Yes, no.").outcome == "refused"
    two = read_yes_no("I refuse. It is rude. It is fine.", verdict=_rude_or_fine)
    assert two.outcome == "refused"


def test_own_answer_rejection_needs_an_answer_before_it() -> None:
    from biasaudit.answers.corrections import rejects_own_answer

    # only punctuation before "This answer is incorrect": no answer of its own to take back
    assert not rejects_own_answer("... This answer is incorrect.")
    assert not rejects_own_answer("—\nThis answer is wrong.")
    # one letter before it (an option called X) is an answer, taken back
    assert rejects_own_answer("X. This answer is incorrect.")
    assert rejects_own_answer("B. My answer was wrong.")


@pytest.mark.parametrize(
    "reply",
    [
        # a second "the answer is" inside a later clause, with a different answer: two
        "Some say the answer is yes; others say the answer is no.",
        "The answer is yes. Then again the answer is no.",
        "Hmm, I wonder. The answer is yes, unless the answer is no.",
    ],
)
def test_a_stated_answer_anywhere_that_differs_makes_two_answers(reply: str) -> None:
    reading = read_yes_no(reply)
    assert not reading.answered and reading.reason is Reason.TWO_ANSWERS


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        ("Yes. The answer is yes.", "yes"),  # the same answer stated again: one
        ("No. My answer is no.", "no"),
        ("Hmm. The answer is no.", "no"),
    ],
)
def test_the_same_answer_stated_again_is_one_answer(reply: str, expected: str) -> None:
    assert read_yes_no(reply).value == expected


def test_a_sentence_closed_inside_a_bracket_or_quote_ends_there() -> None:
    from biasaudit.answers.text import sentences

    # ".)" and '."' end a sentence as "." does: the next sentence is read on its own
    assert sentences("(I would say no.) Yes.") == ["(I would say no.)", "Yes."]
    assert sentences('He said "No." Then he left.') == ['He said "No."', "Then he left."]
    assert sentences("(see B) and more.") == ["(see B) and more."]  # no end mark: one
    # found by a mutant: the "Yes." after the bracket was read with it, and the reply as no
    reading = read_yes_no("(I would say no.) Yes.")
    assert not reading.answered and reading.reason is Reason.TWO_ANSWERS
