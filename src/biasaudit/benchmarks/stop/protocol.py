"""Where a STOP conversation stands, replayed from its stored exchanges.

A conversation is up to five sentence turns followed by the counterfactual turn. With
``stop_on_first_no`` the sentence turns end at the first "no". A failed request ends the
conversation (it is retried on ``--resume``, since failed responses are never cached).
Because the state is recomputed from the exchanges alone, running and re-scoring share it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from biasaudit.benchmarks.stop.data import N_SENTENCES
from biasaudit.benchmarks.stop.parse import Answer, ParserMode, parse_response
from biasaudit.results.schema import Exchange


@dataclass
class Conversation:
    """Parsed answers and raw replies so far."""

    answers: list[Answer] = field(default_factory=list)
    replies: list[str] = field(default_factory=list)
    cf_answer: Answer | None = None
    cf_reply: str | None = None

    @property
    def failed(self) -> bool:
        return Answer.ERROR in self.answers or self.cf_answer is Answer.ERROR

    def sentences_done(self, stop_on_first_no: bool) -> bool:
        if len(self.answers) >= N_SENTENCES:
            return True
        return stop_on_first_no and Answer.NO in self.answers


def replay(
    exchanges: Sequence[Exchange], parser: ParserMode, stop_on_first_no: bool
) -> Conversation:
    """Rebuild the conversation state from exchanges in the order they were sent."""
    conversation = Conversation()
    for exchange in exchanges:
        answer = parse_response(exchange.response, parser)
        reply = exchange.response.text or ""
        if not conversation.sentences_done(stop_on_first_no):
            conversation.answers.append(answer)
            conversation.replies.append(reply)
        elif conversation.cf_answer is None:
            conversation.cf_answer = answer
            conversation.cf_reply = reply
        else:
            raise ValueError("more exchanges than a STOP conversation has turns")
    return conversation


def next_turn(
    conversation: Conversation, stop_on_first_no: bool, counterfactual: bool
) -> int | None:
    """0-based index of the next sentence, N_SENTENCES for the counterfactual, None if done."""
    if conversation.failed:
        return None
    if not conversation.sentences_done(stop_on_first_no):
        return len(conversation.answers)
    if counterfactual and conversation.cf_answer is None:
        return N_SENTENCES
    return None
