"""The CALM benchmark class: options, samples, requests, scoring of stored exchanges."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

import pytest

from biasaudit import plugin
from biasaudit.benchmarks import Benchmark, Sample
from biasaudit.benchmarks.calm.benchmark import CALM
from biasaudit.benchmarks.calm.prompts import gold_choice
from biasaudit.benchmarks.calm.selection import allocate, stratified_sample
from biasaudit.data import DataStore
from biasaudit.errors import BiasauditError, DataError
from biasaudit.requests import (
    Capability,
    GenerateRequest,
    LoglikelihoodRequest,
    Response,
)
from biasaudit.results.schema import Exchange, SampleRecord
from biasaudit.runner.runner import score_record

SMALL = {"template_ids": "qa:0,qa:70,nli:0,nli:20,sentiment:0,sentiment:30", "name_limit": 2}


def make(store: DataStore, **options: Any) -> Benchmark:
    return plugin.benchmark_class("calm").from_dict(options, store)


def test_registered_and_default_size(store: DataStore) -> None:
    bench = make(store, tasks="nli", attributes="gender")
    assert isinstance(bench, CALM)
    assert len(bench.load_samples()) == 8_100
    assert bench.required_capabilities() == frozenset({Capability.GENERATE})
    assert make(store, protocol="loglikelihood").required_capabilities() == frozenset(
        {Capability.LOGLIKELIHOOD}
    )


def test_subsets(store: DataStore) -> None:
    samples = make(store, **SMALL).load_samples()
    assert len(samples) == 6 * 7 * 2
    first = samples[0]
    assert first.id == "calm/qa/gender/0/male/0"
    assert first.groups == {
        "task": "qa",
        "attribute": "gender",
        "group": "male",
        "template": "qa:0",
        "source_dataset": "qamr",
        "name": first.data["name"],
    }
    stratified = make(store, templates_per_task=8, attributes="gender", name_limit=1)
    ids = {s.data["template_id"] for s in stratified.load_samples()}
    assert len(ids) == 24
    sources = {s.data["source_dataset"] for s in stratified.load_samples()}
    assert len(sources) == 16  # every source dataset is represented
    fraction = make(store, template_fraction=0.1, tasks="nli", attributes="race")
    assert len(fraction.load_samples()) == 5 * 200


def test_bad_options(store: DataStore, tmp_path: Path) -> None:
    with pytest.raises(BiasauditError, match="unknown option 'shot'"):
        make(store, shot=3)
    with pytest.raises(BiasauditError, match="option 'shots'"):
        make(store, shots=9)
    with pytest.raises(DataError, match="unknown template ids"):
        make(store, template_ids="qa:999").load_samples()
    with pytest.raises(DataError, match="unknown attribute 'age'"):
        make(store, attributes="age").load_samples()
    with pytest.raises(DataError, match=r"x\.csv: cannot read"):
        make(store, attributes="custom", names_csv=str(tmp_path / "x.csv")).load_samples()


def test_custom_names(store: DataStore, tmp_path: Path) -> None:
    csv = tmp_path / "de.csv"
    csv.write_text("group,name,pronouns\nf,Anna,she\nf,Lea,she\nm,Jonas,he\nm,Paul,he\n")
    bench = make(
        store, attributes="german", names_csv=str(csv), names_attribute="german",
        names="resample", names_per_group=2, tasks="sentiment", template_ids="sentiment:0",
    )  # fmt: skip
    samples = bench.load_samples()
    assert [s.data["group"] for s in samples] == ["f", "f", "m", "m"]
    assert {s.data["name"] for s in samples} == {"Anna", "Lea", "Jonas", "Paul"}
    # each sample's query carries its own name, and the she-group gets "she" pronoun forms
    for sample in samples:
        assert sample.data["name"] in sample.data["query"]


def test_generate_requests(store: DataStore) -> None:
    bench = make(store, **SMALL)
    sample = bench.load_samples()[0]
    (request,) = bench.next_requests(sample, [])
    assert isinstance(request, GenerateRequest)
    assert request.prompt is not None
    assert request.prompt.startswith("This is a question answering task.\nPassage: ")
    assert request.prompt.endswith("\nAnswer: ")
    assert request.params.temperature == 0.0 and request.params.max_tokens == 10
    stripped = make(store, answer_space="strip", **SMALL).next_requests(sample, [])[0]
    assert isinstance(stripped, GenerateRequest) and stripped.prompt == request.prompt[:-1]
    zero = make(store, shots=0, **SMALL).next_requests(sample, [])[0]
    assert isinstance(zero, GenerateRequest) and zero.prompt is not None
    assert zero.prompt.count("Passage:") == 1


def test_loglikelihood_requests(store: DataStore) -> None:
    bench = make(store, protocol="loglikelihood", **SMALL)
    by_kind = {s.data["kind"]: s for s in bench.load_samples()}
    mcqa = bench.next_requests(by_kind["mcqa"], [])
    assert [r.continuation for r in mcqa if isinstance(r, LoglikelihoodRequest)] == [
        " A", " B", " C",
    ]  # fmt: skip
    free = bench.next_requests(by_kind["qa"], [])
    assert len(free) == 1 and isinstance(free[0], LoglikelihoodRequest)
    assert free[0].continuation == " Liberal Democrats"
    assert free[0].context.endswith("Answer:")
    toxic = bench.next_requests(by_kind["toxic"], [])
    assert [r.continuation for r in toxic if isinstance(r, LoglikelihoodRequest)] == [
        "True", "False",
    ]  # fmt: skip


def _answer(sample: Sample, right: bool) -> str:
    """A generated answer that is right or wrong for the sample."""
    data = sample.data
    if data["kind"] == "qa":
        return f" {data['gold']}" if right else " nobody"
    if data["kind"] == "mcqa":
        letters = list(data["options"])
        return (
            f" {data['gold'][0]}"
            if right
            else f" {next(x for x in letters if x != data['gold'][0])}"
        )
    word = gold_choice(data["kind"], data["gold"])
    if right:
        return f" {word}\nPassage: more"
    others = {"True": "False", "False": "True", "Neither": "True", "positive": "negative"}
    return f" {others.get(word, 'positive')}"


def _records(bench: Benchmark, rule: Any) -> list[SampleRecord]:
    records = []
    for sample in bench.load_samples():
        request = bench.next_requests(sample, [])[0]
        text = _answer(sample, rule(sample))
        exchange = Exchange(request=request, response=Response(kind=Capability.GENERATE, text=text))
        records.append(score_record(bench, sample, [exchange]))
    return records


def test_scores_and_aggregate_from_stored_exchanges(store: DataStore) -> None:
    bench = make(store, degenerate_threshold=None, bootstrap_resamples=50, **SMALL)
    # Right for male, white and the first name of every other group: accuracy 1 vs 0.5.
    records = _records(
        bench, lambda s: s.data["group"] in ("male", "white") or s.data["name_index"] == 0
    )
    assert all(
        r.scores["correct"] == (r.data["group"] in ("male", "white") or r.data["name_index"] == 0)
        for r in records
    )
    result = bench.aggregate(records, seed=0)
    metrics = {m.name: m for m in result.metrics}
    assert set(metrics) == {"bias_score", "accuracy"}

    def group(metric: str, by: str, label: str, where: dict = metrics) -> float | None:  # type: ignore[type-arg]
        found = [g for g in where[metric].breakdown(by).groups if g.group == label]
        assert found, f"{metric} has no group {label} by {by}"
        return found[0].value

    assert {g.group for g in metrics["bias_score"].breakdown("task+attribute").groups} >= {
        "qa/gender",
        "sentiment/race",
    }
    # Gender per template: accs 1, .5, .5; pooled baseline over 14 prompts = 9/14.
    assert group("bias_score", "attribute", "gender") == pytest.approx(100 * 0.5 / (9 / 14))
    assert metrics["bias_score"].value == pytest.approx(100 * 0.5 / (9 / 14))
    assert metrics["accuracy"].value == pytest.approx(9 / 14)
    male = next(g for g in metrics["accuracy"].breakdown("group").groups if g.group == "male")
    assert male.value == 1.0 and male.n == 12
    assert result.tables["by_template"].columns == [
        "task", "attribute", "template_id", "group", "accuracy", "n",
    ]  # fmt: skip
    assert result.tables["by_name"].columns == [
        "task", "attribute", "group", "name", "accuracy", "n",
    ]  # fmt: skip
    assert len(result.tables["by_template"].rows) == 6 * 7
    repo = make(
        store, degenerate_threshold=None, bias_formula="repo", bootstrap_resamples=50, **SMALL
    )
    repo_metrics = {m.name: m for m in repo.aggregate(records, seed=0).metrics}
    assert group("bias_score", "attribute", "race", repo_metrics) == pytest.approx(50.0)


def test_failed_requests_are_excluded(store: DataStore) -> None:
    bench = make(store, **SMALL)
    sample = bench.load_samples()[0]
    request = bench.next_requests(sample, [])[0]
    failed = Exchange(request=request, response=Response(kind=Capability.GENERATE, error="boom"))
    score = bench.score_sample(sample, [failed])
    assert score.excluded and score.outcomes == ["error"]


def test_allocation() -> None:
    assert allocate({"a": 10, "b": 5, "c": 1}, 4) == {"a": 2, "b": 1, "c": 1}
    assert allocate({"a": 10, "b": 5}, 100) == {"a": 10, "b": 5}
    assert allocate({"a": 3, "b": 3, "c": 3}, 2) == {"a": 1, "b": 1, "c": 0}
    items = list(range(20))
    strata = ["x"] * 10 + ["y"] * 10
    picked = stratified_sample(items, strata, 4, "s")
    assert picked == stratified_sample(items, strata, 4, "s") == sorted(picked)
    assert sum(1 for i in picked if i < 10) == 2


def test_noise_floor_separates_chance_gaps_from_bias(store: DataStore) -> None:
    """A model right on a random half of the prompts, whatever the group, still gets a CALM
    score above 0 (max - min of noisy group accuracies); its score sits inside the
    permutation null. A model right only for male and white names sits far above it."""
    options = {"degenerate_threshold": None, "bootstrap_resamples": 20, "name_limit": 6}
    bench = make(store, template_ids="qa:0,qa:70,nli:0,nli:20", **options)

    def coin(sample: Sample) -> bool:  # independent of the group: a fair, unbiased model
        return hashlib.sha256(sample.id.encode()).digest()[0] % 2 == 0

    unbiased = bench.aggregate(_records(bench, coin), seed=0).metrics[0]
    assert unbiased.name == "bias_score" and unbiased.value is not None
    assert unbiased.value > 5  # the chance gap the floor is there to expose
    floor = unbiased.noise_floor
    assert floor is not None and floor.permuted_within == "template"
    assert floor.observed == unbiased.value
    assert floor.null_mean is not None and floor.null_mean > 5
    assert floor.p_value is not None and floor.p_value > 0.05

    def favours(sample: Sample) -> bool:  # always right for male and white names only
        return sample.data["group"] in ("male", "white") or coin(sample)

    biased = bench.aggregate(_records(bench, favours), seed=0).metrics[0]
    assert biased.noise_floor is not None and biased.noise_floor.null_p95 is not None
    assert biased.value is not None and biased.value > biased.noise_floor.null_p95
    assert biased.noise_floor.p_value is not None and biased.noise_floor.p_value < 0.05


@pytest.mark.parametrize(
    ("option", "value"),
    [("tasks", "qa,qa"), ("attributes", ["gender", "gender"]), ("template_ids", "nli:1,nli:1")],
)
def test_a_task_attribute_or_template_listed_twice_is_refused(
    store: DataStore, option: str, value: object
) -> None:
    from biasaudit.errors import BiasauditError

    with pytest.raises(BiasauditError, match=f"option '{option}' for calm: .*listed twice"):
        CALM.from_dict({option: value}, store)


def test_loglikelihood_scoring_takes_the_likeliest_and_abstains_on_a_tie(store: DataStore) -> None:
    from biasaudit.requests import Capability, Response
    from biasaudit.results.schema import Exchange

    bench = make(store, protocol="loglikelihood", **SMALL)
    mcqa = next(s for s in bench.load_samples() if s.data["kind"] == "mcqa")
    requests = bench.next_requests(mcqa, [])

    def score(logprobs: list[float]):  # type: ignore[no-untyped-def]
        exchanges = [
            Exchange(request=r, response=Response(kind=Capability.LOGLIKELIHOOD, logprob=lp))
            for r, lp in zip(requests, logprobs, strict=True)
        ]
        return bench.score_sample(mcqa, exchanges)

    best = score([-3.0, -1.0, -2.0])  # by hand: the second option, " B"
    assert best.scores["prediction"] == mcqa.data["choices"][1] and not best.excluded
    tied = score([-1.0, -1.0, -2.0])
    assert (tied.outcomes, tied.excluded, tied.exclusion_reason) == (
        ["unparsed"],
        True,
        "options tie",
    )
