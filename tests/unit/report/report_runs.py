"""Hand-built run directories for the report tests (imported as `report_runs`: a module named
conftest would collide with the other test folders' conftest modules when collected together).

Metrics are computed with the toolkit's own `frame` (seeded, cluster bootstrap), so
the per-sample recovery in `biasaudit.report.values` meets the same numbers a real run has.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest

from biasaudit.metrics import MetricSpec, frame
from biasaudit.requests import GenerateRequest, GenerationParams, Message, Response
from biasaudit.results.digests import hash_sample_hashes
from biasaudit.results.io import write_results, write_samples
from biasaudit.results.schema import (
    BenchmarkResult,
    CIInfo,
    DataFileInfo,
    Exchange,
    MetricValue,
    ModelInfo,
    RunResult,
    SampleRecord,
    Table,
    ToolkitInfo,
)

N = 40
SEED = 0


def sample_hash(i: int) -> str:
    return hashlib.sha256(f"toy-{i}".encode()).hexdigest()


def toy_record(i: int, correct: float, outcome: str, reply: str) -> SampleRecord:
    question = f"Person {i} is from group {'ab'[i % 2]}. Is this appropriate?"
    request = GenerateRequest(
        messages=(Message(role="user", content=question),), params=GenerationParams()
    )
    return SampleRecord(
        benchmark="toy",
        sample_id=f"toy-{i}",
        sample_hash=sample_hash(i),
        groups={"group": "ab"[i % 2], "level": "hi" if i < N // 2 else "lo"},
        data={"cluster": f"c{i // 4}", "text": question},
        exchanges=[
            Exchange(request=request, response=Response(kind="generate", text=reply)),
        ],
        outcomes=[outcome],
        scores={"correct": correct, "length": len(reply), "note": "x"},
        excluded=outcome == "error",
        exclusion_reason="request failed" if outcome == "error" else None,
    )


def toy_records(correct_of: Callable[[int], float]) -> list[SampleRecord]:
    records = []
    for i in range(N):
        outcome = "refused" if i % 10 == 3 else "error" if i == 7 else "answered"
        reply = "I cannot help with that." if outcome == "refused" else f"Yes <b>{i}</b>"
        records.append(toy_record(i, correct_of(i), outcome, reply))
    return records


def toy_metrics(records: Sequence[SampleRecord]) -> list[MetricValue]:
    accuracy = frame(
        records,
        MetricSpec(
            name="accuracy",
            score="correct",
            group_by=["group"],
            cluster_by="cluster",
            description="share correct",
            higher_is_better=True,
        ),
        SEED,
    )
    accuracy_hi = frame(
        records,
        MetricSpec(
            name="accuracy_hi",
            score="correct",
            where={"level": "hi"},
            group_by=["group"],
            higher_is_better=True,
        ),
        SEED,
    )
    present = [float(r.scores["correct"]) for r in records if not r.excluded]
    spread = MetricValue(
        name="range",
        value=max(present) - min(present),
        n=len(present),
        ci_low=0.0,
        ci_high=1.0,
        ci=CIInfo(n_resamples=1000),
        statistic="max - min",
        higher_is_better=False,
    )
    return [accuracy, accuracy_hi, spread]


def toy_run(records: Sequence[SampleRecord], spec: str) -> RunResult:
    """A run whose samples hash is that of `records` (readers check it, as `score` does)."""
    bench = BenchmarkResult(
        benchmark="toy",
        version="1",
        options={"mode": "strict"},
        data_files=[DataFileInfo(path="toy/data.json", sha256="ab" * 32)],
        n_samples=len(records),
        n_excluded=sum(r.excluded for r in records),
        samples_hash=hash_sample_hashes(r.sample_hash for r in records),
        metrics=toy_metrics(records),
        tables={"steps": Table(columns=["step", "value"], rows=[[1, 0.5], [2, "none"]])},
    )
    return RunResult(
        toolkit=ToolkitInfo(version="0.1.0", git_revision="abc1234", python="3.11.2"),
        created_at="2026-01-01T00:00:00+00:00",
        model=ModelInfo(
            spec=spec, backend="replay", identity={"file_sha256": "cd" * 32}, fingerprint="fp"
        ),
        seed=SEED,
        batch_size=4,
        limit=N,
        benchmarks=[bench],
    )


def write_run(path: Path, run: RunResult, records: Sequence[SampleRecord]) -> Path:
    path.mkdir(parents=True, exist_ok=True)
    write_results(path, run)
    write_samples(path, records)
    return path


def correct_a(i: int) -> float:
    return float(i % 3 != 0)


def correct_b(i: int) -> float:
    return float(i % 3 != 0 or i % 2 == 0)


@pytest.fixture
def run_a(tmp_path: Path) -> Path:
    records = toy_records(correct_a)
    return write_run(tmp_path / "run-a", toy_run(records, "model-a"), records)


@pytest.fixture
def run_b(tmp_path: Path) -> Path:
    records = toy_records(correct_b)
    return write_run(tmp_path / "run-b", toy_run(records, "model-b"), records)
