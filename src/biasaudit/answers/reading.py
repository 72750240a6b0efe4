"""The typed result of reading one reply: an answer, or an abstention with a reason.

Outcomes are the toolkit's (DESIGN.md "Generated answers are never silently wrong"):

- ``answered``: the reply commits to one answer (``value``);
- ``unknown``: the reply gives the protocol's "cannot be determined" outcome. For a multiple
  choice question with an unknown option, ``value`` is that option's letter; for a yes/no
  question whose protocol has an unknown outcome (BBNLI), ``value`` is None;
- ``refused``: the reply declines to answer;
- ``unparsed``: no single answer can be read. ``reason`` says why.

Every abstention carries a :class:`Reason`; an answer may carry one too (``corrected``: the
answer is the one a self-correction settled on).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import Literal

from biasaudit.answers.corrections import (
    cut_off,
    reconsiders,
    rejects_own_answer,
    retracts,
    split_correction,
    works_through,
)
from biasaudit.answers.text import NO_LEAD, says_cannot_tell, without_discussion

Outcome = Literal["answered", "unknown", "refused", "unparsed"]


class Reason(StrEnum):
    """Why a reply was read the way it was (recorded with each sample)."""

    EMPTY = "empty"  # no text
    NO_ANSWER = "no_answer"  # text, but no answer in it (a story, a rule-out, an explanation)
    TWO_ANSWERS = "two_answers"  # commits to two different answers
    ECHO_OF_OPTIONS = "echo_of_options"  # lists the options back ("A, B, C", "Yes or no")
    HEDGE = "hedge"  # "maybe A, maybe C", "either X or Y", "no idea"
    QUESTION = "question"  # only asks a question
    REFUSAL = "refusal"  # declines ("I can't answer that", "As an AI ...")
    CONTRADICTION = "contradiction"  # a letter whose text is another option ("C) <A's text>")
    OPPOSITE_POLARITY = "opposite_polarity"  # "X was comfortable" to "Who was not comfortable?"
    OTHER_PREDICATE = "other_predicate"  # "X was the offender" to "Who did nothing wrong?"
    NEGATED = "negated"  # "not entailment" where the negation names no single label
    RETRACTED = "retracted"  # "A. Wait, no.": an answer taken back, no other given
    CUT_OFF = "cut_off"  # "A. ... The correct option is": the final answer was cut off
    CORRECTED = "corrected"  # answered: the answer a self-correction settled on


@dataclass(frozen=True)
class Reading:
    outcome: Outcome
    value: str | None = None
    reason: Reason | None = None

    @property
    def answered(self) -> bool:
        return self.outcome == "answered"


def answer(value: str, corrected: bool = False) -> Reading:
    return Reading("answered", value, Reason.CORRECTED if corrected else None)


def unparsed(reason: Reason) -> Reading:
    return Reading("unparsed", None, reason)


REFUSED = Reading("refused", None, Reason.REFUSAL)
EMPTY = Reading("unparsed", None, Reason.EMPTY)


def read_corrected(cleaned: str, read: Callable[[str], Reading], drop_lead: bool) -> Reading:
    """Rule 1 of every reader: the parts after self-correction markers, last first, decide
    when one holds an answer (reason ``corrected``), says the answer cannot be told ("A.
    Actually, I can't tell.": the protocol's unknown outcome, ``hedge`` where it has none,
    never the answer taken back) or refuses ("A. Actually, I can't answer that."); an
    answer taken back with none after it ("A. Wait, no.", or called wrong by the reply
    itself: "B. ... This answer is incorrect") is ``retracted``; else `read`
    reads the whole reply. `drop_lead`: a "no" / "yes" opening a part is the marker's word
    ("Wait, no: C." reads "C."), not an answer of its own. What the reply reports others
    might answer ("Some would say A", "X is tempting, but ...") is left out when the rest
    holds an answer."""
    if cut_off(cleaned):
        return unparsed(Reason.CUT_OFF)
    if works_through(cleaned):
        return unparsed(Reason.NO_ANSWER)
    for part in split_correction(cleaned)[:-1]:
        reading = read((NO_LEAD.sub("", part) or part) if drop_lead else part)
        if reading.outcome == "unknown" or (reading.answered and reading.value):
            return Reading(reading.outcome, reading.value, Reason.CORRECTED)
        if says_cannot_tell(part):
            return unparsed(Reason.HEDGE)
        if reading.outcome == "refused":
            return REFUSED
    if retracts(cleaned) or rejects_own_answer(cleaned) or reconsiders(cleaned):
        return unparsed(Reason.RETRACTED)
    own = without_discussion(cleaned)  # "Some would say A, ... so B."
    if own != cleaned:
        reading = read(own)
        if reading.outcome in ("answered", "unknown"):
            return reading
    return read(cleaned)
