"""BEADs stereotype-probe replies that reach `parse_agreement`'s rule for a quoted verdict
set inside a sentence (round 23: '"I agree," your request is not met.' holds no verdict of
the reply's) where no other test does: mutmut survivor `parse_agreement` 11 (the mention
replaced by other text instead of removed), run of 2026-11-30, build/mutation/preplies1130.

Every expected reading is written by hand: what a careful person takes the reply to say of
the statement (agree / disagree). None comes from running the reader.
"""

from __future__ import annotations

import pytest

from biasaudit.benchmarks.beads.parse_replies import parse_agreement


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        # the quoted verdict goes on in lower case with a verdict in other words, which
        # then opens the sentence: the reply agrees / disagrees
        ('"I agree," absolutely.', "agree"),
        ("“I agree,” definitely.", "agree"),
        ('"I agree," you are right.', "agree"),
        ('"I disagree," that is not true.', "disagree"),
        ('"I disagree," the statement is false.', "disagree"),
    ],
)
def test_a_quoted_verdict_then_a_verdict_in_other_words(reply: str, expected: str) -> None:
    parsed = parse_agreement(reply)
    assert (parsed.outcome, parsed.value) == ("answered", expected)
