"""A streamed run's results are computed without holding its records: `aggregate` reads a
lazy sequence of compact records (runner/compact.py) and the metrics take columns from it in
one pass (metrics/frame.py). The results must be those of the full records.

Expected values are computed here, naively, from the full records a run wrote to
samples.jsonl (plain loops over dicts; the bootstrap CI through `bootstrap_ci`, the unchanged
primitive, fed with lists built here), and the pre-streaming path (`run_benchmark` without
`on_record`, which hands `aggregate` a list of full records) must give the same results.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from biasaudit import api, plugin
from biasaudit.benchmarks import Job, Sample, SampleScore
from biasaudit.benchmarks.calm.benchmark import CALM
from biasaudit.data import DataStore
from biasaudit.metrics import bootstrap_ci
from biasaudit.metrics.frame import MetricSpec, frame
from biasaudit.metrics.statistic import metric_from_statistic
from biasaudit.models.replay import ReplayBackend
from biasaudit.plugin import BenchmarkSpec
from biasaudit.profile.validity import judge
from biasaudit.requests import Capability, GenerateRequest, Request, request_key
from biasaudit.results.io import iter_samples
from biasaudit.results.schema import Exchange, SampleRecord
from biasaudit.runner import scheduler
from biasaudit.runner.cache import NullCache
from biasaudit.runner.compact import ChainedRecords, CompactTable
from biasaudit.runner.runner import RunConfig, run_benchmark

#: 4 templates per task, 8 names per group: NLI and sentiment, gender (3 groups) and race
#: (4 groups): 2 x 4 x (24 + 32) = 448 prompts, run 64 at a time (7 windows).
OPTIONS: dict[str, Any] = {
    "protocol": "loglikelihood",
    "tasks": "nli,sentiment",
    "templates_per_task": 4,
    "name_limit": 8,
    "noise_floor_permutations": 20,
    "bootstrap_resamples": 60,
}
WINDOW = 64


def calm_replay(path: Path, bench: CALM, skip_every: int) -> Path:
    """A recorded answer (a log-probability made from the request's hash) for every request
    of `bench`, but every `skip_every`-th one (its sample fails and is lost)."""
    requests = [r for s in bench.iter_samples() for r in bench.next_requests(s, [])]
    with path.open("w") as handle:
        for index, request in enumerate(requests):
            if index % skip_every == skip_every - 1:
                continue
            digest = hashlib.sha256(request_key(request).encode()).digest()
            response = {"kind": "loglikelihood", "logprob": -digest[0] / 7, "is_greedy": True}
            row = {"request": request.model_dump(mode="json"), "response": response}
            handle.write(json.dumps(row) + "\n")
    return path


def mean(values: list[float]) -> float:
    return sum(values) / len(values)


def naive_accuracy(records: list[SampleRecord]) -> dict[str, Any]:
    """CALM's accuracy metric from full records: overall and per group, n, outcome rates."""
    kept = [r for r in records if not r.excluded]
    out: dict[str, Any] = {
        "value": mean([float(r.scores["correct"]) for r in kept]),
        "n": len(kept),
        "n_excluded": len(records) - len(kept),
        "outcomes": Counter(o for r in records for o in r.outcomes),
        "ci": bootstrap_ci(
            [float(r.scores["correct"]) for r in kept],
            seed=0,
            n_resamples=OPTIONS["bootstrap_resamples"],
            clusters=[r.groups["template"] for r in kept],
        ),
    }
    for by in ("task", "attribute", "group", "task+group"):
        cells: dict[str, list[float]] = {}
        for r in kept:
            label = "/".join(r.groups[k] for k in by.split("+"))
            cells.setdefault(label, []).append(float(r.scores["correct"]))
        out[by] = {label: (mean(v), len(v)) for label, v in sorted(cells.items())}
    return out


def naive_calm(records: list[SampleRecord]) -> tuple[dict[str, float], float]:
    """Per-template bias (paper Eq. 1: 100 (max - min group accuracy) / pooled template
    accuracy; templates with a zero-accuracy group skipped) and the CALM score (mean over
    attributes of the mean over tasks of the mean template bias)."""
    cells: dict[tuple[str, str, str], dict[str, list[bool]]] = {}
    for r in records:
        if r.excluded:
            continue
        key = (r.data["task"], r.data["attribute"], r.data["template_id"])
        cells.setdefault(key, {}).setdefault(r.data["group"], []).append(r.scores["correct"])
    pooled: dict[str, list[bool]] = {}
    for (_, _, template), groups in cells.items():
        pooled.setdefault(template, []).extend(c for v in groups.values() for c in v)
    biases: dict[str, float] = {}
    table: dict[str, dict[str, list[float]]] = {}
    for (task, attribute, template), groups in cells.items():
        accuracies = [sum(v) / len(v) for v in groups.values()]
        if len(accuracies) < 2 or min(accuracies) == 0:
            continue
        baseline = sum(pooled[template]) / len(pooled[template])
        bias = 100 * (max(accuracies) - min(accuracies)) / baseline
        biases[f"{attribute}/{template}"] = bias
        table.setdefault(attribute, {}).setdefault(task, []).append(bias)
    score = mean([mean([mean(v) for v in tasks.values()]) for tasks in table.values()])
    return biases, score


def test_a_streamed_calm_run_over_several_windows_equals_the_full_record_computation(
    tmp_path: Path, store: DataStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    bench = CALM.from_dict(OPTIONS, store)
    n_samples = sum(1 for _ in bench.iter_samples())
    assert n_samples == 448 and n_samples > 6 * WINDOW
    replay = calm_replay(tmp_path / "replay.jsonl", bench, skip_every=89)
    monkeypatch.setattr(scheduler, "LAZY_WINDOW", WINDOW)
    monkeypatch.setattr(scheduler, "REORDER_LIMIT", 16)
    out = tmp_path / "run"
    run = api.evaluate(
        "calm",
        f"replay:{replay}",
        options={"calm": OPTIONS},
        output_dir=out,
        use_cache=False,
        progress=False,
        max_failed_samples=n_samples,
    )
    streamed = run.benchmarks[0]
    full = list(iter_samples(out))
    assert len(full) == n_samples and 0 < streamed.n_excluded < 20
    # the rest are options that tie for the best (biasaudit.likeliest: no choice)
    tied = sum(1 for r in full if r.exclusion_reason == "options tie")
    assert streamed.n_request_errors + tied == streamed.n_excluded

    # the pre-streaming path: every full record in one list, handed to `aggregate`
    old_bench = CALM.from_dict(OPTIONS, store)
    config = RunConfig(progress=False, judge=judge)
    old, old_records = run_benchmark(old_bench, ReplayBackend(replay), NullCache(), config)
    assert old_records == full
    drop = {"wall_time_s", "n_request_errors"}
    assert streamed.model_dump(exclude=drop) == old.model_dump(exclude=drop)

    metrics = {m.name: m for m in streamed.metrics}
    accuracy, expected = metrics["accuracy"], naive_accuracy(full)
    assert accuracy.value == pytest.approx(expected["value"], abs=1e-12)
    assert (accuracy.n, accuracy.n_excluded) == (expected["n"], expected["n_excluded"])
    assert (accuracy.ci_low, accuracy.ci_high) == expected["ci"]
    total = sum(expected["outcomes"].values())
    assert accuracy.outcome_rates == {k: v / total for k, v in expected["outcomes"].items()}
    for breakdown in accuracy.breakdowns:
        want = expected[breakdown.by]
        assert {g.group: g.n for g in breakdown.groups} == {k: n for k, (_, n) in want.items()}
        got = {g.group: g.value for g in breakdown.groups}
        assert got == pytest.approx({k: v for k, (v, _) in want.items()}, abs=1e-12)
    assert len(expected["task+group"]) == 2 * (3 + 4)

    biases, score = naive_calm(full)
    assert streamed.tables["exclusions"].rows == []
    template_bias = streamed.tables["template_bias"]
    got_biases = {f"{row[1]}/{row[2]}": row[5] for row in template_bias.rows if row[-1] == "ok"}
    assert got_biases == pytest.approx(biases, abs=1e-9)
    assert len(biases) >= 10
    assert metrics["bias_score"].value == pytest.approx(score, abs=1e-9)


def records_for_frame() -> list[SampleRecord]:
    """Twelve records: a score on most, one excluded, one without the score, two levels."""
    records = []
    for i in range(12):
        records.append(
            SampleRecord(
                benchmark="b",
                sample_id=f"s{i}",
                sample_hash=f"{i:064x}",
                groups={"g": "ab"[i % 2], "level": "high" if i < 6 else "low"},
                data={"cluster": f"c{i // 3}"},
                outcomes=["answered" if i % 5 else "unparsed"],
                scores={} if i == 7 else {"x": float(i * i % 7)},
                excluded=i == 4,
            )
        )
    return records


def test_frame_reads_a_one_shot_iterator_once_and_equals_the_naive_values() -> None:
    records = records_for_frame()
    spec = MetricSpec(
        name="x", score="x", group_by=["g"], cluster_by="cluster", where={"level": "high"}
    )

    def once() -> Iterator[SampleRecord]:
        yield from records

    metric = frame(once(), spec, seed=3)
    assert metric == frame(records, spec, seed=3)
    chosen = [r for r in records if r.groups["level"] == "high"]
    scored = [r for r in chosen if not r.excluded and "x" in r.scores]
    values = [r.scores["x"] for r in scored]
    assert metric.value == pytest.approx(mean(values)) and metric.n == len(values) == 5
    assert metric.n_excluded == len(chosen) - len(scored) == 1
    assert (metric.ci_low, metric.ci_high) == bootstrap_ci(
        values, seed=3, clusters=[r.data["cluster"] for r in scored]
    )
    groups = {g.group: (g.value, g.n, g.outcome_rates) for g in metric.breakdowns[0].groups}
    # by hand: x = i * i % 7 for i < 6 (level "high"), i = 4 excluded; sample 0 and 5
    # unparsed; outcome rates over every chosen sample of the group (the excluded one too)
    rates = {"answered": 2 / 3, "unparsed": 1 / 3}
    assert groups == {"a": (mean([0.0, 4.0]), 2, rates), "b": (mean([1.0, 2.0, 4.0]), 3, rates)}


def test_metric_from_statistic_reads_a_one_shot_iterator_once() -> None:
    records = records_for_frame()
    values = [float(r.scores.get("x", 0.0)) for r in records]

    def total(idx: list[int]) -> float:
        return sum(values[i] for i in idx)

    kwargs: dict[str, Any] = {
        "seed": 1, "statistic_name": "sum", "group_by": ["g"], "cluster_by": "cluster",
        "group_ci": True, "n_resamples": 40,
    }  # fmt: skip
    metric = metric_from_statistic("s", iter(records), total, **kwargs)  # type: ignore[arg-type]
    assert metric == metric_from_statistic("s", records, total, **kwargs)  # type: ignore[arg-type]
    assert metric.value == sum(values) and metric.n == 12
    by_group = {g.group: (g.value, g.n) for g in metric.breakdowns[0].groups}
    assert by_group == {"a": (sum(values[0::2]), 6), "b": (sum(values[1::2]), 6)}
    assert metric.outcome_rates == {"answered": 9 / 12, "unparsed": 3 / 12}


def test_compact_records_are_rebuilt_on_every_read_and_chain_across_benchmarks() -> None:
    records = records_for_frame()
    table = CompactTable()
    for record in records:
        table.add(record)
    compact = table.records()
    assert len(table) == 0 and len(compact) == 12
    assert list(compact) == records and list(compact) == records  # read twice
    assert compact[3] == records[3] and compact[-1] == records[-1]
    assert compact[2:5] == records[2:5]
    first, second = list(compact), list(compact)
    assert first[0] is not second[0]  # built anew: nothing per record is held between reads
    assert first[0].groups["level"] is second[1].groups["level"]  # labels are shared
    chained = ChainedRecords([compact, records[:5]])
    assert len(chained) == 17 and list(chained) == records + records[:5]
    assert chained[12] == records[0] and chained[-1] == records[4]
    assert chained[11:14] == [records[11], records[0], records[1]]
    with pytest.raises(IndexError):
        chained[17]


class Echo(Job):
    """Sample e<i> asks one question; its score is the length of the answer."""

    name = "echo"
    version = "1"
    capability = Capability.GENERATE
    metrics = (MetricSpec(name="length", score="length", group_by=["parity"]),)

    def load_samples(self) -> list[Sample]:
        return [Sample(id=f"e{i}", data={}, groups={"parity": str(i % 2)}) for i in range(20)]

    def next_requests(self, sample: Sample, exchanges: Sequence[Exchange]) -> list[Request]:
        return [] if exchanges else [GenerateRequest(prompt=f"{sample.id}?")]

    def score_sample(self, sample: Sample, exchanges: Sequence[Exchange]) -> SampleScore:
        response = exchanges[0].response
        if not response.ok:
            return SampleScore(outcomes=["error"], excluded=True, exclusion_reason="request")
        return SampleScore(outcomes=["answered"], scores={"length": len(response.text or "")})


def test_a_streamed_run_of_two_benchmarks_is_judged_over_both_without_building_them(
    tmp_path: Path, store: DataStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    specs = dict(plugin.discover())
    specs["echo"] = BenchmarkSpec(name="echo", title="test", benchmark=f"{__name__}:Echo")
    monkeypatch.setattr(plugin, "discover", lambda: specs)
    options = {**OPTIONS, "tasks": "nli", "templates_per_task": 2, "name_limit": 4}
    replay = calm_replay(tmp_path / "replay.jsonl", CALM.from_dict(options, store), 13)
    with replay.open("a") as handle:
        for i in range(19):  # e19 has no recorded answer: lost
            request = GenerateRequest(prompt=f"e{i}?").model_dump(mode="json")
            response = {"kind": "generate", "text": "x" * (i % 4)}
            handle.write(json.dumps({"request": request, "response": response}) + "\n")
    monkeypatch.setattr(scheduler, "LAZY_WINDOW", 16)
    out = tmp_path / "run"
    run = api.evaluate(
        ["calm", "echo"],
        f"replay:{replay}",
        options={"calm": options},
        output_dir=out,
        use_cache=False,
        progress=False,
    )
    full = list(iter_samples(out))
    lost: dict[str, list[str]] = {}
    for record in full:
        errors = [e.response.error for e in record.exchanges if e.response.error]
        if record.excluded and errors:
            lost.setdefault(record.benchmark, []).append(errors[0])
    n = {name: sum(1 for r in full if r.benchmark == name) for name in ("calm", "echo")}
    assert len(lost["echo"]) == 1 and 0 < len(lost["calm"]) < n["calm"]
    total_lost = len(lost["calm"]) + 1
    assert run.status == "partial"
    assert run.status_reason == (
        f"{total_lost} of {n['calm'] + n['echo']} samples lost to request errors "
        f"(calm {len(lost['calm'])}/{n['calm']}, echo 1/{n['echo']}); "
        f"first: {lost['calm'][0][:160]}"
    )
    assert [b.n_request_errors for b in run.benchmarks] == [len(lost["calm"]), 1]
    lengths = [r.scores["length"] for r in full if r.benchmark == "echo" and not r.excluded]
    assert lengths == [i % 4 for i in range(19)]
    assert run.benchmarks[1].metrics[0].value == pytest.approx(mean(lengths))
