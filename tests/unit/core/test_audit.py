"""`biasaudit audit` on the conformance fake backend: folders, statuses, skips, shards, resume."""

from __future__ import annotations

import json
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any, ClassVar

import pytest

from biasaudit.audit.folder import read_audit
from biasaudit.audit.run import audit
from biasaudit.cli.app import SubsetWarning, main
from biasaudit.datasets.files import read_json_lines
from biasaudit.models.spec import BACKENDS
from biasaudit.requests import Capability
from biasaudit.results.io import read_results
from biasaudit.testing.fake_backend import FakeBackend

#: Small benchmarks (fast to load) with one that needs generation (stop) and one gated (beads).
BENCHES = ["crows_pairs", "stop", "beads"]


class LoglikelihoodOnly(FakeBackend):
    """The fake backend serving only log-likelihood requests (a base model's endpoint)."""

    name = "fake-ll"
    possible_capabilities: ClassVar[frozenset[Capability]] = frozenset({Capability.LOGLIKELIHOOD})

    def __init__(self, fail: bool = False) -> None:
        super().__init__(fail)
        self.capabilities = frozenset({Capability.LOGLIKELIHOOD})

    @classmethod
    def from_spec(cls, target: str, args: dict[str, Any]) -> LoglikelihoodOnly:
        return cls(fail=target == "error")


@pytest.fixture(autouse=True)
def fake_backends(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setitem(BACKENDS._paths, "fake", "biasaudit.testing.fake_backend:FakeBackend")
    monkeypatch.setitem(BACKENDS._descriptions, "fake", "conformance fake")
    monkeypatch.setitem(BACKENDS._paths, "fakell", f"{__name__}:LoglikelihoodOnly")
    monkeypatch.setitem(BACKENDS._descriptions, "fakell", "log-likelihood only")
    yield


def _audit(out: Path | None, models: list[str], **kwargs: Any) -> Any:
    return audit(models, "quick", out, benchmarks=BENCHES, progress=False, **kwargs)


def test_one_model_one_folder(tmp_path: Path) -> None:
    out = tmp_path / "audit"
    [item] = _audit(out, ["fake:a"])
    info = read_audit(out)
    assert info.models == ["fake:a"] and info.suite == "quick" and info.status == "complete"
    by_name = {b.name: b for b in info.benchmarks}
    assert [b.name for b in info.benchmarks] == BENCHES
    assert by_name["beads"].status == "skipped" and "gated" in (by_name["beads"].reason or "")
    assert info.skipped.keys() == {"beads"}
    run = read_results(out)
    assert [b.benchmark for b in run.benchmarks] == ["crows_pairs", "stop"]
    assert run.status == "complete" and run.skipped == {}
    for name in ("crows_pairs", "stop"):
        row, result = by_name[name], run.benchmark(name)
        assert row.status == "complete" and row.reason is None
        assert row.sample_plan is not None and result.sample_plan == row.sample_plan
        assert row.n_samples == result.n_samples == row.sample_plan.n_samples
        assert row.sample_plan.suite == "quick"
    # STOP's quick plan: every severity, demographic and sub-demographic of the data
    records = read_json_lines(out / "samples.jsonl")
    stop_groups = [r["groups"] for r in records if r["benchmark"] == "stop"]
    assert len({g["severity"] for g in stop_groups}) == 3
    assert len({g["demographic"] for g in stop_groups}) == 9
    assert len({g["sub_demographic"] for g in stop_groups}) == 45
    assert json.loads((out / "run.json").read_text())["samples"]["stop"]["plan_hash"]
    assert item.info == info


def test_unservable_benchmark_is_skipped_not_fatal(tmp_path: Path) -> None:
    out = tmp_path / "audit"
    _audit(out, ["fakell:x"])
    info = read_audit(out)
    by_name = {b.name: b for b in info.benchmarks}
    assert by_name["stop"].status == "skipped"
    assert "needs generate" in (by_name["stop"].reason or "")
    assert by_name["crows_pairs"].status == "complete"
    assert info.status == "complete"  # what could run, ran; skips are listed
    run = read_results(out)
    assert run.status == "complete" and set(run.skipped) == {"stop"}


def test_failed_requests_fail_the_benchmarks(tmp_path: Path) -> None:
    out = tmp_path / "audit"
    _audit(out, ["fake:error"])
    info = read_audit(out)
    by_name = {b.name: b for b in info.benchmarks}
    assert by_name["crows_pairs"].status == "failed"
    assert "lost to request errors" in (by_name["crows_pairs"].reason or "")
    assert info.status == "failed"


def test_several_models_one_folder_each(tmp_path: Path) -> None:
    out = tmp_path / "audit"
    runs = _audit(out, ["fake:a", "fakell:b"])
    top = read_audit(out)
    assert top.models == ["fake:a", "fakell:b"] and top.benchmarks == []
    assert [(f.model, f.folder, f.status) for f in top.folders] == [
        ("fake:a", "fake_a", "complete"),
        ("fakell:b", "fakell_b", "complete"),
    ]
    assert read_audit(out / "fake_a").models == ["fake:a"]
    assert {b.name: b.status for b in read_audit(out / "fakell_b").benchmarks}["stop"] == "skipped"
    assert [r.folder for r in runs] == [out / "fake_a", out / "fakell_b"]
    # report and compare of the audit folder read every model's folder
    assert main(["report", str(out), "-o", str(tmp_path / "r.html")]) == 0
    page = (tmp_path / "r.html").read_text()
    assert "fake:a" in page and "fakell:b" in page


def test_shards_merge_into_the_unsharded_audit(tmp_path: Path) -> None:
    whole = tmp_path / "whole"
    _audit(whole, ["fake:a"])
    for i in range(3):
        _audit(tmp_path / f"s{i}", ["fake:a"], shard=(i, 3))
    assert read_audit(tmp_path / "s1").shard == "1/3"
    merged = tmp_path / "merged"
    code = main(["merge", *(str(tmp_path / f"s{i}") for i in range(3)), "-o", str(merged)])
    assert code == 0
    info, expected = read_audit(merged), read_audit(whole)
    assert info.shard is None and info.status == "complete"
    assert [(b.name, b.status, b.n_samples) for b in info.benchmarks] == [
        (b.name, b.status, b.n_samples) for b in expected.benchmarks
    ]
    a, b = read_results(merged), read_results(whole)
    for name in ("crows_pairs", "stop"):
        assert a.benchmark(name).samples_hash == b.benchmark(name).samples_hash
        values = [(m.name, m.value) for m in a.benchmark(name).metrics]
        assert values == [(m.name, m.value) for m in b.benchmark(name).metrics]


def test_merge_refuses_shards_of_different_plans(tmp_path: Path) -> None:
    _audit(tmp_path / "s0", ["fake:a"], shard=(0, 2))
    _audit(tmp_path / "s1", ["fake:a"], shard=(1, 2), seed=1)
    code = main(["merge", str(tmp_path / "s0"), str(tmp_path / "s1"), "-o", str(tmp_path / "m")])
    assert code == 2


def test_resume_continues_and_refuses_other_settings(tmp_path: Path) -> None:
    out = tmp_path / "audit"
    _audit(out, ["fake:a"])
    [again] = _audit(out, ["fake:a"], resume=True)
    assert again.info.status == "complete"
    with pytest.raises(Exception, match="different settings"):
        _audit(out, ["fake:a"], resume=True, seed=3)
    with pytest.raises(Exception, match="already holds a run"):
        _audit(out, ["fake:a"])


def test_cli_audit(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "audit"
    args = ["audit", "-m", "fake:a", "--suite", "demo", "--benchmarks", ",".join(BENCHES)]
    code = main([*args, "-o", str(out), "-q"])
    captured = capsys.readouterr().out
    assert code == 0
    assert "audit of fake:a (demo suite): complete" in captured
    assert "beads" in captured and "skipped" in captured
    assert main([*args, "-o", str(tmp_path / "b"), "-q", "-O", "nosuch.key=1"]) == 2


def test_run_sample_records_its_plan(tmp_path: Path) -> None:
    out = tmp_path / "run"
    assert main(["run", "stop", "-m", "fake:a", "--sample", "30", "-o", str(out), "-q"]) == 0
    result = read_results(out).benchmark("stop")
    plan = result.sample_plan
    assert plan is not None and plan.suite is None and plan.size == 30
    assert plan.strata == ["severity", "demographic"] and plan.n_strata == 27
    assert result.n_samples == plan.n_samples >= 30


def test_run_limit_warns_when_it_drops_groups(tmp_path: Path) -> None:
    with pytest.warns(SubsetWarning) as caught:
        assert main(["run", "stop", "-m", "fake:a", "--limit", "45", "-q"]) == 0
    [warning] = caught
    assert "keeps 2 of 3 severity, 1 of 9 demographic" in str(warning.message)
    assert warnings.formatwarning(warning.message, SubsetWarning, "", 0) == (
        f"biasaudit: warning: {warning.message}\n"
    )
    assert main(["run", "stop", "-m", "fake:a", "--limit", "45", "--sample", "9", "-q"]) == 2


def test_compare_warns_when_sample_plans_differ(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _audit(tmp_path / "a", ["fake:a"])
    _audit(tmp_path / "b", ["fake:b"])
    _audit(tmp_path / "c", ["fake:b"], seed=5)
    capsys.readouterr()
    assert main(["compare", str(tmp_path / "a"), str(tmp_path / "b")]) == 0
    assert "drew other samples" not in capsys.readouterr().err  # same suite, same seed
    assert main(["compare", str(tmp_path / "a"), str(tmp_path / "c")]) == 0
    err = capsys.readouterr().err
    assert (
        "stop: fake:b drew other samples than the baseline (quick 54, seed 5 vs quick 54, seed 0)"
        in err
    )


def test_a_benchmark_that_crashes_fails_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from biasaudit.benchmarks.stop.benchmark import STOP

    def broken(self: Any, sample: Any, exchanges: Any) -> Any:
        raise ZeroDivisionError("division by zero in a scorer")

    monkeypatch.setattr(STOP, "score_sample", broken)
    out = tmp_path / "audit"
    [item] = _audit(out, ["fake:a"])
    by_name = {b.name: b for b in read_audit(out).benchmarks}
    assert by_name["stop"].status == "failed"
    assert by_name["stop"].reason == "ZeroDivisionError: division by zero in a scorer"
    assert by_name["crows_pairs"].status == "complete"
    assert item.info.status == "partial"
    run = read_results(out)
    assert run.status == "partial" and "stop: ZeroDivisionError" in (run.status_reason or "")


def test_an_audit_builds_each_benchmark_once_and_reads_its_samples_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 30: the audit plans with benchmark objects and runs those objects (`RunPlan`),
    on every model; each data file is checksummed once. Counted, for two models."""
    from collections import Counter

    from biasaudit.contract import Benchmark
    from biasaudit.data import store as store_module
    from biasaudit.plugin import benchmark_class

    builds: Counter[str] = Counter()
    reads: Counter[str] = Counter()
    hashed: Counter[str] = Counter()
    original_init = Benchmark.__init__

    def counted_init(self: Benchmark, *args: Any, **kwargs: Any) -> None:
        builds[self.name] += 1
        original_init(self, *args, **kwargs)

    monkeypatch.setattr(Benchmark, "__init__", counted_init)
    for name in ("crows_pairs", "stop"):
        cls = benchmark_class(name)
        original = cls.iter_samples

        def counted_iter(self: Benchmark, _original: Any = original) -> Any:
            reads[self.name] += 1
            return _original(self)

        monkeypatch.setattr(cls, "iter_samples", counted_iter)
    real_sha = store_module.file_sha256

    def counted_sha(path: Any) -> str:
        hashed[str(path)] += 1
        return real_sha(path)

    monkeypatch.setattr(store_module, "file_sha256", counted_sha)
    benches = ["crows_pairs", "stop"]
    runs = audit(["fake:a", "fake:b"], "quick", tmp_path / "audit", benchmarks=benches)
    # before issue 30 (commit f11fcdf): 5 builds, 5-6 reads and 5 checksums of each
    assert [r.info.status for r in runs] == ["complete", "complete"]
    assert builds == dict.fromkeys(benches, 1)
    assert reads == dict.fromkeys(benches, 1)
    assert hashed and set(hashed.values()) == {1}
