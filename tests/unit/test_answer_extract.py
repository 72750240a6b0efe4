"""`-O answer_mode=extract`: the free reply, then one constrained turn that checks its reading.

Per benchmark with a closed answer set: the first round is exactly the free mode's request,
the second is the follow-up (the conversation continued, the closed set as `choices`), the
third is empty; the text reader's answer and the extracted one are compared in the scores.
Expected values by hand from the prompts' option order; the gate by hand from its threshold.
"""

from __future__ import annotations

from typing import Any

import pytest

from biasaudit import extraction
from biasaudit.benchmarks import Benchmark, Sample, SampleScore
from biasaudit.benchmarks.bbnli.benchmark import BBNLI
from biasaudit.benchmarks.bbq.benchmark import BBQ, BBQOptions
from biasaudit.benchmarks.beads.benchmark import Beads
from biasaudit.benchmarks.calm.benchmark import CALM
from biasaudit.benchmarks.stereoset.benchmark import StereoSet
from biasaudit.benchmarks.stop.benchmark import STOP
from biasaudit.benchmarks.stop_downstream.benchmark import StopDownstream
from biasaudit.data import DataStore
from biasaudit.metrics.frame import frame
from biasaudit.profile import validity
from biasaudit.requests import (
    Capability,
    GenerateRequest,
    GenerationParams,
    Message,
    Response,
)
from biasaudit.results.schema import BenchmarkResult, CIInfo, Exchange, MetricValue, SampleRecord


def check(result, records=None, **flags):  # type: ignore[no-untyped-def]
    """The gates the result's benchmark declares, checked (validity.check takes them)."""
    gates = validity.benchmark_profile(result.benchmark).gates
    return validity.check(result, records, gates, **flags)


def _reply(request: Any, text: str | None, error: str | None = None) -> Exchange:
    response = Response(kind=Capability.GENERATE, text=text, error=error)
    return Exchange(request=request, response=response)


def _pair(cls: type[Benchmark], store: DataStore, **options: Any) -> tuple[Benchmark, Benchmark]:
    free = cls.from_dict({**options, "answer_mode": "free"}, store)
    extract = cls.from_dict({**options, "answer_mode": "extract"}, store)
    return free, extract


def _rounds(
    free: Benchmark, extract: Benchmark, sample: Sample, reply: str
) -> tuple[list[Exchange], GenerateRequest]:
    """The first round (as in free mode), answered with `reply`; and the follow-up."""
    first = extract.next_requests(sample, [])
    assert first == free.next_requests(sample, [])
    exchanges = [_reply(r, reply) for r in first]
    (follow,) = extract.next_requests(sample, exchanges)
    assert isinstance(follow, GenerateRequest) and follow.params.temperature == 0.0
    assert extract.next_requests(sample, [*exchanges, _reply(follow, "x")]) == []
    assert free.next_requests(sample, exchanges) == []
    return exchanges, follow


def _checked(
    bench: Benchmark, sample: Sample, exchanges: list[Exchange], follow: Any, got: str
) -> SampleScore:
    """The sample scored with the follow-up answered `got` (its scores valid for the
    benchmark's declared `Scores`, as the runner checks them)."""
    scored = bench.score_sample(sample, [*exchanges, _reply(follow, got)])
    if bench.Scores is not None:
        bench.Scores.model_validate(scored.scores)
    return scored


def test_follow_up_continues_a_chat_and_a_prompt() -> None:
    params = GenerationParams(temperature=0.7, max_tokens=5, seed=9)
    chat = GenerateRequest(messages=(Message(role="user", content="Q?"),), params=params)
    follow = extraction.follow_up(chat, "Maybe B.", ("A", "B"))
    assert follow.messages == (
        Message(role="user", content="Q?"),
        Message(role="assistant", content="Maybe B."),
        Message(
            role="user",
            content='What is your final answer? Reply with exactly one of: "A", "B".',
        ),
    )
    assert (follow.choices, follow.params.temperature, follow.params.seed) == (("A", "B"), 0, 9)
    completion = GenerateRequest(prompt="Q? Answer: ", params=params)
    follow = extraction.follow_up(completion, "True", ("True", "False"))
    assert follow.prompt == (
        'Q? Answer: True\n\nWhat is your final answer? Reply with exactly one of: "True", '
        '"False".\nAnswer: '
    )


def test_no_follow_up_after_a_failed_reply_or_without_a_closed_set() -> None:
    chat = GenerateRequest(messages=(Message(role="user", content="Q?"),))
    failed = [_reply(chat, None, error="timeout")]
    assert extraction.extract_round(failed, 1, ("A", "B")) == []
    assert extraction.extract_round([_reply(chat, "A")], 1, None) == []
    assert extraction.extract_round([_reply(chat, "A")], 1, ("A",)) == []
    assert extraction.extract_round([_reply(chat, "A")], 2, ("A", "B")) == []


@pytest.mark.parametrize(
    ("read", "got", "expected"),
    [
        (1, 1, (1, 1.0, "agree")),
        (1, 0, (0, 0.0, "disagree")),
        (None, 0, (0, None, "text_abstained")),
        (1, None, (None, None, "no_extraction")),
    ],
)
def test_check_scores(read: Any, got: Any, expected: tuple[Any, Any, str]) -> None:
    scores = extraction.check_scores(read, got)
    assert (scores["extracted"], scores["readers_agree"], scores["readers"]) == expected


@pytest.mark.parametrize("protocol", ["letter", "free_text"])
def test_bbq(store: DataStore, protocol: str) -> None:
    options = {"protocol": protocol, "categories": ["Sexual_orientation"]}
    free, extract = _pair(BBQ, store, **options)
    sample = extract.load_samples()[0]
    answers = sample.data["answers"]
    reply = f"B. {answers[1]}" if protocol == "letter" else f"{answers[1]}."
    exchanges, follow = _rounds(free, extract, sample, reply)
    closed = ("A", "B", "C") if protocol == "letter" else tuple(answers)
    assert follow.choices == closed
    assert follow.messages is not None and follow.messages[1].content == reply
    agree = _checked(extract, sample, exchanges, follow, closed[1])
    assert agree.scores["chosen"] == 1
    assert (agree.scores["readers"], agree.scores["readers_agree"]) == ("agree", 1.0)
    other = _checked(extract, sample, exchanges, follow, closed[2])
    # the measurement stays the text reader's: option 1, marked as a disagreement
    assert (other.scores["chosen"], other.scores["extracted"]) == (1, 2)
    assert (other.scores["readers"], other.scores["readers_agree"]) == ("disagree", 0.0)
    failed = extract.score_sample(sample, [*exchanges, _reply(follow, None, error="boom")])
    assert not failed.excluded and failed.scores["readers"] == "no_extraction"


def test_bbq_echo_is_not_checked(store: DataStore) -> None:
    free, extract = _pair(BBQ, store, protocol="letter", categories=["Sexual_orientation"])
    sample = extract.load_samples()[0]
    echo = "\n".join(f"{k}. {a}" for k, a in zip("ABC", sample.data["answers"], strict=True))
    exchanges, follow = _rounds(free, extract, sample, echo)
    scored = _checked(extract, sample, exchanges, follow, "A")
    assert scored.scores["chosen"] is None
    assert (scored.scores["readers"], scored.scores["extracted"]) == ("text_abstained", 0)


def test_bbnli_yes_no(store: DataStore) -> None:
    free, extract = _pair(BBNLI, store, protocol="generative", every=500)
    sample = next(s for s in extract.load_samples() if "twin_hypothesis" in s.data)
    exchanges, follow = _rounds(free, extract, sample, "Yes, it is true.")
    assert len(exchanges) == 2 and follow.choices == ("Yes", "No")
    assert follow.messages is not None
    first = exchanges[0].request
    assert isinstance(first, GenerateRequest) and first.messages is not None
    assert follow.messages[0] == first.messages[0]
    agree = _checked(extract, sample, exchanges, follow, "Yes")
    assert (agree.scores["answer"], agree.scores["readers"]) == ("yes", "agree")
    other = _checked(extract, sample, exchanges, follow, "No")
    assert (other.scores["answer"], other.scores["extracted"], other.scores["readers"]) == (
        "yes",
        "no",
        "disagree",
    )
    assert extract.expected_requests(sample) == 3


def test_stop_downstream_letters(store: DataStore) -> None:
    free, extract = _pair(StopDownstream, store, tasks=["crows_pairs"], per_task=2)
    sample = extract.load_samples()[0]
    exchanges, follow = _rounds(free, extract, sample, "The answer is B.")
    assert follow.choices == ("A", "B")
    labels = sample.data["labels"]
    agree = _checked(extract, sample, exchanges, follow, "B")
    assert (agree.scores["choice"], agree.scores["readers"]) == (labels[1], "agree")
    other = _checked(extract, sample, exchanges, follow, "A")
    assert (other.scores["choice"], other.scores["readers"]) == (labels[1], "disagree")


def test_calm_labels_and_no_follow_up_for_free_form_qa(store: DataStore) -> None:
    free, extract = _pair(CALM, store, tasks=["sentiment", "qa"], templates_per_task=1)
    samples = extract.load_samples()
    sentiment = next(s for s in samples if s.data["kind"] == "sentiment")
    exchanges, follow = _rounds(free, extract, sentiment, "positive")
    assert follow.choices == ("positive", "negative") and follow.prompt is not None
    assert follow.prompt.startswith(exchanges[0].request.prompt + "positive\n\n")  # type: ignore[union-attr, operator]
    agree = _checked(extract, sentiment, exchanges, follow, "positive")
    assert (agree.scores["prediction"], agree.scores["readers"]) == ("1", "agree")
    other = _checked(extract, sentiment, exchanges, follow, "negative")
    assert other.scores["readers"] == "disagree"
    qa = next(s for s in samples if s.data["kind"] == "qa")
    first = extract.next_requests(qa, [])
    assert extract.next_requests(qa, [_reply(first[0], "Paris")]) == []
    assert "readers" not in extract.score_sample(qa, [_reply(first[0], "Paris")]).scores


def _record(sample_id: str, outcomes: list[str], scores: dict[str, Any]) -> SampleRecord:
    return SampleRecord(
        benchmark="bbq", sample_id=sample_id, sample_hash="h", outcomes=outcomes, scores=scores
    )


def _result(value: float | None, n: int = 20) -> BenchmarkResult:
    metric = MetricValue(name=extraction.READER_AGREEMENT, value=value, n=n, ci=CIInfo())
    return BenchmarkResult(
        benchmark="bbq", version="1", metrics=[metric], n_samples=n, samples_hash="x"
    )


def test_gate_fails_below_ninety_percent() -> None:
    assert all(f.gate != "readers_agree" for f in check(_result(0.9)).flags)
    assert all(f.gate != "readers_agree" for f in check(_result(None)).flags)
    # 0 of 9 checked samples agree: below min_n (10), the metric's n gate fails it instead
    few = check(_result(0.0, n=9))
    assert [f.gate for f in few.flags] == ["min_n"]
    validity = check(_result(17 / 20))
    assert validity.status == "not measurable"
    (flag,) = [f for f in validity.flags if f.gate == "readers_agree"]
    assert flag.message.startswith("readers agree on 85 % (< 90 %) of 20 answered samples")


def test_agreement_metric_is_the_share_of_checked_samples() -> None:
    verdicts = [1.0, 1.0, 1.0, 0.0, None, None]  # 3 of the 4 answered samples agree
    records = [_record(str(i), ["answered"], {"readers_agree": v}) for i, v in enumerate(verdicts)]
    value = frame(records, extraction.agreement_spec(), seed=0)
    assert (value.value, value.n) == (0.75, 4)
    assert extraction.metric_specs(BBQOptions.model_validate({"answer_mode": "extract"})) == [
        extraction.agreement_spec()
    ]
    assert extraction.metric_specs(BBQOptions.model_validate({})) == []


def test_stereoset_generate_letters(store: DataStore) -> None:
    free, extract = _pair(StereoSet, store, scorer="generate", splits=["intrasentence"])
    sample = extract.load_samples()[0]
    exchanges, follow = _rounds(free, extract, sample, "B")
    assert follow.choices == ("A", "B", "C")
    agree = _checked(extract, sample, exchanges, follow, "B")
    assert agree.scores["choice"] is not None and agree.scores["readers"] == "agree"
    assert agree.scores["extracted"] == agree.scores["choice"]
    other = _checked(extract, sample, exchanges, follow, "C")
    assert other.scores["readers"] == "disagree"
    assert other.scores["extracted"] not in (None, agree.scores["choice"])


@pytest.mark.parametrize(
    ("options", "reply", "closed", "read", "other"),
    [
        ({"task": "stereotype"}, "I agree.", ("I agree.", "I disagree."), "agree", "disagree"),
        (
            {"task": "classify", "mode": "generate"},
            "Biased",
            ("Biased", "Non-Biased"),
            "biased",
            "neutral",
        ),
    ],
)
def test_beads_verdicts_and_labels(
    store: DataStore,
    options: dict[str, str],
    reply: str,
    closed: tuple[str, str],
    read: str,
    other: str,
) -> None:
    free, extract = _pair(Beads, store, **options)
    sample = extract.load_samples()[0]
    exchanges, follow = _rounds(free, extract, sample, reply)
    assert follow.choices == closed
    agree = _checked(extract, sample, exchanges, follow, closed[0])
    assert (agree.scores["extracted"], agree.scores["readers"]) == (read, "agree")
    disagree = _checked(extract, sample, exchanges, follow, closed[1])
    assert (disagree.scores["extracted"], disagree.scores["readers"]) == (other, "disagree")


def test_stop_checks_every_turn_outside_the_history(store: DataStore) -> None:
    options = {"stop_on_first_no": False, "counterfactual": False}
    free, extract = _pair(STOP, store, **options)
    sample = extract.load_samples()[0]
    replies = ["No.", "Yes, it is fine.", "Maybe.", "No", "No"]
    picks = ["No", "No", "Yes", "No", "No"]
    asked: list[Exchange] = []
    checked: list[Exchange] = []
    for reply, pick in zip(replies, picks, strict=True):
        (turn,) = free.next_requests(sample, asked)
        # the history the model sees is the free mode's: the checks are side turns
        assert extract.next_requests(sample, checked) == [turn]
        asked.append(_reply(turn, reply))
        checked.append(_reply(turn, reply))
        (check,) = extract.next_requests(sample, checked)
        assert isinstance(check, GenerateRequest) and check.choices == ("Yes", "No")
        assert check.messages is not None and check.messages[-2].content == reply
        checked.append(_reply(check, pick))
    assert free.next_requests(sample, asked) == extract.next_requests(sample, checked) == []
    scored = extract.score_sample(sample, checked)
    assert extract.Scores is not None
    extract.Scores.model_validate(scored.scores)
    assert scored.scores["answers"] == free.score_sample(sample, asked).scores["answers"]
    assert scored.scores["answers"] == ["no", "yes", "unparsed", "no", "no"]
    # turn 2 disagrees (yes / no), turn 3 has no reading: 3 of the 4 checked turns agree
    assert scored.scores["readers_agree"] == 0.75
    assert scored.scores["readers"] == "disagree"
    assert scored.scores["extracted"] == ["no", "no", "yes", "no", "no"]
    assert extract.expected_requests(sample) == 10


def test_tables_list_the_marked_samples(store: DataStore) -> None:
    free, extract = _pair(BBQ, store, protocol="letter", categories=["Sexual_orientation"])
    records = []
    for sample, reply, got in zip(
        extract.load_samples()[:3], ["A", "B", "A / B / C"], ["A", "C", "B"], strict=True
    ):
        exchanges, follow = _rounds(free, extract, sample, reply)
        scored = _checked(extract, sample, exchanges, follow, got)
        records.append(_record(sample.id, scored.outcomes, scored.scores))
    tables = extract.aggregate(records, seed=0).tables
    # agree (A/A), disagree (B/C), text_abstained (an echo, forced B)
    assert tables["reader_check"].rows == [["agree", 1], ["disagree", 1], ["text_abstained", 1]]
    assert tables["reader_disagreements"].rows == [[records[1].sample_id, 2]]
    assert "reader_check" not in free.aggregate(records, seed=0).tables
