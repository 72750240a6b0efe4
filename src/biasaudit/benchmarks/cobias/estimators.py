"""How τ (Eq. 1) is estimated from a backend's responses.

- ``pll``: masked-LM pseudo-log-likelihood (the paper): one `PseudoLoglikelihoodRequest` per
  text; τ = |mean log P(unit | rest)| over the masked units (tokens, or whitespace words with
  all their sub-tokens masked at once).
- ``causal``: for causal LMs (and GGUF models) one `LoglikelihoodRequest` with an empty context
  (conditioned on BOS only); τ = |sum log P / number of units|, where the units are the
  continuation's tokens (``granularity=token``) or its whitespace words (``word``). This is a
  left-to-right estimate, not the paper's PLL: absolute τ, and so cv, are on another scale.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from biasaudit.benchmarks.cobias import metrics
from biasaudit.requests import (
    Capability,
    LoglikelihoodRequest,
    PseudoLoglikelihoodRequest,
    Request,
    Response,
)

Estimator = Literal["pll", "causal"]
Granularity = Literal["token", "word"]

CAPABILITY: dict[Estimator, Capability] = {
    "pll": Capability.PSEUDO_LOGLIKELIHOOD,
    "causal": Capability.LOGLIKELIHOOD,
}


def choose_estimator(capabilities: frozenset[Capability]) -> Estimator:
    """``auto``: the paper's PLL when the backend serves it, else causal log-likelihood."""
    if Capability.PSEUDO_LOGLIKELIHOOD in capabilities:
        return "pll"
    return "causal"


@dataclass(frozen=True)
class TauSettings:
    estimator: Estimator
    granularity: Granularity = "token"
    lowercase: bool = False
    add_special_tokens: bool = True

    def request(self, text: str) -> Request:
        if self.estimator == "pll":
            return PseudoLoglikelihoodRequest(
                text=text,
                granularity=self.granularity,
                lowercase=self.lowercase,
                add_special_tokens=self.add_special_tokens,
            )
        return LoglikelihoodRequest(
            context="", continuation=text.lower() if self.lowercase else text
        )

    def tau(self, request: Request, response: Response) -> float:
        """τ of one answered request; ValueError with the reason when it is undefined."""
        if not response.ok:
            raise ValueError(f"backend error: {response.error}")
        if response.logprob is None:
            raise ValueError("response carries no log-probability")
        if self.estimator == "pll":
            # One log-probability per masked unit when the backend reports them.
            if response.token_logprobs is not None:
                units = len(response.token_logprobs)
                return metrics.tau(float(sum(response.token_logprobs)), units)
            return metrics.tau(response.logprob, response.n_tokens or 0)
        if self.granularity == "word":
            assert isinstance(request, LoglikelihoodRequest)
            return metrics.tau(response.logprob, len(request.continuation.split()))
        return metrics.tau(response.logprob, response.n_tokens or 0)
