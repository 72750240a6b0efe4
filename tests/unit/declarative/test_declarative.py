"""The declarative multiple-choice layer on hand-made items and responses (no data, no model):
choice per normalisation, ties, failures and the template, against hand computation."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from pathlib import Path

import pytest

from biasaudit.benchmarks import Sample
from biasaudit.declarative import Item, MultipleChoiceBenchmark, MultipleChoiceTask
from biasaudit.discovery import open_store
from biasaudit.errors import BiasauditError
from biasaudit.requests import Capability, Response
from biasaudit.results.schema import Exchange


def _read(paths: Mapping[str, Path]) -> Iterator[Item]:
    yield Item("a", {"q": "Who?"}, ["x", "yyyy"], gold=1, stereotyped=0, groups={"g": "1"})
    yield Item("b", {"other": "?"}, ["x", "y"], gold=0, groups={"g": "2"})


class Tiny(MultipleChoiceBenchmark):
    name, version = "tiny_mc", "1"
    task = MultipleChoiceTask(data_keys=[], read=_read, template="Q: {q}\nA:", group_by=["g"])


def _sample_a(bench: Tiny) -> Sample:
    return next(s for s in bench.load_samples() if s.id == "a")


def _exchanges(bench: Tiny, logprobs: list[float | None], n_tokens: int = 2) -> list[Exchange]:
    sample = _sample_a(bench)
    out = []
    for request, logprob in zip(bench.next_requests(sample, []), logprobs, strict=True):
        response = (
            Response(kind=Capability.LOGLIKELIHOOD, logprob=logprob, n_tokens=n_tokens)
            if logprob is not None
            else Response(kind=Capability.LOGLIKELIHOOD, error="boom")
        )
        out.append(Exchange(request=request, response=response))
    return out


def _bench(**options: object) -> Tiny:
    bench = Tiny.from_dict({"where": {"g": ["1"]}, **options}, open_store(use_mirror=False))
    assert isinstance(bench, Tiny)
    return bench


@pytest.mark.parametrize(
    ("normalisation", "chosen"),
    # continuations " x" (2 characters) and " yyyy" (5): log-likelihoods -3 and -5
    # sum: -3 > -5 -> 0;  per_char: -3/2 = -1.5 < -5/5 = -1.0 -> 1;  per_token (2 each): 0
    [("sum", 0), ("per_char", 1), ("per_token", 0)],
)
def test_choice_per_normalisation(normalisation: str, chosen: int) -> None:
    bench = _bench(normalisation=normalisation)
    sample = _sample_a(bench)
    assert sample.data["context"] == "Q: Who?\nA:"
    assert sample.data["options"] == [" x", " yyyy"]
    score = bench.score_sample(sample, _exchanges(bench, [-3.0, -5.0]))
    assert score.scores["chosen"] == chosen
    assert score.scores["correct"] == float(chosen == 1)
    assert score.scores["stereotyped"] == float(chosen == 0)


def test_a_tie_is_no_choice_and_a_failure_is_an_error() -> None:
    bench = _bench(normalisation="sum")
    sample = _sample_a(bench)
    tie = bench.score_sample(sample, _exchanges(bench, [-2.0, -2.0]))
    assert (tie.outcomes, tie.excluded, tie.exclusion_reason) == (["unparsed"], True, "options tie")
    failed = bench.score_sample(sample, _exchanges(bench, [-2.0, None]))
    assert failed.outcomes == ["error"] and failed.excluded
    assert failed.exclusion_reason == "request failed: boom"


def test_a_template_field_the_item_lacks_is_one_line() -> None:
    bench = Tiny.from_dict({}, open_store(use_mirror=False))
    with pytest.raises(BiasauditError, match=r"item b: the template needs 'q' \(fields: other\)"):
        bench.load_samples()
