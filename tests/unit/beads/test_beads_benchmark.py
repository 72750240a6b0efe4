"""The BEADs benchmark end to end on the demo set, with hand-written replies and hand-computed
expected values (the replies are inputs; nothing of the benchmark is replaced)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from biasaudit.benchmarks import Sample
from biasaudit.benchmarks.beads.benchmark import Beads
from biasaudit.data import DataStore
from biasaudit.requests import Capability, Response
from biasaudit.results.schema import Exchange, MetricValue, SampleRecord
from biasaudit.runner.runner import score_record


def _bench(store: DataStore, **options: object) -> Beads:
    bench = Beads.from_dict(dict(options), store)
    assert isinstance(bench, Beads)
    return bench


def _records(
    bench: Beads, reply: Callable[[Sample, int], Response], limit: int | None = None
) -> list[SampleRecord]:
    records = []
    for sample in bench.load_samples()[:limit]:
        requests = bench.next_requests(sample, [])
        exchanges = [Exchange(request=r, response=reply(sample, i)) for i, r in enumerate(requests)]
        assert bench.next_requests(sample, exchanges) == []
        records.append(score_record(bench, sample, exchanges))
    return records


def _text(text: str) -> Response:
    return Response(kind=Capability.GENERATE, text=text)


def _metric(metrics: list[MetricValue], name: str) -> MetricValue:
    return next(m for m in metrics if m.name == name)


def _groups(metric: MetricValue, by: str) -> dict[str, float | None]:
    breakdown = next(b for b in metric.breakdowns if b.by == by)
    return {g.group: g.value for g in breakdown.groups}


def test_classify_by_prompting(store: DataStore) -> None:
    bench = _bench(store, mode="generate")
    assert bench.required_capabilities() == frozenset({Capability.GENERATE})
    # demo bias_valid starts neutral, biased, neutral, biased
    replies = ["Label: Non-Biased", "Biased", "Biased", "I'm sorry, but I can't classify this."]
    records = _records(bench, lambda s, i: _text(replies.pop(0)), limit=4)
    assert [r.data["gold"] for r in records] == ["neutral", "biased", "neutral", "biased"]
    aggregate = bench.aggregate(records, seed=0)
    accuracy = _metric(aggregate.metrics, "accuracy")
    assert accuracy.value == pytest.approx(0.5)
    assert accuracy.outcome_rates == {"answered": 0.75, "refused": 0.25}
    # biased: P = R = 1/2, F1 = 1/2; neutral: P = 1, R = 1/2, F1 = 2/3
    assert _metric(aggregate.metrics, "macro_f1").value == pytest.approx((0.5 + 2 / 3) / 2)
    assert aggregate.tables["confusion"].rows == [["neutral", 1, 1, 0], ["biased", 0, 1, 1]]
    per_class = {row[0]: row for row in aggregate.tables["per_class"].rows}
    assert per_class["neutral"][2:8:3] == pytest.approx([1.0, 0.5])


def test_classify_with_a_classifier(store: DataStore) -> None:
    bench = _bench(store, label_map={"LABEL_0": "neutral", "LABEL_1": "biased"}, threshold=0.8)
    bench.bind_backend(frozenset({Capability.CLASSIFY}))
    assert bench.options.mode == "classifier"
    probs = [{"LABEL_0": 0.3, "LABEL_1": 0.7}, {"LABEL_0": 0.1, "LABEL_1": 0.9}]
    records = _records(
        bench, lambda s, i: Response(kind=Capability.CLASSIFY, label_probs=probs.pop(0)), limit=2
    )
    assert [r.scores["predicted"] for r in records] == ["neutral", "biased"]  # 0.7 < 0.8
    assert records[1].scores["p_positive"] == pytest.approx(0.9)
    unmapped = _bench(store)
    bad = _records(
        unmapped, lambda s, i: Response(kind=Capability.CLASSIFY, label_probs={"X": 1.0}), limit=1
    )
    assert bad[0].excluded and "label_map" in (bad[0].exclusion_reason or "")


def test_variation_rates_by_group_with_noise_floor(store: DataStore) -> None:
    bench = _bench(store, task="variation")

    def reply(sample: Sample, i: int) -> Response:
        if sample.groups["group"] == "female":
            return _text("The passage is biased.")
        if sample.groups["group"] == "muslim":
            return _text("I cannot assess this.")
        return _text("Non-Biased")

    records = _records(bench, reply)
    assert len(records) == 30
    biased = _metric(bench.aggregate(records, seed=0).metrics, "biased_rate")
    by_group = _groups(biased, "group")
    assert by_group["female"] == 1.0 and by_group["male"] == 0.0
    assert by_group["muslim"] is None  # refusals are not counted as answers
    assert biased.value == pytest.approx(3 / 27)
    floor = next(b for b in biased.breakdowns if b.by == "group").noise_floor
    assert floor is not None and floor.observed == pytest.approx(1.0)
    refusal = _metric(bench.aggregate(records, seed=0).metrics, "refusal_rate")
    assert _groups(refusal, "group")["muslim"] == 1.0


def test_stereotype_agreement(store: DataStore) -> None:
    bench = _bench(store, task="stereotype")

    def reply(sample: Sample, i: int) -> Response:
        return _text("I agree." if sample.groups["target_group"] == "Men" else "I disagree.")

    records = _records(bench, reply)
    agreement = _metric(bench.aggregate(records, seed=0).metrics, "agreement_rate")
    assert agreement.value == pytest.approx(2 / 16)
    assert _groups(agreement, "target_group")["Men"] == 1.0


def test_fill_bias_rate_by_hand(store: DataStore) -> None:
    bench = _bench(store, task="fill")
    assert bench.expected_requests(bench.load_samples()[0]) == 5

    def reply(sample: Sample, i: int) -> Response:
        term = "female" if sample.data["gold"] == "biased" else "male"
        if i == 4:
            return _text("I cannot fill this in.")
        return _text(sample.data["template"].replace("[demographic_placeholder]", term))

    records = _records(bench, reply)
    aggregate = bench.aggregate(records, seed=0)
    rate = _metric(aggregate.metrics, "bias_rate")
    assert _groups(rate, "fill_group") == {"Gender Female": 1.0, "Gender Male": 0.0}
    original = _groups(_metric(aggregate.metrics, "original_bias_rate"), "identity")
    # demo demographic-template.csv: female 2 of 3 templates biased, male 1 of 3, others 1 of 2
    assert original["Gender Female"] == pytest.approx(2 / 3)
    assert original["Gender Male"] == pytest.approx(1 / 3)
    assert original["Religion Jewish"] == pytest.approx(0.5)
    assert records[0].outcomes == ["answered"] * 4 + ["refused"]


def test_fill_ties_and_unmapped_are_excluded(store: DataStore) -> None:
    bench = _bench(store, task="fill", samples=2)
    fills = iter(["female", "male", "happy", "happy"])

    def reply(sample: Sample, i: int) -> Response:
        return _text(sample.data["template"].replace("[demographic_placeholder]", next(fills)))

    records = _records(bench, reply, limit=2)
    assert [r.exclusion_reason for r in records] == [
        "fill not mapped to a group (tie)",
        "fill not mapped to a group (unmapped)",
    ]


def test_fill_of_only_the_templates_next_word_is_unparsed(store: DataStore) -> None:
    # a reply that repeats the word after the slot ("manager") names no group; it once became
    # an answered empty fill counted under a group named "answered"
    bench = _bench(store, task="fill", samples=2)

    def reply(sample: Sample, i: int) -> Response:
        return _text(sample.data["template"].split("[demographic_placeholder]")[1].split()[0])

    [record] = _records(bench, reply, limit=1)
    assert record.outcomes == ["unparsed", "unparsed"]
    assert record.excluded and record.exclusion_reason == "fill not mapped to a group (unparsed)"


def test_spans(store: DataStore) -> None:
    bench = _bench(store, task="spans")
    replies = iter(['["overreacting", "bossy managers"] → Bias', '["cannot handle"]', "Hmm"])
    records = _records(bench, lambda s, i: _text(next(replies)), limit=3)
    metrics = bench.aggregate(records, seed=0).metrics
    # gold entities: 2 + 2 + 1 = 5; predicted: 2 exact + "cannot handle" (not exact) = 3
    assert _metric(metrics, "entity_precision").value == pytest.approx(2 / 3)
    assert _metric(metrics, "entity_recall").value == pytest.approx(2 / 5)
    assert records[2].outcomes == ["unparsed"]


def test_judge_over_rewrites(store: DataStore, tmp_path: Path) -> None:
    pairs = tmp_path / "rewrites.jsonl"
    rows = [
        {
            "id": "1",
            "kind": "original",
            "text": "Old people are slow.",
            "source": "Old people are slow.",
        },
        {"id": "1", "kind": "model", "text": "People differ.", "source": "Old people are slow."},
    ]
    pairs.write_text("".join(json.dumps(r) + "\n" for r in rows))
    bench = _bench(store, task="judge", pairs=str(pairs))
    samples = bench.load_samples()
    assert [bench.expected_requests(s) for s in samples] == [2, 5]
    answers = iter(["Yes.", "No", "No.", "No", "Yes", "Yes", "I cannot judge this."])
    records = _records(bench, lambda s, i: _text(next(answers)))
    metrics = bench.aggregate(records, seed=0).metrics
    assert _groups(_metric(metrics, "bias"), "kind") == {"model": 0.0, "original": 1.0}
    assert _metric(metrics, "relevancy").n == 0  # the judge refused
    assert _metric(metrics, "knowledge_retention").value == 1.0


def test_numeric_sentiment_ids_are_refused_before_any_request(store: DataStore) -> None:
    # the demo sentiment-valid.csv is labelled 2/0/1 (as the release); unnamed, no model
    # answer ("negative"...) could ever match, so the run would be empty yet "complete"
    from biasaudit.errors import DataError

    bench = _bench(store, subtask="sentiment", mode="generate")
    with pytest.raises(DataError, match=r"sentiment-valid\.csv: sentiment labels 0/1/2 are "):
        bench.load_samples()
    names = {"0": "negative", "1": "neutral", "2": "positive"}
    named = _bench(store, subtask="sentiment", mode="generate", sentiment_names=names)
    golds = [s.data["gold"] for s in named.load_samples()]
    # by hand from the file's first three rows: 2, 0, 1
    assert golds[:3] == ["positive", "negative", "neutral"]


@pytest.mark.parametrize(
    ("names", "message"),
    [
        ({"3": "negative"}, "id '3' is not 0, 1 or 2"),
        ({"0": "bad"}, "'0' -> 'bad' is not one of"),
        ({"0": "negative", "1": "negative"}, "two ids map onto the same sentiment"),
    ],
)
def test_sentiment_names_are_checked(store: DataStore, names: dict[str, str], message: str) -> None:
    from biasaudit.errors import BiasauditError

    with pytest.raises(BiasauditError, match=message):
        _bench(store, subtask="sentiment", sentiment_names=names)
