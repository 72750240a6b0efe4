"""Choosing an option by log-likelihood: the one primitive every such benchmark uses.

A benchmark that asks ``log P(option | prompt)`` for each of k options (BBQ's
``protocol=loglikelihood``, CALM's ``scoring=loglikelihood``, the declarative multiple-choice
tasks such as WinoBias) picks the option with the highest score, where the score is

- ``sum``: the summed log-probability of the continuation;
- ``per_token``: that divided by the backend's token count of the continuation;
- ``per_char``: that divided by the continuation's length in characters (lm-evaluation-harness's
  ``acc_norm``).

**Ties.** Two options with exactly the same best score are not a choice the model made, so
the default policy, ``abstain``, returns no option: the sample is excluded as ``unparsed``
with the reason ``options tie``, and counted in the outcome rates, never scored as if the
first option had been picked. ``first`` (the first of the tied options in the order given)
is lm-evaluation-harness's ``np.argmax``; a benchmark offers it only as the reproduction option
of code that breaks ties by order (BBQ: ``-O ties=first``, to match lm-eval's
``bbq_multiple_choice``). Exact ties are rare with real models (summed log-probabilities
of different texts) and common with degenerate ones (a model that gives every token the same
probability ties every pair of equally long options).

CrowS-Pairs and StereoSet do not choose an option: their metrics compare two or three scores
by the papers' rules (a tie counts as not preferring the stereotype), so they do not use this.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

Normalisation = Literal["sum", "per_token", "per_char"]
Ties = Literal["abstain", "first"]

#: The exclusion reason of a sample whose best options tie under ``abstain``.
TIE_REASON = "options tie"


def option_score(
    logprob: float | None, n_tokens: int | None, continuation: str, normalisation: Normalisation
) -> float | None:
    """One option's score; None when the log-probability, or the divisor the normalisation
    needs (a token count, a non-empty continuation), is missing."""
    if logprob is None:
        return None
    if normalisation == "sum":
        return float(logprob)
    divisor = n_tokens if normalisation == "per_token" else len(continuation)
    if not divisor:
        return None
    return float(logprob) / divisor


def likeliest(scores: Sequence[float], ties: Ties = "abstain") -> int | None:
    """The index of the highest score; under ``abstain`` None when two or more share it."""
    if not scores:
        raise ValueError("no options to choose from")
    best = max(scores)
    if ties == "abstain" and sum(1 for s in scores if s == best) > 1:
        return None
    return list(scores).index(best)
