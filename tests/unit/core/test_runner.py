"""The runner, cache and run-directory logic, driven by a two-round test benchmark.

The model side is the real `replay` backend answering from a JSONL file, so these tests need
no model and still exercise the real dispatch, batching, caching and scoring paths.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import pytest

from biasaudit import api, plugin
from biasaudit.benchmarks import Aggregate, Benchmark, Sample, SampleScore
from biasaudit.data import DataStore
from biasaudit.errors import CapabilityError, RunError
from biasaudit.metrics import MetricSpec, frame
from biasaudit.models.base import Backend
from biasaudit.models.replay import ReplayBackend
from biasaudit.plugin import BenchmarkSpec
from biasaudit.profile.frame import to_dataframe
from biasaudit.requests import Capability, GenerateRequest, LoglikelihoodRequest, Request, Response
from biasaudit.results.io import iter_samples, read_results
from biasaudit.results.schema import Exchange, SampleRecord
from biasaudit.runner.cache import ResponseCache
from biasaudit.runner.runner import RunConfig, check_capabilities, parse_shard, run_benchmark

N_SAMPLES = 6


class TwoRounds(Benchmark):
    """Asks Q<i>; if the answer is "yes", asks a follow-up. Score = number of "yes"."""

    name = "two-rounds"
    version = "1"

    def required_capabilities(self) -> frozenset[Capability]:
        return frozenset({Capability.GENERATE})

    def data_keys(self) -> list[str]:
        return []

    def load_samples(self) -> list[Sample]:
        return [
            Sample(id=f"s{i}", data={"q": f"Q{i % 4}"}, groups={"parity": str(i % 2)})
            for i in range(N_SAMPLES)
        ]

    def next_requests(self, sample: Sample, exchanges: Sequence[Exchange]) -> list[Request]:
        if not exchanges:
            return [GenerateRequest(prompt=sample.data["q"])]
        if len(exchanges) == 1 and exchanges[0].response.text == "yes":
            return [GenerateRequest(prompt=sample.data["q"] + " again")]
        return []

    def score_sample(self, sample: Sample, exchanges: Sequence[Exchange]) -> SampleScore:
        yes = sum(1 for e in exchanges if e.response.text == "yes")
        failed = any(not e.response.ok for e in exchanges)
        return SampleScore(
            outcomes=["error" if failed else "answered"],
            scores={"yes": yes},
            excluded=failed,
            exclusion_reason="error" if failed else None,
        )

    def aggregate(self, records: Sequence[SampleRecord], seed: int) -> Aggregate:
        spec = MetricSpec(name="yes", score="yes", group_by=["parity"])
        return Aggregate(metrics=[frame(records, spec, seed)])


def _replay_file(tmp_path: Path, answers: dict[str, str]) -> Path:
    path = tmp_path / "replay.jsonl"
    lines = [
        json.dumps(
            {
                "request": GenerateRequest(prompt=prompt).model_dump(mode="json"),
                "response": {"kind": "generate", "text": text},
            }
        )
        for prompt, text in answers.items()
    ]
    path.write_text("\n".join(lines) + "\n")
    return path


ANSWERS = {"Q0": "yes", "Q1": "no", "Q2": "yes", "Q3": "no", "Q0 again": "yes", "Q2 again": "no"}


@pytest.fixture
def bench(store: DataStore) -> TwoRounds:
    return TwoRounds(TwoRounds.Options(), store)


def test_rounds_dedupe_and_scores(tmp_path: Path, bench: TwoRounds) -> None:
    backend = ReplayBackend(_replay_file(tmp_path, ANSWERS))
    cache = ResponseCache(tmp_path / "c.sqlite")
    result, records = run_benchmark(bench, backend, cache, RunConfig(progress=False))
    # samples s0..s5 ask Q0 Q1 Q2 Q3 Q0 Q1: 4 distinct first-round prompts, then
    # "Q0 again" (s0, s4) and "Q2 again" (s2): 6 distinct requests in all.
    assert result.requests_sent == 6
    assert [r.scores["yes"] for r in records] == [2, 0, 1, 0, 2, 0]
    assert [len(r.exchanges) for r in records] == [2, 1, 2, 1, 2, 1]
    assert result.metric("yes").value == pytest.approx(5 / 6)
    assert len(cache) == 6

    again, _ = run_benchmark(bench, backend, cache, RunConfig(progress=False))
    assert again.requests_sent == 0
    assert again.requests_cached == 9
    assert again.metrics == result.metrics


def test_failed_requests_are_reported_and_not_cached(tmp_path: Path, bench: TwoRounds) -> None:
    partial = {k: v for k, v in ANSWERS.items() if k != "Q3"}
    backend = ReplayBackend(_replay_file(tmp_path, partial))
    cache = ResponseCache(tmp_path / "c.sqlite")
    result, records = run_benchmark(bench, backend, cache, RunConfig(progress=False))
    assert result.requests_failed == 1
    assert records[3].excluded and records[3].outcomes == ["error"]
    assert result.n_excluded == 1
    assert len(cache) == 5


def test_batch_size_does_not_change_results(tmp_path: Path, bench: TwoRounds) -> None:
    backend = ReplayBackend(_replay_file(tmp_path, ANSWERS))
    one, _ = run_benchmark(
        bench,
        backend,
        ResponseCache(tmp_path / "a.sqlite"),
        RunConfig(batch_size=1, progress=False),
    )
    many, _ = run_benchmark(
        bench,
        backend,
        ResponseCache(tmp_path / "b.sqlite"),
        RunConfig(batch_size=64, progress=False),
    )
    assert one.metrics == many.metrics


def test_limit_and_shards_partition_the_samples(tmp_path: Path, bench: TwoRounds) -> None:
    backend = ReplayBackend(_replay_file(tmp_path, ANSWERS))
    cache = ResponseCache(tmp_path / "c.sqlite")
    ids = []
    for index in range(3):
        _, records = run_benchmark(
            bench, backend, cache, RunConfig(limit=5, shard=(index, 3), progress=False)
        )
        ids.extend(r.sample_id for r in records)
    assert sorted(ids) == [f"s{i}" for i in range(5)]
    assert parse_shard("1/4") == (1, 4)
    for bad in ["4/4", "x", "1/0"]:
        with pytest.raises(RunError):
            parse_shard(bad)


def test_capability_mismatch_is_refused_with_alternatives(tmp_path: Path, store: DataStore) -> None:
    class NeedsPLL(TwoRounds):
        def required_capabilities(self) -> frozenset[Capability]:
            return frozenset({Capability.PSEUDO_LOGLIKELIHOOD})

    backend = ReplayBackend(_replay_file(tmp_path, ANSWERS))
    with pytest.raises(CapabilityError, match="needs pseudo_loglikelihood.*backends that can: hf"):
        check_capabilities(NeedsPLL(NeedsPLL.Options(), store), backend, "replay:x")


@pytest.fixture
def registered(monkeypatch: pytest.MonkeyPatch) -> str:
    specs = dict(plugin.discover())
    specs["two-rounds"] = BenchmarkSpec(
        name="two-rounds", title="test benchmark", benchmark=f"{__name__}:TwoRounds"
    )
    monkeypatch.setattr(plugin, "discover", lambda: specs)
    return "two-rounds"


def test_evaluate_writes_run_dir_and_score_recomputes(
    tmp_path: Path, registered: str, data_dir: Path
) -> None:
    replay = _replay_file(tmp_path, ANSWERS)
    out = tmp_path / "run"
    run = api.evaluate(
        registered, f"replay:{replay}", output_dir=out, data_dir=data_dir, progress=False
    )
    assert read_results(out) == run
    records = list(iter_samples(out))
    assert len(records) == N_SAMPLES
    assert run.model.identity["backend"] == "replay"
    raw = to_dataframe(run, gated=False).query("group == ''")
    assert raw["value"].iloc[0] == pytest.approx(5 / 6)
    # the default frame is validity-gated: 6 samples are under the minimum n of 10
    gated = to_dataframe(run).query("group == ''")
    assert gated["not_measurable"].iloc[0] == f"not measurable: n = {N_SAMPLES} (< 10)"

    rescored = api.score(out, data_dir=data_dir)
    assert rescored.benchmarks[0].metrics == run.benchmarks[0].metrics


def test_existing_run_dir_needs_resume_or_overwrite(
    tmp_path: Path, registered: str, data_dir: Path
) -> None:
    replay = _replay_file(tmp_path, ANSWERS)
    out = tmp_path / "run"
    kwargs = {"output_dir": out, "data_dir": data_dir, "progress": False}
    api.evaluate(registered, f"replay:{replay}", **kwargs)  # type: ignore[arg-type]
    with pytest.raises(RunError, match="--resume"):
        api.evaluate(registered, f"replay:{replay}", **kwargs)  # type: ignore[arg-type]
    with pytest.raises(RunError, match="different settings.*limit"):
        api.evaluate(registered, f"replay:{replay}", resume=True, limit=2, **kwargs)  # type: ignore[arg-type]
    resumed = api.evaluate(registered, f"replay:{replay}", resume=True, **kwargs)  # type: ignore[arg-type]
    assert resumed.benchmarks[0].requests_sent == 0
    api.evaluate(registered, f"replay:{replay}", overwrite=True, limit=2, **kwargs)  # type: ignore[arg-type]
    assert read_results(out).limit == 2


def test_shards_merge_into_the_unsharded_run(
    tmp_path: Path, registered: str, data_dir: Path
) -> None:
    replay = f"replay:{_replay_file(tmp_path, ANSWERS)}"
    full = api.evaluate(registered, replay, output_dir=tmp_path / "full", progress=False)
    shard_dirs = []
    for index in range(2):
        shard_dir = tmp_path / f"shard{index}"
        api.evaluate(registered, replay, output_dir=shard_dir, shard=(index, 2), progress=False)
        shard_dirs.append(shard_dir)
    merged = api.merge(shard_dirs, tmp_path / "merged", data_dir=data_dir)
    assert merged.benchmarks[0].metrics == full.benchmarks[0].metrics
    assert merged.benchmarks[0].samples_hash == full.benchmarks[0].samples_hash
    assert [r.sample_id for r in iter_samples(tmp_path / "merged")] == [
        f"s{i}" for i in range(N_SAMPLES)
    ]
    with pytest.raises(RunError, match="at least two"):
        api.merge(shard_dirs[:1], tmp_path / "x")


class WindowedReplay(ReplayBackend):
    """The replay backend asking the runner for a conversation window; logs each batch."""

    def __init__(self, path: Path, window: int) -> None:
        super().__init__(path)
        self.window = window
        self.batches: list[list[str | None]] = []

    def conversation_window(self) -> int:
        return self.window

    def generate(self, requests: Sequence[GenerateRequest]) -> list[Response]:
        self.batches.append([r.prompt for r in requests])
        return super().generate(requests)


@pytest.mark.parametrize(
    ("window", "expected"),
    [
        # worked by hand from ANSWERS: a finished sample is replaced by the next one at
        # once; s4 and s5 repeat s0's and s1's prompts and are answered from the cache
        (1, [["Q0"], ["Q0 again"], ["Q1"], ["Q2"], ["Q2 again"], ["Q3"]]),
        (2, [["Q0", "Q1"], ["Q0 again", "Q2"], ["Q2 again", "Q3"]]),
    ],
)
def test_conversation_window_sends_each_conversation_back_to_back(
    tmp_path: Path, bench: TwoRounds, window: int, expected: list[list[str]]
) -> None:
    backend = WindowedReplay(_replay_file(tmp_path, ANSWERS), window)
    cache = ResponseCache(tmp_path / "c.sqlite")
    result, records = run_benchmark(bench, backend, cache, RunConfig(progress=False))
    assert backend.batches == expected
    assert [r.scores["yes"] for r in records] == [2, 0, 1, 0, 2, 0]
    assert result.requests_sent == 6 and result.requests_cached == 3


class Options(Benchmark):
    """Three items of two options each, as log-likelihood requests; score = option 0 wins."""

    name = "options"
    version = "1"

    def required_capabilities(self) -> frozenset[Capability]:
        return frozenset({Capability.LOGLIKELIHOOD})

    def data_keys(self) -> list[str]:
        return []

    def load_samples(self) -> list[Sample]:
        items = {"i0": "Zebras run", "i1": "Ants carry", "i2": "Bees make"}
        return [Sample(id=k, data={"context": v}) for k, v in items.items()]

    def next_requests(self, sample: Sample, exchanges: Sequence[Exchange]) -> list[Request]:
        if exchanges:
            return []
        context = sample.data["context"]
        return [LoglikelihoodRequest(context=context, continuation=c) for c in (" far", " a")]

    def score_sample(self, sample: Sample, exchanges: Sequence[Exchange]) -> SampleScore:
        first, second = (e.response.logprob or 0.0 for e in exchanges)
        return SampleScore(outcomes=["answered"], scores={"first": float(first > second)})

    def aggregate(self, records: Sequence[SampleRecord], seed: int) -> Aggregate:
        return Aggregate(metrics=[frame(records, MetricSpec(name="first", score="first"), seed)])


class CallLog(Backend):
    """Answers log-likelihoods by length (longer = likelier) and logs each call's requests;
    asks for log-likelihood calls of 4 (a backend that groups within a call)."""

    name = "call-log"
    capabilities = frozenset({Capability.LOGLIKELIHOOD})

    def __init__(self) -> None:
        self.calls: list[list[str]] = []

    def call_size(self, kind: Capability) -> int:
        return 4 if kind is Capability.LOGLIKELIHOOD else 1

    def loglikelihood(self, requests: Sequence[LoglikelihoodRequest]) -> list[Response]:
        self.calls.append([r.context + r.continuation for r in requests])
        return [
            Response(kind=Capability.LOGLIKELIHOOD, logprob=len(r.continuation)) for r in requests
        ]


def test_loglikelihood_requests_reach_the_backend_in_text_order(
    tmp_path: Path, store: DataStore
) -> None:
    bench = Options(Options.Options(), store)
    backend = CallLog()
    result, _ = run_benchmark(
        bench, backend, ResponseCache(tmp_path / "c.sqlite"), RunConfig(progress=False)
    )
    # by hand: text order keeps each item's two options adjacent (the longest-first order
    # would put every " far" before every " a"); calls of the backend's call_size, 4
    assert backend.calls == [
        ["Ants carry a", "Ants carry far", "Bees make a", "Bees make far"],
        ["Zebras run a", "Zebras run far"],
    ]
    assert result.metric("first").value == 1.0
    backend.calls.clear()
    run_benchmark(
        bench,
        backend,
        ResponseCache(tmp_path / "d.sqlite"),
        RunConfig(batch_size=3, progress=False),
    )
    assert [len(call) for call in backend.calls] == [3, 3]  # --batch-size wins over call_size
