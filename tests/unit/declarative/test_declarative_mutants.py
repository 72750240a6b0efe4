"""The declarative layer's benchmark class, edge by edge (the mutation run of issue 24 item 9).

No model, no data but hand-made items (and two pinned WinoBias files for the store's paths).
Oracles: log-likelihoods divided by hand, the samples and requests written out from the
items, error messages written out in full (they are what a user sees), the metric
declarations written out from the module docstring, and the signed contrast recounted here
with plain Python over hand-made records.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest

from biasaudit.benchmarks import Sample
from biasaudit.data import DataStore
from biasaudit.declarative import (
    Item,
    MultipleChoiceBenchmark,
    MultipleChoiceOptions,
    MultipleChoiceTask,
)
from biasaudit.discovery import open_store
from biasaudit.errors import BiasauditError
from biasaudit.metrics.frame import MetricSpec
from biasaudit.metrics.statistic import metric_from_statistic
from biasaudit.options import describe_options
from biasaudit.requests import Capability, LoglikelihoodRequest, Response
from biasaudit.results.schema import Exchange, MetricValue, SampleRecord

ITEMS = [
    Item("a", {"q": "Who?", "z": "-"}, ["x", "yyyy", "zz"], 1, 0, {"g": "1", "k": "p"}),
    Item("b", {"q": "Why?"}, ["x", "y"], 0, None, {"g": "2", "k": "p"}),
    Item("c", {"q": "How?"}, ["u", "v"], 1, 1, {"g": "3", "k": "q"}),
]


def _read(paths: Mapping[str, Path]) -> Iterator[Item]:
    yield from ITEMS


def _task(**changes: object) -> MultipleChoiceTask:
    fields: dict[str, object] = {"data_keys": [], "read": _read, "template": "Q: {q}\nA:"}
    return MultipleChoiceTask(**{**fields, **changes})  # type: ignore[arg-type]


def _benchmark(task: MultipleChoiceTask, **options: object) -> MultipleChoiceBenchmark:
    """A benchmark class declared here (so its class-creation code runs under the test)."""

    class Declared(MultipleChoiceBenchmark):
        name, version = "mc_edges", "1"

    Declared.task = task
    Declared.metrics = []
    return Declared.from_dict(dict(options), open_store(use_mirror=False))  # type: ignore[return-value]


def _exchanges(sample: Sample, responses: Sequence[Response]) -> list[Exchange]:
    requests = [
        LoglikelihoodRequest(context=sample.data["context"], continuation=o)
        for o in sample.data["options"]
    ]
    return [Exchange(request=r, response=p) for r, p in zip(requests, responses, strict=False)]


def _ok(logprob: float | None, n_tokens: int | None = 1) -> Response:
    return Response(kind=Capability.LOGLIKELIHOOD, logprob=logprob, n_tokens=n_tokens)


def _failed(error: str) -> Response:
    return Response(kind=Capability.LOGLIKELIHOOD, error=error)


def _sample(options: list[str], gold: int = 0, stereotyped: int | None = None) -> Sample:
    data = {"context": "C", "gold": gold, "options": options, "stereotyped": stereotyped}
    return Sample("s", data)


# -- the class and its declared metrics ---------------------------------------------------


def test_a_subclass_with_a_task_declares_accuracy_and_stereotype_preference() -> None:
    task = _task(group_by=["g", "k"], cluster_by="k", reference="Toy et al. §3")

    class WithTask(MultipleChoiceBenchmark):
        name, version = "with_task", "1"

    class Declared(MultipleChoiceBenchmark):
        name, version = "declared", "1"
        task = _task(group_by=["g", "k"], cluster_by="k", reference="Toy et al. §3")

    common = {"group_by": ["g", "k"], "cluster_by": "k", "noise_floor": True}
    assert list(Declared.metrics) == [
        MetricSpec(
            name="accuracy",
            score="correct",
            higher_is_better=True,
            description="share of items whose likeliest option is the correct one",
            reference="Toy et al. §3",
            **common,  # type: ignore[arg-type]
        ),
        MetricSpec(
            name="stereotype_preference",
            score="stereotyped",
            description="share of items whose likeliest option is the stereotyped one",
            reference="Toy et al. §3",
            **common,  # type: ignore[arg-type]
        ),
    ]
    assert Declared.task == task
    # no task of its own: no metrics declared (the base class's empty tuple)
    assert WithTask.metrics == ()


def test_declared_metrics_are_kept_and_a_subclass_inherits_its_parents() -> None:
    own = [MetricSpec(name="mine", score="correct")]

    class Own(MultipleChoiceBenchmark):
        name, version = "own", "1"
        task = _task()
        metrics = own

    class Parent(MultipleChoiceBenchmark):
        name, version = "parent", "1"
        task = _task(group_by=["g"])

    class Child(Parent):
        name = "child"

    assert Own.metrics is own
    assert Child.metrics is Parent.metrics
    assert [(m.name, m.group_by, m.cluster_by, m.reference) for m in Parent.metrics] == [
        ("accuracy", ["g"], None, ""),
        ("stereotype_preference", ["g"], None, ""),
    ]


def test_options_describe_themselves_as_the_user_sees_them() -> None:
    rows = {row["name"]: row for row in describe_options(MultipleChoiceOptions)}
    assert rows["normalisation"]["description"] == (
        "sum, per_token or per_char log-likelihood of each option (default: the task's)"
    )
    assert rows["normalisation"]["default"] == "null"
    assert rows["where"]["description"] == (
        'keep only items whose columns have these levels, e.g. {"split": ["test"]}'
    )
    assert rows["where"]["default"] == "{}"


def test_capabilities_data_keys_and_prompt_template_ids() -> None:
    keys = ["toy/a.jsonl", "toy/b.jsonl"]
    bench = _benchmark(_task(data_keys=keys, normalisation="sum"))
    assert bench.required_capabilities() == frozenset({Capability.LOGLIKELIHOOD})
    assert bench.data_keys() == keys
    assert bench.normalisation == "sum"
    assert bench.prompt_template_ids() == ["mc_edges-mc-sum"]
    chosen = _benchmark(_task(data_keys=keys, normalisation="sum"), normalisation="per_token")
    assert chosen.normalisation == "per_token"
    assert chosen.prompt_template_ids() == ["mc_edges-mc-per_token"]
    assert _benchmark(_task()).prompt_template_ids() == ["mc_edges-mc-per_char"]


# -- samples -------------------------------------------------------------------------------


def test_samples_are_the_items_rendered_in_order() -> None:
    bench = _benchmark(_task(option_template="<{option}>"))
    samples = bench.load_samples()
    assert [(s.id, s.data, s.groups) for s in samples] == [
        ("a", {"context": "Q: Who?\nA:", "gold": 1, "options": ["<x>", "<yyyy>", "<zz>"],
               "stereotyped": 0}, {"g": "1", "k": "p"}),
        ("b", {"context": "Q: Why?\nA:", "gold": 0, "options": ["<x>", "<y>"],
               "stereotyped": None}, {"g": "2", "k": "p"}),
        ("c", {"context": "Q: How?\nA:", "gold": 1, "options": ["<u>", "<v>"],
               "stereotyped": 1}, {"g": "3", "k": "q"}),
    ]  # fmt: skip
    # the sample's groups are its own copy: changing them leaves the item alone
    samples[0].groups["g"] = "changed"
    assert ITEMS[0].groups == {"g": "1", "k": "p"}


def test_the_reader_gets_the_store_path_of_every_data_key(store: DataStore, data_dir: Path) -> None:
    keys = ["winobias/pro_stereotyped_type1.txt.dev", "winobias/anti_stereotyped_type1.txt.dev"]
    seen: list[dict[str, Path]] = []

    def read(paths: Mapping[str, Path]) -> Iterator[Item]:
        seen.append(dict(paths))
        yield from ITEMS

    class Stored(MultipleChoiceBenchmark):
        name, version = "stored", "1"
        task = _task(data_keys=keys, read=read)

    assert len(Stored.from_dict({}, store).load_samples()) == 3
    assert seen == [{key: data_dir / key for key in keys}]


@pytest.mark.parametrize(
    ("where", "ids"),
    [
        ({}, ["a", "b", "c"]),
        ({"k": ["p"]}, ["a", "b"]),
        ({"g": ["1", "3"]}, ["a", "c"]),
        ({"g": ["1", "3"], "k": ["p"]}, ["a"]),  # every column must match
        ({"g": ["2"], "k": ["q"]}, []),
    ],
)
def test_where_keeps_items_whose_every_column_has_a_chosen_level(
    where: dict[str, list[str]], ids: list[str]
) -> None:
    bench = _benchmark(_task(), where=where)
    assert [s.id for s in bench.load_samples()] == ids


@pytest.mark.parametrize(
    ("where", "message"),
    [
        ({"zz": ["1"], "h": ["1"]}, "mc_edges: option where: no column 'h' (columns: g, k)"),
        (
            {"g": ["9", "1", "7"]},
            "mc_edges: option where: g has no level '7' (levels: 1, 2, 3)",
        ),
        ({"k": ["p"], "g": ["4"]}, "mc_edges: option where: g has no level '4' (levels: 1, 2, 3)"),
    ],
)
def test_where_naming_an_unknown_column_or_level_is_one_line(
    where: dict[str, list[str]], message: str
) -> None:
    bench = _benchmark(_task(), where=where)
    with pytest.raises(BiasauditError) as caught:
        bench.load_samples()
    assert str(caught.value) == message


def test_where_levels_are_checked_on_the_items_the_filter_dropped_too() -> None:
    # level '3' exists only on item c, which k=p drops: still a known level, so no error
    bench = _benchmark(_task(), where={"k": ["p"], "g": ["3"]})
    assert bench.load_samples() == []


@pytest.mark.parametrize("template", ["{q} {missing}", "{q} {0}", "{q} {"])
def test_a_template_the_item_cannot_fill_is_one_line(template: str) -> None:
    # KeyError, IndexError, ValueError: Python's own words for what the template needs
    with pytest.raises((KeyError, IndexError, ValueError)) as python:
        template.format(q="Who?", z="-")
    needs = str(python.value)
    bench = _benchmark(_task(template=template))
    with pytest.raises(BiasauditError) as caught:
        bench.load_samples()
    assert str(caught.value) == f"mc_edges: item a: the template needs {needs} (fields: q, z)"
    assert caught.value.__cause__ is None and caught.value.__suppress_context__


# -- requests ------------------------------------------------------------------------------


def test_one_request_per_option_then_none() -> None:
    bench = _benchmark(_task())
    sample = bench.load_samples()[0]
    requests = bench.next_requests(sample, [])
    assert requests == [
        LoglikelihoodRequest(context="Q: Who?\nA:", continuation=" x"),
        LoglikelihoodRequest(context="Q: Who?\nA:", continuation=" yyyy"),
        LoglikelihoodRequest(context="Q: Who?\nA:", continuation=" zz"),
    ]
    assert bench.expected_requests(sample) == 3
    done = [Exchange(request=r, response=_ok(-1.0)) for r in requests]
    assert bench.next_requests(sample, done) == []
    assert bench.next_requests(sample, done[:1]) == []


# -- scoring -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("normalisation", "values", "chosen"),
    [
        # options "ab" (2 characters, 4 tokens), "abcd" (4, 1), "abcdefgh" (8, 2);
        # log-likelihoods -2, -3, -4
        ("sum", [-2.0, -3.0, -4.0], 0),
        ("per_char", [-2.0 / 2, -3.0 / 4, -4.0 / 8], 2),
        ("per_token", [-2.0 / 4, -3.0 / 1, -4.0 / 2], 0),
    ],
)
def test_the_score_of_each_option_and_the_choice(
    normalisation: str, values: list[float], chosen: int
) -> None:
    bench = _benchmark(_task(normalisation=normalisation))
    sample = _sample(["ab", "abcd", "abcdefgh"], gold=2, stereotyped=0)
    responses = [_ok(-2.0, 4), _ok(-3.0, 1), _ok(-4.0, 2)]
    score = bench.score_sample(sample, _exchanges(sample, responses))
    assert score.outcomes == ["answered"]
    assert (score.excluded, score.exclusion_reason) == (False, None)
    assert score.scores == {
        "chosen": chosen,
        "scores": values,
        "correct": float(chosen == 2),
        "stereotyped": float(chosen == 0),
    }


def test_the_option_chosen_is_the_highest_not_the_first_or_the_last() -> None:
    bench = _benchmark(_task(normalisation="sum"))
    sample = _sample(["a", "b", "c"], gold=1)
    score = bench.score_sample(sample, _exchanges(sample, [_ok(-3.0), _ok(-0.5), _ok(-3.0)]))
    # a tie below the best is no tie: option 1 (-0.5) is chosen; no stereotyped option named
    assert score.scores == {"chosen": 1, "scores": [-3.0, -0.5, -3.0], "correct": 1.0}
    assert score.outcomes == ["answered"]


def test_a_tie_at_the_top_is_unparsed_with_the_scores_kept() -> None:
    bench = _benchmark(_task(normalisation="sum"))
    sample = _sample(["a", "b", "c"], gold=1, stereotyped=0)
    score = bench.score_sample(sample, _exchanges(sample, [_ok(-1.0), _ok(-2.0), _ok(-1.0)]))
    assert (score.outcomes, score.scores, score.excluded, score.exclusion_reason) == (
        ["unparsed"], {"scores": [-1.0, -2.0, -1.0]}, True, "options tie"
    )  # fmt: skip


def test_a_failed_request_is_an_error_naming_the_first_failure() -> None:
    bench = _benchmark(_task(normalisation="sum"))
    sample = _sample(["a", "b", "c"])
    responses = [_ok(-1.0), _failed("first"), _failed("second")]
    score = bench.score_sample(sample, _exchanges(sample, responses))
    assert (score.outcomes, score.scores, score.excluded, score.exclusion_reason) == (
        ["error"], {}, True, "request failed: first"
    )  # fmt: skip


@pytest.mark.parametrize("answered", [0, 2])
def test_a_sample_with_an_option_not_scored_is_an_error(answered: int) -> None:
    bench = _benchmark(_task(normalisation="sum"))
    sample = _sample(["a", "b", "c"])
    score = bench.score_sample(sample, _exchanges(sample, [_ok(-1.0)] * answered))
    assert (score.outcomes, score.scores, score.excluded, score.exclusion_reason) == (
        ["error"], {}, True, "not every option was scored"
    )  # fmt: skip


@pytest.mark.parametrize(
    ("normalisation", "options", "responses"),
    [
        ("sum", ["a", "b"], [_ok(-1.0), _ok(None)]),
        ("per_token", ["a", "b"], [_ok(-1.0, 1), _ok(-1.0, None)]),
        ("per_token", ["a", "b"], [_ok(-1.0, 0), _ok(-1.0, 1)]),
        ("per_char", ["a", ""], [_ok(-1.0), _ok(-1.0)]),
    ],
)
def test_no_log_likelihood_or_nothing_to_divide_by_is_an_error(
    normalisation: str, options: list[str], responses: list[Response]
) -> None:
    bench = _benchmark(_task(normalisation=normalisation))
    sample = _sample(options)
    score = bench.score_sample(sample, _exchanges(sample, responses))
    assert (score.outcomes, score.scores, score.excluded, score.exclusion_reason) == (
        ["error"], {}, True, "no log-likelihood or token count"
    )  # fmt: skip


def test_the_sum_needs_no_token_count() -> None:
    bench = _benchmark(_task(normalisation="sum"))
    sample = _sample(["a", "bb"], gold=1)
    score = bench.score_sample(sample, _exchanges(sample, [_ok(-2.0, None), _ok(-1.0, 0)]))
    assert score.scores == {"chosen": 1, "scores": [-2.0, -1.0], "correct": 1.0}


# -- the signed contrast -------------------------------------------------------------------


def _record(
    i: int, correct: float | None, side: str, k: str, excluded: bool = False
) -> SampleRecord:
    scores = {} if correct is None else {"correct": correct}
    return SampleRecord(
        benchmark="mc_edges",
        sample_id=str(i),
        sample_hash=str(i),
        groups={"side": side, "k": k, "pair": str(i // 2)},
        outcomes=["error" if excluded else "answered"],
        scores=scores,
        excluded=excluded,
    )


RECORDS = [
    _record(0, 1.0, "pro", "x"),
    _record(1, 0.0, "anti", "x"),
    _record(2, 1.0, "pro", "y"),
    _record(3, 1.0, "anti", "y"),
    _record(4, 0.0, "pro", "x"),
    _record(5, 0.0, "anti", "y"),
    _record(6, 1.0, "pro", "x", excluded=True),  # excluded: not counted though it has a score
    _record(7, None, "anti", "x"),  # no score: not counted
    _record(8, 1.0, "other", "y"),  # neither level
]


def _naive_contrast(records: Sequence[SampleRecord], indices: Sequence[int]) -> float | None:
    pro, anti = [], []
    for i in indices:
        record = records[i]
        if record.excluded or "correct" not in record.scores:
            continue
        if record.groups["side"] == "pro":
            pro.append(record.scores["correct"])
        elif record.groups["side"] == "anti":
            anti.append(record.scores["correct"])
    if not pro or not anti:
        return None
    return sum(pro) / len(pro) - sum(anti) / len(anti)


def _expected(records: list[SampleRecord], seed: int, **extra: Any) -> MetricValue:
    """The contrast pro - anti by `metric_from_statistic` with this test's own statistic and
    the arguments the module docstring documents (breakdown by k, clusters, group CIs)."""
    return metric_from_statistic(
        "accuracy_pro_minus_anti",
        records,
        lambda indices: _naive_contrast(records, indices),
        seed=seed,
        statistic_name="difference of means",
        group_by=["k"],
        cluster_by="pair",
        description="accuracy on side=pro minus accuracy on side=anti (signed)",
        group_ci=True,
        **extra,
    )


def test_no_contrast_declared_no_extra_metric() -> None:
    assert _benchmark(_task()).extra_metrics(RECORDS, seed=0) == []


def test_the_signed_contrast_by_hand_with_its_breakdowns() -> None:
    task = _task(
        group_by=["side", "k", "side+k"],
        cluster_by="pair",
        contrast=("side", "pro", "anti"),
        reference="Zhao et al. 2018, Table 2",
    )
    [metric] = _benchmark(task).extra_metrics(RECORDS, seed=3)
    # pro: records 0, 2, 4 -> 2/3; anti: records 1, 3, 5 -> 1/3 (6 excluded, 7 unscored)
    assert metric.value == pytest.approx(2 / 3 - 1 / 3)
    assert metric.name == "accuracy_pro_minus_anti"
    assert metric.statistic == "difference of means"
    assert metric.description == "accuracy on side=pro minus accuracy on side=anti (signed)"
    assert metric.reference == "Zhao et al. 2018, Table 2"
    assert (metric.n, metric.n_excluded) == (9, 2)
    assert metric.ci is not None and metric.ci.cluster_by == "pair"
    # breakdowns only by the groupings without the contrast's column
    [by_k] = metric.breakdowns
    assert by_k.by == "k"
    # x: pro 0, 4 -> 1/2, anti: 1 -> 0;  y: pro 2 -> 1, anti 3, 5 -> 1/2
    assert [(g.group, g.value, g.n) for g in by_k.groups] == [("x", 0.5, 5), ("y", 0.5, 4)]
    # the same metric from the shared function with this test's own statistic and the
    # documented arguments (the bootstrap's CIs included, group CIs asked for)
    expected = _expected(RECORDS, 3, reference="Zhao et al. 2018, Table 2", n_excluded=2)
    assert metric == expected


def test_the_contrast_interval_resamples_the_tasks_clusters_with_the_run_seed() -> None:
    # 30 pairs, each a pro and an anti record, so that every resample of pairs has both sides
    records = []
    for pair in range(30):
        k = "xy"[pair % 2]
        records.append(_record(2 * pair, float(pair % 3 != 0), "pro", k))
        records.append(_record(2 * pair + 1, float(pair % 2 == 0), "anti", k))
    task = _task(group_by=["k"], cluster_by="pair", contrast=("side", "pro", "anti"))
    [metric] = _benchmark(task).extra_metrics(records, seed=11)
    expected = _expected(records, 11)
    assert metric.ci_low is not None and metric.ci_high is not None
    assert all(g.ci_low is not None for g in metric.breakdowns[0].groups)
    assert metric == expected
    [other] = _benchmark(task).extra_metrics(records, seed=12)
    assert (other.ci_low, other.ci_high) != (metric.ci_low, metric.ci_high)


def test_a_contrast_with_one_side_empty_is_undefined() -> None:
    task = _task(contrast=("side", "pro", "nobody"))
    [metric] = _benchmark(task).extra_metrics(RECORDS, seed=0)
    assert metric.value is None
    assert metric.undefined_reason == "the statistic is undefined here"
    task = _task(contrast=("side", "nobody", "anti"))
    assert _benchmark(task).extra_metrics(RECORDS, seed=0)[0].value is None
