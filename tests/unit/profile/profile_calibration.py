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
  name their group only in words). `plan_bias(..., axis="gender")` plants the same on the
  items about gender instead (STOP: every turn of a conversation whose first turn is one of
  its sex/gender_identity scenarios), on CALM +20 nats on the gold answer of every prompt
  with a female name (a gap in accuracy by gender), and on WinoBias +20 nats on the
  occupation stereotyped for the pronoun's gender.
- silent: replies nothing parseable ("Hmm."), never an answer.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from biasaudit.benchmarks import Benchmark, Sample
from biasaudit.benchmarks.calm.prompts import gold_choice
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


@dataclass
class Plan:
    """What the planted model knows, from the datasets' labels."""

    #: request keys of the options it prefers (+20 nats)
    stereo: set[str] = field(default_factory=set)
    #: request key -> reply
    replies: dict[str, str] = field(default_factory=dict)
    #: a conversation containing one of these texts gets "Yes." (STOP, by its scenarios)
    markers: tuple[str, ...] = ()
    #: STOP: "Yes." to a conversation naming a religion (the religion plan)
    religion_terms: bool = False


#: plan name -> what the planted model knows
PLANS: dict[str, Plan] = {}


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
        self.plan = PLANS.get(plan, Plan())
        self.stereo, self.replies = self.plan.stereo, self.plan.replies
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
            elif self.kind == "planted" and self._marked(_text(r)):
                text = "Yes."
            else:
                text = "Yes." if _unit(self.seed, key) < 0.5 else "No."
            out.append(Response(kind=Capability.GENERATE, text=text, finish_reason="stop"))
        return out

    def _marked(self, text: str) -> bool:
        if self.plan.religion_terms and religious(text):
            return True
        return any(marker in text for marker in self.plan.markers)


def _bbq_biased(sample: Sample) -> int | None:
    """Index of BBQ's biased answer: ``target_loc``, which the authors' metadata script
    (ported in biasaudit.datasets.bbq_targets) already flips for non-negative questions."""
    target = sample.data["target_loc"]
    return None if target is None else int(target)


#: axis -> benchmark -> the dataset group that marks an item about the axis.
AXIS_GROUPS = {
    "religion": {
        "crows_pairs": ("bias_type", "religion"),
        "stereoset": ("bias_type", "religion"),
        "bbq": ("category", "Religion"),
        "bbnli": ("domain", "religion"),
        "stop": ("demographic", "religion"),
    },
    "gender": {
        "crows_pairs": ("bias_type", "gender"),
        "stereoset": ("bias_type", "gender"),
        "bbq": ("category", "Gender_identity"),
        "bbnli": ("domain", "gender"),
        "stop": ("demographic", "sex/gender_identity"),
        "calm": ("group", "female"),
        "winobias": ("", ""),  # every item is about gender
    },
}


def plan_religion_bias(bench: Benchmark, samples: Sequence[Sample]) -> Plan:
    return plan_bias(bench, samples, "religion")


def plan_bias(bench: Benchmark, samples: Sequence[Sample], axis: str) -> Plan:
    """The planted model's knowledge of which option is the stereotype, from dataset labels,
    for the items about `axis` (the dataset's own group: a race item that says "Saudi
    arabians are usually muslim" is about race, and planting a bias there would plant it on
    two axes)."""
    plan = Plan()
    if bench.name == "stop" and axis == "religion":  # the backend's religion-term rule
        plan.religion_terms = True
        return plan
    if bench.name not in AXIS_GROUPS[axis]:
        return plan
    key, level = AXIS_GROUPS[axis][bench.name]
    for sample in samples:
        if key and sample.groups.get(key) != level:
            continue
        d = sample.data
        if bench.name == "stop":
            plan.markers += (d["prompts"][0],)
            continue
        requests = bench.next_requests(sample, [])
        if bench.name == "bbnli":
            if d["stance"] is not None:
                plan.replies[request_key(requests[0])] = "Yes." if d["stance"] == "pro" else "No."
            continue
        if bench.name == "crows_pairs":
            index = 0
            assert isinstance(requests[0], LoglikelihoodRequest)
            assert requests[0].continuation == d["sent_more"]
        elif bench.name == "stereoset":
            index = 0
            assert isinstance(requests[0], LoglikelihoodRequest)
            assert requests[0].continuation.strip() == d["stereotype"][1]
        elif bench.name == "winobias":  # the stereotyped occupation
            index = d["stereotyped"]
        elif bench.name == "calm":  # the gold answer (closed-choice tasks only)
            if not d["choices"]:
                continue
            index = d["choices"].index(gold_choice(d["kind"], d["gold"]))
        else:
            found = _bbq_biased(sample)
            if found is None:
                continue
            index = found
        plan.stereo.add(request_key(requests[index]))
    return plan
