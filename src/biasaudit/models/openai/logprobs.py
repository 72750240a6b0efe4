"""Prompt log-probs from an OpenAI-style ``/completions`` echo response.

A loglikelihood request is scored by sending ``context + continuation`` with ``echo=true``,
``logprobs=1`` and ``max_tokens=1``. The server then returns, for every prompt token, its
text offset and its log-prob given the tokens before it (``null`` for the first one). The
continuation's log-prob is the sum over the echoed tokens that cover the continuation's
characters; a token that straddles the boundary (it starts in the context and ends in the
continuation) is counted with the continuation, so every continuation character is scored.

Servers differ in what they fill in, and some fill it in wrongly: llama-cpp-python's server
(0.3.x) echoes each prompt token with the log-prob it has under the distribution *after*
itself (abetlen/llama-cpp-python#1983), and llama.cpp's own server returns no prompt log-probs.
`judge_probe` decides from one greedy generation and one echo whether a server's prompt
log-probs mean what they should.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any

#: |echoed - generated| log-prob of the probe's greedy token above which the echo is
#: taken to be misaligned. Correct servers agree to float noise; a shifted echo is off by
#: whole nats.
PROBE_TOLERANCE = 0.05
#: Slack for rounding when comparing a token's log-prob with the best of its position.
GREEDY_TOLERANCE = 1e-4


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _is_top(entry: Any) -> bool:
    """A position's top log-probs: None, or a dict of token -> number."""
    return entry is None or (
        isinstance(entry, dict)
        and all(isinstance(k, str) and _is_number(v) for k, v in entry.items())
    )


@dataclass(frozen=True)
class EchoedTokens:
    """The ``logprobs`` object of one completion choice."""

    tokens: list[str]
    offsets: list[int]
    logprobs: list[float | None]
    #: Per position, the most likely tokens and their log-probs (None when not returned).
    top: list[dict[str, float] | None] | None

    @classmethod
    def from_choice(cls, choice: dict[str, Any]) -> EchoedTokens:
        """Read ``choice["logprobs"]``; ValueError names what is missing or inconsistent."""
        block = choice.get("logprobs")
        if not isinstance(block, dict):
            raise ValueError("the answer has no logprobs")
        tokens = block.get("tokens")
        offsets = block.get("text_offset")
        logprobs = block.get("token_logprobs")
        if not isinstance(tokens, list) or not isinstance(logprobs, list):
            raise ValueError("the answer's logprobs lack tokens or token_logprobs")
        if not isinstance(offsets, list):
            raise ValueError("the answer's logprobs lack text_offset")
        if not len(tokens) == len(offsets) == len(logprobs):
            raise ValueError("the answer's tokens, text_offset and token_logprobs differ in length")
        if not all(isinstance(t, str) for t in tokens):
            raise ValueError("the answer's tokens are not all strings")
        if not all(isinstance(o, int) and not isinstance(o, bool) for o in offsets):
            raise ValueError("the answer's text offsets are not all integers")
        if not all(v is None or _is_number(v) for v in logprobs):
            raise ValueError("the answer's token log-probs are not all numbers")
        if any(b < a for a, b in itertools.pairwise(offsets)):
            raise ValueError("the answer's text offsets decrease")
        top = block.get("top_logprobs")
        if not isinstance(top, list) or len(top) != len(tokens) or not all(map(_is_top, top)):
            top = None
        return cls(tokens=tokens, offsets=offsets, logprobs=logprobs, top=top)


@dataclass(frozen=True)
class ContinuationScore:
    logprob: float
    is_greedy: bool | None
    token_logprobs: list[float]


def continuation_indices(echo: EchoedTokens, prompt_len: int, boundary: int) -> list[int]:
    """Positions of the echoed prompt tokens that cover characters [boundary, prompt_len).

    Tokens at offsets >= `prompt_len` were generated, not echoed, and are ignored.
    """
    if not echo.offsets or echo.offsets[0] != 0:
        raise ValueError("the server did not echo the prompt")
    n_prompt = sum(1 for offset in echo.offsets if offset < prompt_len)
    ends = [*echo.offsets[1:n_prompt], prompt_len]
    chosen = [i for i in range(n_prompt) if ends[i] > boundary or echo.offsets[i] >= boundary]
    if not chosen:
        raise ValueError("no echoed token covers the continuation")
    return chosen


def _is_best(echo: EchoedTokens, index: int) -> bool | None:
    value = echo.logprobs[index]
    entry = echo.top[index] if echo.top is not None else None
    if value is None or not entry:
        return None
    return value >= max(entry.values()) - GREEDY_TOLERANCE


def score_continuation(echo: EchoedTokens, prompt_len: int, boundary: int) -> ContinuationScore:
    """Sum of the continuation's token log-probs, and whether each token was the argmax."""
    indices = continuation_indices(echo, prompt_len, boundary)
    values = [echo.logprobs[i] for i in indices]
    if any(v is None for v in values):
        raise ValueError(
            "the server gives no log-prob for the first prompt token, so a continuation with "
            "an empty context cannot be scored"
        )
    picked = [float(v) for v in values if v is not None]
    best = [_is_best(echo, i) for i in indices]
    greedy = None if any(b is None for b in best) else all(best)
    return ContinuationScore(logprob=sum(picked), is_greedy=greedy, token_logprobs=picked)


def judge_probe(
    greedy_token: str, greedy_logprob: float, echo: EchoedTokens, prompt: str, boundary: int
) -> str | None:
    """None when the echo of ``prompt`` (probe text + its greedy token) is trustworthy.

    `greedy_token` and `greedy_logprob` come from generating one token greedily after
    ``prompt[:boundary]``; a server with correct prompt log-probs echoes that token at
    `boundary` with the same log-prob, as the most likely token of its position. Otherwise
    the reason is returned.
    """
    try:
        indices = continuation_indices(echo, len(prompt), boundary)
    except ValueError as exc:
        return str(exc)
    index = indices[0]
    if len(indices) != 1 or echo.offsets[index] != boundary or echo.tokens[index] != greedy_token:
        return (
            f"inconclusive: the echo splits the probe's greedy token {greedy_token!r} "
            "differently from the generation"
        )
    echoed = echo.logprobs[index]
    if echoed is None:
        return "the echoed prompt tokens carry no log-probs"
    if abs(echoed - greedy_logprob) > PROBE_TOLERANCE:
        return (
            f"prompt log-probs are misaligned: the greedy token {greedy_token!r} has log-prob "
            f"{greedy_logprob:.3f} when generated but {echoed:.3f} when echoed"
        )
    if _is_best(echo, index) is False:
        return (
            f"prompt log-probs are misaligned: the greedy token {greedy_token!r} is not the "
            "most likely token of its position when echoed"
        )
    return None
