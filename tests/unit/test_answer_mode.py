"""`-O answer_mode=constrained` in each benchmark with a closed answer set: the requests carry
the closed set (and hash apart from the free ones), free mode sends none, and every allowed
answer, given back as the reply, is read by the benchmark's own parse entry point as the
answer it names (expected values by hand from the prompts' option order)."""

from __future__ import annotations

from typing import Any

import pytest

from biasaudit.benchmarks import Benchmark, Sample
from biasaudit.benchmarks.bbnli.benchmark import BBNLI
from biasaudit.benchmarks.bbq.benchmark import BBQ
from biasaudit.benchmarks.calm.benchmark import CALM
from biasaudit.benchmarks.stop.benchmark import STOP
from biasaudit.benchmarks.stop.parse import parse_text
from biasaudit.benchmarks.stop_downstream.benchmark import StopDownstream
from biasaudit.data import DataStore
from biasaudit.requests import Capability, GenerateRequest, Response, request_key
from biasaudit.results.schema import Exchange


def _requests(bench: Benchmark, sample: Sample) -> list[GenerateRequest]:
    requests = bench.next_requests(sample, [])
    assert requests and all(isinstance(r, GenerateRequest) for r in requests)
    return requests  # type: ignore[return-value]


def _reply(request: GenerateRequest, text: str) -> Exchange:
    return Exchange(request=request, response=Response(kind=Capability.GENERATE, text=text))


def _both(cls: type[Benchmark], store: DataStore, **options: Any) -> tuple[Benchmark, Benchmark]:
    free = cls.from_dict({**options, "answer_mode": "free"}, store)
    constrained = cls.from_dict({**options, "answer_mode": "constrained"}, store)
    return free, constrained


def _check_hashes(free: Benchmark, constrained: Benchmark, sample: Sample) -> None:
    for a, b in zip(_requests(free, sample), _requests(constrained, sample), strict=True):
        assert a.choices is None and b.choices is not None
        assert request_key(a) != request_key(b)
        assert a.messages == b.messages and a.prompt == b.prompt and a.params == b.params


def test_bbnli_yes_no(store: DataStore) -> None:
    free, constrained = _both(BBNLI, store, protocol="generative", every=500)
    sample = next(s for s in constrained.load_samples() if s.data["stance"] is not None)
    _check_hashes(free, constrained, sample)
    requests = _requests(constrained, sample)
    assert all(r.choices == ("Yes", "No") for r in requests)
    # "Yes" asserts the stereotype generalisation: a biased answer; "No": neutral
    yes = constrained.score_sample(sample, [_reply(r, "Yes") for r in requests])
    no = constrained.score_sample(sample, [_reply(r, "No") for r in requests])
    assert yes.outcomes == no.outcomes == ["answered"]
    assert (yes.scores["answer"], yes.scores["biased_answer"]) == ("yes", 1.0)
    assert (no.scores["answer"], no.scores["accuracy"]) == ("no", 1.0)


@pytest.mark.parametrize("protocol", ["letter", "free_text"])
def test_bbq_letters_or_option_texts(store: DataStore, protocol: str) -> None:
    options = {"protocol": protocol, "categories": ["Sexual_orientation"]}
    free, constrained = _both(BBQ, store, **options)
    sample = constrained.load_samples()[0]
    _check_hashes(free, constrained, sample)
    (request,) = _requests(constrained, sample)
    answers = sample.data["answers"]
    expected = ("A", "B", "C") if protocol == "letter" else tuple(answers)
    assert request.choices == expected
    for index, choice in enumerate(expected):  # the k-th choice names option k
        scored = constrained.score_sample(sample, [_reply(request, choice)])
        assert scored.scores["chosen"] == index
        assert scored.outcomes == ["unknown" if index == sample.data["unknown_loc"] else "answered"]


def test_stop_downstream_option_letters(store: DataStore) -> None:
    free, constrained = _both(StopDownstream, store, tasks=["crows_pairs"], per_task=2)
    sample = constrained.load_samples()[0]
    _check_hashes(free, constrained, sample)
    (request,) = _requests(constrained, sample)
    assert request.choices == ("A", "B")  # the prompt lists two sentences
    for index, letter in enumerate(("A", "B")):
        scored = constrained.score_sample(sample, [_reply(request, letter)])
        assert scored.outcomes == ["answered"]
        assert scored.scores["choice"] == sample.data["labels"][index]


def test_stop_every_turn_is_yes_or_no(store: DataStore) -> None:
    free, constrained = _both(STOP, store)
    sample = constrained.load_samples()[0]
    _check_hashes(free, constrained, sample)
    (request,) = _requests(constrained, sample)
    assert request.choices == ("Yes", "No")
    assert [parse_text(c) for c in request.choices] == ["yes", "no"]
    # the next turn's request is constrained too
    (second,) = constrained.next_requests(sample, [_reply(request, "Yes")])
    assert isinstance(second, GenerateRequest) and second.choices == ("Yes", "No")


def test_calm_label_words_and_free_form_qa(store: DataStore) -> None:
    options = {"template_ids": ["nli:12", "qa:20"], "name_limit": 1, "shots": 0}
    free, constrained = _both(CALM, store, **options)
    samples = constrained.load_samples()
    nli = next(s for s in samples if s.data["kind"].startswith("nli"))
    _check_hashes(free, constrained, nli)
    (request,) = _requests(constrained, nli)
    assert request.choices == tuple(nli.data["choices"])
    gold = {"nli3": ("True", "False", "Neither"), "nli2": ("True", "False")}[nli.data["kind"]]
    assert request.choices == gold
    for choice in request.choices:
        scored = constrained.score_sample(nli, [_reply(request, choice)])
        assert scored.outcomes == ["answered"] and scored.scores["prediction"] is not None
    qa = [s for s in samples if not s.data["choices"]]
    for sample in qa:  # free-form QA has no closed set: it stays free
        assert all(r.choices is None for r in _requests(constrained, sample))
