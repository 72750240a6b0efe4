"""Calibration models of the bias profile's acceptance tests (issue 20, item 6).

Three deterministic backends, registered as ``calib:null``, ``calib:planted`` and
``calib:silent`` (seeded with ``-M seed=N``). None of them is a mock of a component under
test: they stand in for the *model* and drive the real run engine, benchmarks, scoring,
profile and FDR control.

- null: every log-likelihood and every reply is a seeded hash of the whole request, so an
  option's score has no systematic relation to any demographic term or to which option is
  the stereotype (every option reports one token, so per-token and raw sums agree).
- planted: the null model, except that on items about religion it prefers the stereotyped
  option: +20 nats on it (CrowS-Pairs' more-stereotyping sentence, StereoSet's stereotype,
  BBQ's biased answer, all known from the dataset's labels, not from any score), a yes to a
  pro-stereotype BBNLI hypothesis (no to an anti one), and "Yes" (appropriate) to every STOP
  turn of a conversation that names a religion (a religion term in the text: STOP's prompts
  name their group only in words).
- silent: replies nothing parseable ("Hmm."), never an answer.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from typing import Any, ClassVar

from biasaudit.benchmarks.base import Benchmark, Sample
from biasaudit.models.base import Backend
from biasaudit.requests import (
    Capability,
    GenerateRequest,
    LoglikelihoodRequest,
    Response,
    request_key,
)

RELIGION = re.compile(
    r"\b(muslims?|islam\w*|christian\w*|jews?|jewish|judaism|hindu\w*|buddhis\w*|catholic\w*|"
    r"mormons?|sikh\w*|atheis\w*|protestants?|church\w*|mosques?|synagogues?|religio\w*|"
    r"bible|quran|koran|torah|rabbi|priest|imam|hijab|turban|yarmulke|kippah|brahmin)\b",
    re.IGNORECASE,
)

#: plan name -> (request keys of stereotyped options, request key -> reply)
PLANS: dict[str, tuple[set[str], dict[str, str]]] = {}


def religious(text: str) -> bool:
    return RELIGION.search(text) is not None


def _unit(seed: int, key: str) -> float:
    digest = hashlib.sha256(f"{seed}\x00{key}".encode()).digest()
    return int.from_bytes(digest[:8], "big") / 2**64


def _text(request: GenerateRequest) -> str:
    if request.messages is not None:
        return "\n".join(m.content for m in request.messages)
    return request.prompt or ""


class CalibrationBackend(Backend):
    name = "calib"
    possible_capabilities: ClassVar[frozenset[Capability]] = frozenset(
        {Capability.LOGLIKELIHOOD, Capability.GENERATE}
    )

    def __init__(self, kind: str, seed: int, plan: str) -> None:
        self.kind, self.seed = kind, seed
        self.stereo, self.replies = PLANS.get(plan, (set(), {}))
        self.capabilities = self.possible_capabilities

    @classmethod
    def from_spec(cls, target: str, args: dict[str, Any]) -> CalibrationBackend:
        return cls(target, int(args.get("seed", 0)), str(args.get("plan", "")))

    def identity(self) -> dict[str, Any]:
        return {"calib": self.kind, "seed": self.seed}

    def loglikelihood(self, requests: Sequence[LoglikelihoodRequest]) -> list[Response]:
        out = []
        for r in requests:
            key = request_key(r)
            logprob = -10.0 * _unit(self.seed, key)
            if self.kind == "planted" and key in self.stereo:
                logprob += 20.0
            out.append(Response(kind=Capability.LOGLIKELIHOOD, logprob=logprob, n_tokens=1))
        return out

    def generate(self, requests: Sequence[GenerateRequest]) -> list[Response]:
        out = []
        for r in requests:
            key = request_key(r)
            if self.kind == "silent":
                text = "Hmm."
            elif self.kind == "planted" and key in self.replies:
                text = self.replies[key]
            elif self.kind == "planted" and religious(_text(r)):
                text = "Yes."
            else:
                text = "Yes." if _unit(self.seed, key) < 0.5 else "No."
            out.append(Response(kind=Capability.GENERATE, text=text, finish_reason="stop"))
        return out


def _bbq_biased(sample: Sample) -> int | None:
    """Index of BBQ's biased answer: ``target_loc``, which the authors' metadata script
    (ported in biasaudit.datasets.bbq_targets) already flips for non-negative questions."""
    target = sample.data["target_loc"]
    return None if target is None else int(target)


#: The dataset group that marks an item about religion, per benchmark.
RELIGION_GROUPS = {
    "crows_pairs": ("bias_type", "religion"),
    "stereoset": ("bias_type", "religion"),
    "bbq": ("category", "Religion"),
    "bbnli": ("domain", "religion"),
}


def plan_religion_bias(
    bench: Benchmark, samples: Sequence[Sample]
) -> tuple[set[str], dict[str, str]]:
    """The planted model's knowledge of which option is the stereotype, from dataset labels,
    for the items about religion (the dataset's own religion group: a race item that says
    "Saudi arabians are usually muslim" is about race, and planting a bias there would
    plant it on two axes)."""
    stereo: set[str] = set()
    replies: dict[str, str] = {}
    if bench.name not in RELIGION_GROUPS:  # STOP: the backend's religion-term rule
        return stereo, replies
    key, level = RELIGION_GROUPS[bench.name]
    for sample in samples:
        if sample.groups.get(key) != level:
            continue
        requests = bench.next_requests(sample, [])
        d = sample.data
        if bench.name == "bbnli":
            if d["stance"] is not None:
                replies[request_key(requests[0])] = "Yes." if d["stance"] == "pro" else "No."
            continue
        if bench.name == "crows_pairs":
            index = 0
            assert isinstance(requests[0], LoglikelihoodRequest)
            assert requests[0].continuation == d["sent_more"]
        elif bench.name == "stereoset":
            index = 0
            assert isinstance(requests[0], LoglikelihoodRequest)
            assert requests[0].continuation.strip() == d["stereotype"][1]
        else:
            found = _bbq_biased(sample)
            if found is None:
                continue
            index = found
        stereo.add(request_key(requests[index]))
    return stereo, replies
