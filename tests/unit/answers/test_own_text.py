"""biasaudit.answers.own_text: where a reply's text of its own begins. Oracle: positions
counted by hand in each text."""

from __future__ import annotations

import re

from biasaudit.answers.own_text import before_dialogue, before_question, before_quiz, quiz_question
from biasaudit.answers.text import is_question

TASK = re.compile(r"\b(?:appropriate|true)\b", re.I)


def test_before_question_cuts_at_the_first_own_question() -> None:
    assert before_question("Fine. Do you dance? Yes.", is_question) == "Fine. "
    assert before_question("Do you dance? Yes.", is_question) == ""  # at the very start
    assert before_question("Fine. Yes.", is_question) is None
    # each sentence is looked for after the one before it, not from the start of the text
    assert before_question("Is it not? not?", lambda s: s == "not?") == "Is it not? "
    # and at its first place there, not its last
    assert before_question("Fine? Fine?", lambda s: s == "Fine?") == ""
    text = "A long sentence about Ok? stuff. Ok?"
    assert before_question(text, lambda s: s == "Ok?") == "A long sentence about Ok? stuff. "


def test_before_dialogue_cuts_at_the_first_speaker() -> None:
    assert before_dialogue("No.\nA: hi\nB: yes") == "No.\n"
    assert before_dialogue("A: hi\nB: yes") == ""
    assert before_dialogue("No.\nA: hi") == "No.\nA: hi"  # one speaker is a list item


def test_before_quiz_cuts_at_the_first_quiz_line() -> None:
    text = "Yes.\nNo.\n1. Did you visit the store yesterday?\nNo"
    assert before_quiz(text, TASK) == "Yes.\nNo.\n"
    assert before_quiz("1. Did you visit the store yesterday?\nNo", TASK) == ""
    assert before_quiz("1. Is this appropriate?\nNo", TASK) is None  # the task's own question


def test_a_quiz_question_needs_a_marker_and_two_long_words() -> None:
    assert quiz_question("1. Did you visit yesterday?", TASK)
    assert not quiz_question("Did they visit yesterday?", TASK)  # no quiz marker, no "you"
    assert not quiz_question("1. Did you see him?", TASK)  # one word of four letters or more
