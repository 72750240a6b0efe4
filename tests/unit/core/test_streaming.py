"""Streaming runs: samples.jsonl written as samples finish, in sample order, from samples
pulled lazily; results from the compact per-sample table equal those from full records.

The model side is the real `replay` backend; the reference for "what samples.jsonl must
hold" is the pre-streaming writer (`write_samples` over the full records in sample order).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator, Sequence
from itertools import islice
from pathlib import Path

import pytest

from biasaudit import api, plugin
from biasaudit.benchmarks import Aggregate, Job, Sample, SampleScore
from biasaudit.benchmarks.calm.benchmark import CALM
from biasaudit.data import DataStore
from biasaudit.metrics import MetricSpec, frame
from biasaudit.models.replay import ReplayBackend
from biasaudit.plugin import BenchmarkSpec
from biasaudit.requests import Capability, GenerateRequest, Request, Response, request_key
from biasaudit.results.io import SAMPLES_FILE, iter_samples, read_results, write_samples
from biasaudit.results.schema import Exchange, ModelInfo, RunResult, SampleRecord, ToolkitInfo
from biasaudit.results.status import judge
from biasaudit.runner import scheduler
from biasaudit.runner.cache import NullCache
from biasaudit.runner.runner import RunConfig, run_benchmark

N_SAMPLES = 9


def rounds_of(index: int) -> int:
    """Sample i asks 3, 1, 2, 3, 1, 2, ... questions: later samples often finish first."""
    return (index % 3 + 2) % 3 + 1


class Staggered(Job):
    """Sample s<i> asks "s<i> q<k>" for k < rounds_of(i), one per round; score = #"yes"."""

    name = "staggered"
    version = "1"
    capability = Capability.GENERATE
    #: samples handed out by iter_samples so far (to see how far ahead the runner reads)
    pulled = 0

    def load_samples(self) -> list[Sample]:
        return [
            Sample(id=f"s{i}", data={"rounds": rounds_of(i)}, groups={"parity": str(i % 2)})
            for i in range(N_SAMPLES)
        ]

    def iter_samples(self) -> Iterator[Sample]:
        for sample in self.load_samples():
            type(self).pulled += 1
            yield sample

    def next_requests(self, sample: Sample, exchanges: Sequence[Exchange]) -> list[Request]:
        if len(exchanges) < sample.data["rounds"]:
            return [GenerateRequest(prompt=f"{sample.id} q{len(exchanges)}")]
        return []

    def score_sample(self, sample: Sample, exchanges: Sequence[Exchange]) -> SampleScore:
        failed = any(not e.response.ok for e in exchanges)
        return SampleScore(
            outcomes=["error" if failed else "answered"],
            scores={"yes": sum(1 for e in exchanges if e.response.text == "yes")},
            excluded=failed,
        )

    def aggregate(self, records: Sequence[SampleRecord], seed: int) -> Aggregate:
        spec = MetricSpec(name="yes", score="yes", group_by=["parity"])
        return Aggregate(metrics=[frame(records, spec, seed)])


def answers() -> dict[str, str]:
    return {
        f"s{i} q{k}": "yes" if (i + k) % 2 else "no"
        for i in range(N_SAMPLES)
        for k in range(rounds_of(i))
    }


def replay_file(tmp_path: Path, prompts: dict[str, str]) -> Path:
    path = tmp_path / "replay.jsonl"
    rows = [
        {
            "request": GenerateRequest(prompt=p).model_dump(mode="json"),
            "response": {"kind": "generate", "text": t},
        }
        for p, t in prompts.items()
    ]
    path.write_text("".join(json.dumps(row) + "\n" for row in rows))
    return path


@pytest.fixture
def registered(monkeypatch: pytest.MonkeyPatch) -> str:
    specs = dict(plugin.discover())
    specs["staggered"] = BenchmarkSpec(
        name="staggered", title="test benchmark", benchmark=f"{__name__}:Staggered"
    )
    monkeypatch.setattr(plugin, "discover", lambda: specs)
    return "staggered"


def reference_lines(tmp_path: Path, store: DataStore, replay: Path) -> bytes:
    """samples.jsonl as the pre-streaming runner wrote it: every full record, in sample order,
    written at once after the run (run_benchmark without `on_record` keeps full records)."""
    bench = Staggered(Staggered.Options(), store)
    _, records = run_benchmark(bench, ReplayBackend(replay), NullCache(), RunConfig(progress=False))
    write_samples(tmp_path, records)
    return (tmp_path / SAMPLES_FILE).read_bytes()


@pytest.mark.parametrize("setting", ["default", "tiny window and buffer", "conversations"])
def test_samples_jsonl_is_in_sample_order_and_equals_the_unstreamed_file(
    setting: str,
    tmp_path: Path,
    registered: str,
    store: DataStore,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    replay = replay_file(tmp_path, answers())
    reference = reference_lines(tmp_path, store, replay)
    if setting == "tiny window and buffer":
        monkeypatch.setattr(scheduler, "LAZY_WINDOW", 2)
        monkeypatch.setattr(scheduler, "REORDER_LIMIT", 1)
    if setting == "conversations":
        monkeypatch.setattr(ReplayBackend, "conversation_window", lambda self: 3)
    out = tmp_path / "run"
    run = api.evaluate(registered, f"replay:{replay}", output_dir=out, progress=False)
    written = (out / SAMPLES_FILE).read_bytes()
    assert [json.loads(line)["sample_id"] for line in written.splitlines()] == [
        f"s{i}" for i in range(N_SAMPLES)
    ]
    assert written == reference
    # yes-counts worked by hand from answers(): s<i> q<k> is "yes" when i + k is odd
    expected = [sum((i + k) % 2 for k in range(rounds_of(i))) for i in range(N_SAMPLES)]
    assert [r.scores["yes"] for r in iter_samples(out)] == expected
    assert run.benchmarks[0].metrics[0].value == pytest.approx(sum(expected) / N_SAMPLES)


def test_the_runner_reads_samples_a_window_ahead_not_all_at_once(
    tmp_path: Path, store: DataStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(scheduler, "LAZY_WINDOW", 2)
    monkeypatch.setattr(scheduler, "REORDER_LIMIT", 2)
    monkeypatch.setattr(Staggered, "pulled", 0)
    bench = Staggered(Staggered.Options(), store)
    ahead: list[int] = []

    def on_record(record: SampleRecord) -> None:
        ahead.append(Staggered.pulled - int(record.sample_id[1:]))

    replay = ReplayBackend(replay_file(tmp_path, answers()))
    run_benchmark(bench, replay, NullCache(), RunConfig(progress=False), on_record)
    assert len(ahead) == N_SAMPLES
    # when s<i> is written, at most window + buffer samples past it have been pulled
    assert max(ahead) <= 2 + 2 and Staggered.pulled == N_SAMPLES


def test_an_interrupted_run_leaves_a_valid_prefix_and_resume_completes_it(
    tmp_path: Path, registered: str, store: DataStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    replay = replay_file(tmp_path, answers())
    reference = reference_lines(tmp_path, store, replay)
    monkeypatch.setattr(scheduler, "LAZY_WINDOW", 3)
    calls = {"n": 0}
    real_generate = ReplayBackend.generate

    def dying_generate(self: ReplayBackend, requests: Sequence[GenerateRequest]) -> list[Response]:
        calls["n"] += 1
        if calls["n"] == 6:  # the process "dies" in the middle of the run
            raise KeyboardInterrupt
        return real_generate(self, requests)

    monkeypatch.setattr(ReplayBackend, "generate", dying_generate)
    out, cache = tmp_path / "run", tmp_path / "c.sqlite"
    kwargs = {"output_dir": out, "cache_path": cache, "progress": False}
    with pytest.raises(KeyboardInterrupt):
        api.evaluate(registered, f"replay:{replay}", **kwargs)  # type: ignore[arg-type]
    prefix = (out / SAMPLES_FILE).read_bytes()
    lines = prefix.splitlines(keepends=True)
    assert 0 < len(lines) < N_SAMPLES
    assert prefix == b"".join(reference.splitlines(keepends=True)[: len(lines)])
    assert all(SampleRecord.model_validate_json(line) for line in lines)
    assert not (out / "results.json").exists()

    monkeypatch.setattr(ReplayBackend, "generate", real_generate)
    resumed = api.evaluate(registered, f"replay:{replay}", resume=True, **kwargs)  # type: ignore[arg-type]
    assert (out / SAMPLES_FILE).read_bytes() == reference
    assert resumed.status == "complete" and read_results(out) == resumed
    assert resumed.benchmarks[0].requests_cached > 0


def calm_replay(tmp_path: Path, bench: CALM, limit: int, skip_every: int) -> Path:
    """Recorded answers for CALM's first `limit` prompts, a log-probability made from each
    request's hash; every `skip_every`-th request left out (it fails: the sample is lost)."""
    path = tmp_path / "calm.jsonl"
    with path.open("w") as handle:
        requests = [
            r for s in islice(bench.iter_samples(), limit) for r in bench.next_requests(s, [])
        ]
        for index, request in enumerate(requests):
            if index % skip_every == skip_every - 1:
                continue
            digest = hashlib.sha256(request_key(request).encode()).digest()
            response = {
                "kind": "loglikelihood",
                "logprob": -digest[0] / 7,
                "is_greedy": digest[1] < 96,
            }
            handle.write(
                json.dumps({"request": request.model_dump(mode="json"), "response": response})
                + "\n"
            )
    return path


def test_calm_results_from_the_compact_table_equal_those_from_full_records(
    tmp_path: Path, store: DataStore
) -> None:
    options = {
        "protocol": "loglikelihood",
        "tasks": "nli,sentiment",
        "noise_floor_permutations": 20,
        "bootstrap_resamples": 50,
    }
    bench = CALM.from_dict(options, store)
    backend = ReplayBackend(calm_replay(tmp_path, bench, 400, skip_every=97))
    config = RunConfig(limit=400, progress=False)
    full_result, full = run_benchmark(bench, backend, NullCache(), config)
    streamed: list[SampleRecord] = []
    result, compact = run_benchmark(bench, backend, NullCache(), config, streamed.append)
    assert streamed == full  # what is written is the full record, in the same order
    assert [r.exchanges for r in compact if not r.excluded] == [[]] * sum(
        1 for r in full if not r.excluded
    )
    assert 0 < full_result.n_excluded < 400
    drop = {"wall_time_s"}
    assert result.model_dump(exclude=drop) == full_result.model_dump(exclude=drop)
    run = RunResult(
        toolkit=ToolkitInfo(version="0", python="3"),
        created_at="now",
        model=ModelInfo(spec="replay:x", backend="replay", identity={}, fingerprint="f"),
        seed=0,
        batch_size=8,
        benchmarks=[result],
    )
    # the run status reads the first failed response of each lost sample: kept in the table
    assert judge(run, compact, ["calm"]) == judge(run, full, ["calm"])
    assert judge(run, compact, ["calm"]).status == "partial"


def test_calm_iter_samples_is_lazy_and_equals_load_samples(store: DataStore) -> None:
    bench = CALM.from_dict({"tasks": "nli"}, store)
    lazy = bench.iter_samples()
    assert not isinstance(lazy, list)
    assert list(lazy) == bench.load_samples()
