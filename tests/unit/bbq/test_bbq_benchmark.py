"""The BBQ benchmark class: samples, requests, per-sample scoring and aggregation.

Expected values are worked out by hand from the released rows and the designed responses.
"""

from __future__ import annotations

import pytest

from biasaudit.benchmarks import Sample
from biasaudit.benchmarks.bbq.benchmark import BBQ
from biasaudit.data import DataStore
from biasaudit.errors import BiasauditError
from biasaudit.requests import (
    Capability,
    GenerateRequest,
    LoglikelihoodRequest,
    Response,
)
from biasaudit.results.schema import Exchange, SampleRecord
from biasaudit.runner.runner import score_record


def _bench(store: DataStore, **options: object) -> BBQ:
    bench = BBQ.from_dict({"categories": ["Religion"], **options}, store)
    assert isinstance(bench, BBQ)
    return bench


def _record(bench: BBQ, sample: Sample, exchanges: list[Exchange]) -> SampleRecord:
    return score_record(bench, sample, exchanges)


def _gen(request: GenerateRequest, text: str | None, error: str | None = None) -> Exchange:
    return Exchange(
        request=request, response=Response(kind=Capability.GENERATE, text=text, error=error)
    )


def test_samples_of_one_category(store: DataStore):
    samples = _bench(store).load_samples()
    assert len(samples) == 1200
    assert len({s.id for s in samples}) == 1200
    first = samples[0]
    # Religion.jsonl row 1: example 0, template 1, ambiguous, negative question
    assert first.id == "bbq-Religion-00000"
    assert first.groups["template"] == "Religion/1"
    assert first.groups["context_condition"] == "ambig"
    assert first.groups["context_alignment"] == "none"
    assert first.groups["category_slice"] == "Religion"


def test_comma_separated_categories(store: DataStore):
    bench = BBQ.from_dict({"categories": "Religion,SES"}, store)
    assert isinstance(bench, BBQ)
    assert bench.categories() == ["Religion", "SES"]


def test_bad_options_are_one_line_errors(store: DataStore):
    with pytest.raises(BiasauditError, match="unknown category Relig"):
        BBQ.from_dict({"categories": ["Relig"]}, store)
    with pytest.raises(BiasauditError, match="parser=authors"):
        BBQ.from_dict({"protocol": "letter", "parser": "authors"}, store)


def test_loglikelihood_requests_and_choice_under_each_normalisation(store: DataStore):
    bench = _bench(store)
    sample = bench.load_samples()[0]
    requests = bench.next_requests(sample, [])
    assert [type(r) for r in requests] == [LoglikelihoodRequest] * 3
    assert all(isinstance(r, LoglikelihoodRequest) for r in requests)
    answers = sample.data["answers"]
    assert [r.continuation for r in requests] == [f" {a}" for a in answers]  # type: ignore[union-attr]
    assert requests[0].context.endswith(f"Question: {sample.data['question']}\nAnswer:")  # type: ignore[union-attr]
    # designed: logprobs -6, -4, -9 over 6, 2, 3 tokens. raw: option 1 (-4);
    # per token: -1, -2, -3 -> option 0; per char: lengths of " " + answer
    logprobs, n_tokens = [-6.0, -4.0, -9.0], [6, 2, 3]
    exchanges = [
        Exchange(
            request=r,
            response=Response(kind=Capability.LOGLIKELIHOOD, logprob=lp, n_tokens=n),
        )
        for r, lp, n in zip(requests, logprobs, n_tokens, strict=True)
    ]
    per_char = [lp / (len(a) + 1) for lp, a in zip(logprobs, answers, strict=True)]
    expected_char = per_char.index(max(per_char))
    score = bench.score_sample(sample, exchanges)
    assert score.scores["chosen_raw"] == 1
    assert score.scores["chosen_token"] == 0
    assert score.scores["chosen_char"] == expected_char
    assert score.scores["chosen"] == 1  # default normalization=raw
    assert not score.excluded
    assert bench.next_requests(sample, exchanges) == []
    token_bench = _bench(store, normalization="token")
    assert token_bench.score_sample(sample, exchanges).scores["chosen"] == 0


def test_letter_protocol_scores_by_the_parser(store: DataStore):
    bench = _bench(store, protocol="letter")
    sample = bench.load_samples()[0]
    (request,) = bench.next_requests(sample, [])
    assert isinstance(request, GenerateRequest)
    d = sample.data
    unknown_letter = "ABC"[d["unknown_loc"]]
    score = bench.score_sample(sample, [_gen(request, f"{unknown_letter}.")])
    assert score.outcomes == ["unknown"]
    assert score.scores["correct"] == 1  # ambiguous: unknown is right
    assert score.scores["bias_direction"] is None
    assert score.scores["diff_bias_direction"] == 0
    target_letter = "ABC"[d["target_loc"]]
    biased = bench.score_sample(sample, [_gen(request, f"The answer is {target_letter}")])
    assert biased.outcomes == ["answered"]
    assert biased.scores["bias_direction"] == 1 and biased.scores["correct"] == 0
    refused = bench.score_sample(sample, [_gen(request, "I'm sorry, I can't help with that.")])
    assert refused.outcomes == ["refused"] and refused.scores["correct"] is None
    failed = bench.score_sample(sample, [_gen(request, None, error="timeout")])
    assert failed.excluded and failed.outcomes == ["error"]


def test_free_text_with_the_authors_protocol(store: DataStore):
    bench = _bench(store, protocol="free_text", parser="authors")
    sample = bench.load_samples()[0]
    (request,) = bench.next_requests(sample, [])
    answer = sample.data["answers"][sample.data["label"]]
    assert "A." not in request.messages[0].content  # type: ignore[union-attr,index]
    score = bench.score_sample(sample, [_gen(request, answer.lower() + ".")])
    assert score.scores["chosen"] == sample.data["label"]
    assert bench.score_sample(sample, [_gen(request, "no idea")]).outcomes == ["unparsed"]


def _designed_records(bench: BBQ) -> list[SampleRecord]:
    """10 ambiguous rows answered: 4 unknown, 3 biased, 1 counter-biased, 2 refused."""
    samples = [s for s in bench.load_samples() if s.data["context_condition"] == "ambig"][:10]
    plan = ["unknown"] * 4 + ["target"] * 3 + ["other"] + ["refuse"] * 2
    records = []
    for sample, what in zip(samples, plan, strict=True):
        d = sample.data
        (request,) = bench.next_requests(sample, [])
        assert isinstance(request, GenerateRequest)
        other = ({0, 1, 2} - {d["target_loc"], d["unknown_loc"]}).pop()
        index = {"unknown": d["unknown_loc"], "target": d["target_loc"], "other": other}.get(what)
        reply = "I refuse to answer." if index is None else "ABC"[index]
        records.append(_record(bench, sample, [_gen(request, reply)]))
    return records


def test_aggregate_by_hand(store: DataStore):
    bench = _bench(store, protocol="letter")
    result = bench.aggregate(_designed_records(bench), seed=0)
    metrics = {m.name: m for m in result.metrics}
    # accuracy over the 8 answered: 4 / 8
    assert metrics["accuracy_ambig"].value == pytest.approx(0.5)
    assert metrics["accuracy_ambig"].n == 8
    assert metrics["accuracy_ambig"].outcome_rates["refused"] == pytest.approx(0.2)
    # s_DIS over 4 non-unknown: 2 * 3/4 - 1 = 0.5; s_AMB = (1 - 0.5) * 0.5 = 0.25
    assert metrics["bias_score_ambig_unscaled"].value == pytest.approx(0.5)
    assert metrics["bias_score_ambig"].value == pytest.approx(0.25)
    # KoBBQ: (3 - 1) / 8
    assert metrics["diff_bias_ambig"].value == pytest.approx(0.25)
    # no disambiguated rows: no value, never an ideal one
    assert metrics["accuracy_disambig"].value is None
    assert metrics["diff_bias_disambig"].value is None
    assert metrics["bias_score_disambig"].value is None
    assert result.tables["outcomes"].rows == [["Religion", 10, 4, 4, 2, 0, 0]]


def test_slice_table_matches_the_metrics(store: DataStore):
    bench = _bench(store, protocol="letter")
    table = bench.aggregate(_designed_records(bench), seed=0).tables["by_slice"]
    rows = {row[0]: dict(zip(table.columns, row, strict=True)) for row in table.rows}
    religion = rows["Religion"]
    assert religion["n_ambig"] == 10 and religion["n_disambig"] == 0
    assert religion["accuracy_ambig"] == 0.5 and religion["s_AMB"] == 0.25
    assert religion["s_DIS"] is None and religion["diff_bias_disambig"] is None
    assert rows["all"]["diff_bias_ambig"] == 0.25


def test_missing_loglikelihood_is_an_error_exclusion(store: DataStore):
    bench = _bench(store)
    sample = bench.load_samples()[0]
    requests = bench.next_requests(sample, [])
    exchanges = [
        Exchange(request=r, response=Response(kind=Capability.LOGLIKELIHOOD, logprob=None))
        for r in requests
    ]
    score = bench.score_sample(sample, exchanges)
    assert score.excluded and score.outcomes == ["error"]


def test_report_section_reads_the_slice_table(store: DataStore):
    from biasaudit.benchmarks.bbq.report_view import sections
    from biasaudit.results.schema import BenchmarkResult

    bench = _bench(store, protocol="letter")
    agg = bench.aggregate(_designed_records(bench), seed=0)
    result = BenchmarkResult(
        benchmark="bbq",
        version="1.0",
        n_samples=10,
        samples_hash="x",
        metrics=agg.metrics,
        tables=agg.tables,
    )
    (section,) = sections(result, [])
    assert "Skipped" not in section.body and "Religion" in section.body
    empty = BenchmarkResult(
        benchmark="bbq", version="1.0", n_samples=0, samples_hash="x", metrics=[]
    )
    assert "Skipped" in sections(empty, [])[0].body
