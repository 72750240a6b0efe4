"""A model with no preferences, installed as a third-party biasaudit backend.

``--model uniform`` (or ``uniform:V`` for a vocabulary of V characters, default 64) gives
every character of a continuation the probability 1/V: a continuation's log-likelihood is
``-len(continuation) * log(V)``, so two options of the same length always tie and a longer
option is always less likely. It is the null model of the log-likelihood benchmarks: any
"bias" it shows comes from the lengths of the options, not from a model. It serves
log-likelihood requests only.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, ClassVar

from biasaudit.errors import BackendError
from biasaudit.models.base import Backend
from biasaudit.requests import Capability, LoglikelihoodRequest, Response

__all__ = ["UniformBackend"]


class UniformBackend(Backend):
    """Every character equally likely (1/V): the null model of log-likelihood benchmarks."""

    name: ClassVar[str] = "uniform"
    possible_capabilities: ClassVar[frozenset[Capability]] = frozenset({Capability.LOGLIKELIHOOD})

    def __init__(self, vocabulary: int = 64) -> None:
        self.vocabulary = vocabulary
        self.capabilities = self.possible_capabilities

    @classmethod
    def check_spec(cls, target: str, args: dict[str, Any]) -> None:
        if target and not (target.isdigit() and int(target) >= 2):
            raise BackendError(f"uniform:{target}: the vocabulary must be a whole number >= 2")

    @classmethod
    def from_spec(cls, target: str, args: dict[str, Any]) -> UniformBackend:
        cls.check_spec(target, args)
        return cls(int(target) if target else 64)

    def identity(self) -> dict[str, Any]:
        return {"backend": self.name, "vocabulary": self.vocabulary}

    def loglikelihood(self, requests: Sequence[LoglikelihoodRequest]) -> list[Response]:
        per_char = -math.log(self.vocabulary)
        return [
            Response(
                kind=Capability.LOGLIKELIHOOD,
                logprob=per_char * len(r.continuation),
                n_tokens=max(1, len(r.continuation)),
                is_greedy=False,
            )
            for r in requests
        ]
