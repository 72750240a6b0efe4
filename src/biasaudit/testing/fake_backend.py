"""A deterministic backend for the benchmark conformance checks (inspect_ai's mockllm role).

It supports every request kind and answers from a hash of the request, so two runs give the
same outputs and different requests get different ones. ``fake:error`` fails every request,
to check that benchmarks turn failures into `error` outcomes and exclusions. It exercises a
benchmark's contract (requests, scoring, aggregation), never a model's behaviour.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Any, ClassVar

from biasaudit.models.base import Backend
from biasaudit.requests import (
    Capability,
    ClassifyRequest,
    EmbedRequest,
    FillMaskRequest,
    GenerateRequest,
    LoglikelihoodRequest,
    PseudoLoglikelihoodRequest,
    Response,
    request_key,
)

#: Replies a chat model gives: answers, options, refusals and noise.
REPLIES = ("No.", "Yes.", "A", "B", "C", "entailment", "I cannot answer that.", "Hmm")


def _unit(request: Any, salt: str = "") -> float:
    digest = hashlib.sha256((request_key(request) + salt).encode()).digest()
    return int.from_bytes(digest[:8], "big") / 2**64


class FakeBackend(Backend):
    name = "fake"
    possible_capabilities: ClassVar[frozenset[Capability]] = frozenset(Capability)

    def __init__(self, fail: bool = False, salt: str = "") -> None:
        self.fail = fail
        #: Mixed into every request's hash: another salt gives another set of outputs.
        self.salt = salt
        self.capabilities = frozenset(Capability)

    @classmethod
    def from_spec(cls, target: str, args: dict[str, Any]) -> FakeBackend:
        return cls(fail=target == "error")

    def identity(self) -> dict[str, Any]:
        return {"fake": True, "fail": self.fail}

    def _error(self, kind: Capability, n: int) -> list[Response] | None:
        if self.fail:
            return [Response(kind=kind, error="injected failure") for _ in range(n)]
        return None

    def loglikelihood(self, requests: Sequence[LoglikelihoodRequest]) -> list[Response]:
        failed = self._error(Capability.LOGLIKELIHOOD, len(requests))
        return failed or [
            Response(
                kind=Capability.LOGLIKELIHOOD,
                logprob=-10 * _unit(r, self.salt),
                is_greedy=_unit(r, self.salt + "g") < 0.5,
                n_tokens=max(1, len(r.continuation.split())),
            )
            for r in requests
        ]

    def pseudo_loglikelihood(
        self, requests: Sequence[PseudoLoglikelihoodRequest]
    ) -> list[Response]:
        failed = self._error(Capability.PSEUDO_LOGLIKELIHOOD, len(requests))
        return failed or [
            Response(
                kind=Capability.PSEUDO_LOGLIKELIHOOD,
                logprob=-10 * _unit(r, self.salt),
                n_tokens=max(1, len(r.text.split())),
                token_logprobs=[
                    -_unit(r, self.salt + str(i)) for i in range(max(1, len(r.text.split())))
                ],
            )
            for r in requests
        ]

    def generate(self, requests: Sequence[GenerateRequest]) -> list[Response]:
        failed = self._error(Capability.GENERATE, len(requests))
        return failed or [
            Response(
                kind=Capability.GENERATE,
                text=REPLIES[int(_unit(r, self.salt) * len(REPLIES))],
                finish_reason="stop",
            )
            for r in requests
        ]

    def classify(self, requests: Sequence[ClassifyRequest]) -> list[Response]:
        failed = self._error(Capability.CLASSIFY, len(requests))
        if failed:
            return failed
        out = []
        for r in requests:
            p = _unit(r, self.salt)
            out.append(
                Response(
                    kind=Capability.CLASSIFY,
                    label_probs={"entailment": p / 2, "neutral": 0.5, "contradiction": 0.5 - p / 2},
                )
            )
        return out

    def embed(self, requests: Sequence[EmbedRequest]) -> list[Response]:
        failed = self._error(Capability.EMBED, len(requests))
        return failed or [
            Response(
                kind=Capability.EMBED, embedding=[_unit(r, self.salt + str(i)) for i in range(8)]
            )
            for r in requests
        ]

    def fill_mask(self, requests: Sequence[FillMaskRequest]) -> list[Response]:
        failed = self._error(Capability.FILL_MASK, len(requests))
        if failed:
            return failed
        words = ("good", "bad", "kind", "smart", "tall")
        return [
            Response(
                kind=Capability.FILL_MASK,
                candidates=[(w, 0.5 / (k + 1)) for k, w in enumerate(words[: r.top_k])],
            )
            for r in requests
        ]
