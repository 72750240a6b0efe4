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
