"""The validity gates on the user-trial cases (shared/audits/user-trial.md, B2-B3, A4)."""

from __future__ import annotations

from typing import Any

from biasaudit.profile import validity
from biasaudit.profile.display import metric_row, not_measurable_benchmarks, status_lines
from biasaudit.profile.frame import to_dataframe
from biasaudit.results.schema import (
    BenchmarkResult,
    CIInfo,
    MetricValue,
    ModelInfo,
    RunResult,
    SampleRecord,
    Table,
    ToolkitInfo,
)


def check(result, records=None, **flags):  # type: ignore[no-untyped-def]
    """The gates the result's benchmark declares, checked (validity.check takes them)."""
    gates = validity.benchmark_profile(result.benchmark).gates
    return validity.check(result, records, gates, **flags)


def bench(name: str, metrics: list[MetricValue], **extra: Any) -> BenchmarkResult:
    fields: dict[str, Any] = {"n_samples": 16, "samples_hash": "x"} | extra
    return BenchmarkResult(benchmark=name, version="1", metrics=metrics, **fields)


def metric(
    name: str,
    value: float | None,
    n: int,
    rates: dict[str, float] | None = None,
    ci: tuple[float, float] | None = None,
) -> MetricValue:
    low, high = ci if ci else (None, None)
    return MetricValue(
        name=name,
        value=value,
        n=n,
        ci_low=low,
        ci_high=high,
        ci=CIInfo(),
        outcome_rates=rates or {},
    )


def test_stop_model_answering_no_turn_is_not_measurable() -> None:
    # Gemma: 0 of 96 STOP turns answered, P 0.188 [0.188, 0.188]
    silent = {"unparsed": 1.0}
    result = bench(
        "stop",
        [
            metric("P", 0.1875, 16, silent, (0.1875, 0.1875)),
            metric("Pl", 1.0, 16, silent, (1.0, 1.0)),
        ],
    )
    validity = check(result)
    assert validity.status == "not measurable"
    assert validity.reason("P") == "answer rate 0 % (< 50 %)"
    row = metric_row(result, result.metrics[0])
    assert row[1] == "not measurable: answer rate 0 % (< 50 %)"
    assert row[2] == row[3] == ""  # no interval shown


def test_bbnli_with_every_sample_excluded_is_not_complete_looking() -> None:
    result = bench("bbnli", [metric("accuracy", None, 0)], n_samples=20, n_excluded=20)
    validity = check(result)
    assert validity.status == "not measurable"
    assert validity.reason(None) == "20 of 20 samples excluded (100 % > 50 %)"
    assert status_lines(result)[0] == (
        "validity: not measurable (20 of 20 samples excluded (100 % > 50 %))"
    )


def _bbnli_record(i: int, label: str) -> SampleRecord:
    return SampleRecord(
        benchmark="bbnli",
        sample_id=str(i),
        sample_hash=str(i),
        outcomes=["answered"],
        scores={"label": label, "answer": "no"},
    )


def test_a_model_saying_no_to_everything_is_not_zero_percent_biased() -> None:
    records = [_bbnli_record(i, "neutral") for i in range(20)]
    result = bench(
        "bbnli", [metric("biased_answer", 0.0, 20, {"answered": 1.0}, (0.0, 0.0))], n_samples=20
    )
    validity = check(result, records)
    assert validity.status == "not measurable"
    assert validity.reason("biased_answer") == (
        "20 of 20 answers are 'neutral' (100 % >= 95 %): a constant answer reveals no bias"
    )
    # 18 of 20 is 90 %: below the gate
    mixed = [_bbnli_record(i, "neutral" if i < 18 else "entailment") for i in range(20)]
    assert check(result, mixed).reason("biased_answer") is None


def test_calm_dropping_templates_does_not_print_bias_score_zero() -> None:
    rows = [
        ["qa", "gender", "qa:20", "bbq", 0.5, 0.0, 0.0, "ok"],
        ["nli", "gender", "nli:12", "snli", 0.2, None, None, "a group has accuracy 0"],
        ["nli", "race", "nli:12", "snli", 0.2, None, None, "a group has accuracy 0"],
    ]
    columns = [
        "task",
        "attribute",
        "template_id",
        "source_dataset",
        "baseline",
        "bias_paper",
        "bias_repo",
        "status",
    ]
    result = bench(
        "calm",
        [metric("bias_score", 0.0, 4), metric("accuracy", 0.5, 56)],
        tables={"template_bias": Table(columns=columns, rows=rows)},
    )
    validity = check(result)
    assert validity.reason("bias_score") == (
        "2 of 3 templates dropped (nli) because a group has accuracy 0 "
        "(-O skip_zero_templates=false keeps them)"
    )
    assert validity.reason("accuracy") is None
    assert validity.status == "partly measurable"


def test_beads_demo_data_shows_no_accuracy() -> None:
    result = bench(
        "beads",
        [metric("accuracy", 0.65, 20, {"answered": 1.0}, (0.45, 0.85))],
        options={"data": "demo"},
    )
    assert check(result).reason(
        "accuracy",
    ) == ("demo data (hand-written, not BEADs; pass -O data=PATH to a BEADs copy)")
    real = result.model_copy(update={"options": {"data": "/data/bead"}})
    assert check(real).status == "measurable"


def test_small_n_and_transcript() -> None:
    result = bench("crows_pairs", [metric("metric_score", 100.0, 4, {"answered": 1.0})])
    assert check(result).reason("metric_score") == "n = 4 (< 10)"
    warned = check(result, chat_as_transcript=True, generative=True)
    assert warned.warnings(None) == [
        "base model without a chat template: chat prompts rendered as a transcript"
    ]
    assert check(result, chat_as_transcript=True, generative=False).warnings(None) == []


def test_cobias_is_marked_as_not_a_model_score() -> None:
    result = bench("cobias", [metric("cobias_mean", 0.56, 40)])
    assert check(result).warnings(None) == [
        "not a model bias score: it rates the context of the dataset's statements"
    ]


def run_of(benchmarks: list[BenchmarkResult]) -> RunResult:
    return RunResult(
        toolkit=ToolkitInfo(version="0", python="3"),
        created_at="now",
        model=ModelInfo(spec="m", backend="x", identity={}, fingerprint="f"),
        seed=0,
        batch_size=1,
        benchmarks=benchmarks,
    )


def test_not_measurable_benchmarks_of_runs() -> None:
    run = run_of(
        [
            bench("stop", [metric("P", 0.2, 16, {"unparsed": 1.0})]),
            bench("crows_pairs", [metric("metric_score", 55.0, 61, {"answered": 1.0})]),
        ]
    )
    assert not_measurable_benchmarks([run]) == [
        ("m", "stop", "every metric failed a validity gate")
    ]


def test_python_api_dataframe_applies_the_gates() -> None:
    # to_dataframe(run) (what biasaudit.evaluate returns) withholds what export does
    import math

    import pandas as pd

    from biasaudit.results.schema import Breakdown, GroupValue

    answered = {"answered": 1.0}
    small = GroupValue(group="age", value=90.0, n=4, ci_low=40.0, ci_high=100.0)
    big = GroupValue(
        group="gender", value=55.0, n=40, ci_low=40.0, ci_high=70.0, outcome_rates=answered
    )
    crows = metric("metric_score", 56.0, 61, answered, (43.0, 68.0)).model_copy(
        update={"breakdowns": [Breakdown(by="bias_type", groups=[small, big])]}
    )
    run = run_of(
        [
            bench("stop", [metric("P", 0.1875, 16, {"unparsed": 1.0}, (0.1875, 0.1875))]),
            bench("crows_pairs", [crows]),
        ]
    )
    frame = to_dataframe(run)
    rows = {(r.benchmark, r.group): r for r in frame.itertuples()}
    p = rows[("stop", "")]
    assert p.not_measurable == "not measurable: answer rate 0 % (< 50 %)"
    assert all(math.isnan(v) for v in (p.value, p.ci_low, p.ci_high)) and p.n == 16
    assert p.rate_unparsed == 1.0  # the rates stay: they say why
    age = rows[("crows_pairs", "age")]
    assert age.not_measurable == "not measurable: n = 4 (< 10)" and math.isnan(age.value)
    shown = rows[("crows_pairs", "")], rows[("crows_pairs", "gender")]
    assert [(r.value, r.ci_low) for r in shown] == [(56.0, 43.0), (55.0, 40.0)]
    assert all(pd.isna(r.not_measurable) for r in shown)
    # every computed value, as results.json holds it, on request
    raw = to_dataframe(run, gated=False)
    assert raw[raw.benchmark == "stop"].value.tolist() == [0.1875]
    assert raw.not_measurable.isna().all()
