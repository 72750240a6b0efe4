"""The audit planner (issue 29 item 2): predicted MDEs against statsmodels' power solver,
the budget's choice by hand, and the commands on the fake backend (`--plan-only` loads no
weights; `--budget` too small is one line, exit 2; an audit records the costs it measured)."""

from __future__ import annotations

import json
import statistics
from collections.abc import Iterator
from pathlib import Path

import pytest
from statsmodels.stats.power import NormalIndPower

from biasaudit.audit.planner import (
    BenchmarkForecast,
    CellPlan,
    Cost,
    allocate,
    load_costs,
    mde_of,
    parse_duration,
    record_costs,
)
from biasaudit.cli.app import main
from biasaudit.errors import RunError
from biasaudit.models.spec import BACKENDS


@pytest.fixture(autouse=True)
def fake_backend(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[None]:
    monkeypatch.setitem(BACKENDS._paths, "fake", "biasaudit.testing.fake_backend:FakeBackend")
    monkeypatch.setitem(BACKENDS._descriptions, "fake", "conformance fake")
    monkeypatch.setenv("BIASAUDIT_CACHE_DIR", str(tmp_path / "cache"))
    yield


@pytest.mark.parametrize(
    ("text", "seconds"), [("90s", 90), ("15m", 900), ("1.5h", 5400), ("2", 120)]
)
def test_durations(text: str, seconds: float) -> None:
    assert parse_duration(text) == seconds


@pytest.mark.parametrize("text", ["", "soon", "-5m", "0s", "15 parsecs"])
def test_bad_durations_are_one_line(text: str) -> None:
    with pytest.raises(RunError, match="--budget"):
        parse_duration(text)


@pytest.mark.parametrize(
    ("n", "sd", "alpha"), [(31, 50.0, 0.05), (1508, 50.0, 0.05 / 40), (10, 1.0, 0.01)]
)
def test_one_sample_mde_matches_statsmodels(n: int, sd: float, alpha: float) -> None:
    # a one-sample z test is NormalIndPower with ratio 0 (the second group absent)
    d = NormalIndPower().solve_power(effect_size=None, nobs1=n, alpha=alpha, power=0.8, ratio=0)
    assert mde_of(CellPlan("gender", n), sd, alpha) == pytest.approx(d * sd, rel=1e-4)


@pytest.mark.parametrize(("n", "rest"), [(9, 18), (40, 200), (5, 5)])
def test_contrast_mde_matches_statsmodels(n: int, rest: int) -> None:
    d = NormalIndPower().solve_power(
        effect_size=None, nobs1=n, alpha=0.01, power=0.8, ratio=rest / n
    )
    assert mde_of(CellPlan("gender/female", n, rest), 50.0, 0.01) == pytest.approx(d * 50, rel=1e-4)
    assert mde_of(CellPlan("x", n, 0), 50.0, 0.01) is None


def _step(name: str, samples: int, seconds: float, n: int) -> BenchmarkForecast:
    cells = [CellPlan("gender", n)]
    return BenchmarkForecast(name, None, samples, samples, seconds, 50.0, "measured", cells)


def test_the_budget_buys_the_cheap_benchmark_in_full_first() -> None:
    ladders = {
        "cheap": [_step("cheap", 100, 10, 100), _step("cheap", 1500, 150, 1500)],
        "dear": [_step("dear", 20, 200, 20), _step("dear", 60, 600, 60)],
    }
    # 210 s: the smallest plan; 400 s: room for the cheap step (+140 s), not the dear (+400 s)
    chosen = allocate(ladders, 400, 0.05)
    assert chosen["cheap"].samples == 1500 and chosen["dear"].samples == 20
    everything = allocate(ladders, 10_000, 0.05)
    assert everything["cheap"].samples == 1500 and everything["dear"].samples == 60
    with pytest.raises(RunError, match=r"buys nothing: the smallest plan .* about 3.5 min"):
        allocate(ladders, 100, 0.05)


def test_costs_round_trip(tmp_path: Path) -> None:
    record_costs("m", {"a": Cost(0.5, 2.0, 40.0)}, tmp_path)
    record_costs("m", {"b": Cost(1.0, 1.0, None)}, tmp_path)
    assert load_costs("m", tmp_path) == {"a": Cost(0.5, 2.0, 40.0), "b": Cost(1.0, 1.0, None)}
    assert load_costs("other", tmp_path) == {}
    (tmp_path / "costs.json").write_text("{damaged")
    assert load_costs("m", tmp_path) == {}


BENCHES = "crows_pairs,stop"


def test_plan_only_loads_no_weights_and_an_audit_records_costs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import biasaudit.models.spec as spec

    def no_weights(*args: object, **kwargs: object) -> None:
        raise AssertionError("--plan-only loaded a model")

    plan = ["audit", "-m", "fake:a", "--suite", "demo", "--benchmarks", BENCHES, "--plan-only"]
    with monkeypatch.context() as patch:
        patch.setattr(spec, "load_backend", no_weights)
        assert main(plan) == 0
    first = capsys.readouterr().out
    assert "predicted time: unknown" in first and "crows_pairs" in first
    out = tmp_path / "audit"
    argv = ["audit", "-m", "fake:a", "--suite", "demo", "--benchmarks", BENCHES, "-q"]
    assert main([*argv, "-o", str(out)]) == 0
    stored = json.loads((tmp_path / "cache" / "costs.json").read_text())
    assert set(stored["fake:a"]) == {"crows_pairs", "stop"}
    capsys.readouterr()
    with monkeypatch.context() as patch:
        patch.setattr(spec, "load_backend", no_weights)
        assert main(plan) == 0
    second = capsys.readouterr().out
    assert "predicted time: unknown" not in second and "measured" in second


def test_a_budget_too_small_is_one_line_and_a_budget_runs_the_chosen_sizes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["audit", "-m", "fake:a", "--benchmarks", BENCHES, "-q"]
    record_costs("fake:a", {"crows_pairs": Cost(1.0, 2.0, 50.0), "stop": Cost(5.0, 3.0, 0.5)})
    assert main([*argv, "--budget", "10s", "-o", str(tmp_path / "x")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "buys nothing" in err[0] and "give at least --budget" in err[0]
    assert not (tmp_path / "x").exists()
    # crows_pairs: 1,508 pairs x 2 requests x 1 s = 50 min at every size; stop demo 12 x 15 s
    assert main([*argv, "--budget", "56m", "-o", str(tmp_path / "b"), "--plan-only"]) == 0
    out = capsys.readouterr().out
    assert "budget 56.0 min" in out


def test_a_budget_measures_a_new_model_with_a_pilot_then_runs_what_it_buys(
    tmp_path: Path,
) -> None:
    from biasaudit.audit.folder import read_audit

    out = tmp_path / "audit"
    argv = ["audit", "-m", "fake:a", "--benchmarks", BENCHES, "-q", "--budget", "30m"]
    assert main([*argv, "-o", str(out)]) == 0
    costs = load_costs("fake:a")
    assert set(costs) == {"crows_pairs", "stop"}  # the pilot's, then the audit's
    info = read_audit(out)
    rows = {b.name: b for b in info.benchmarks}
    # the fake backend answers in microseconds: 30 minutes buy every benchmark's largest size
    assert rows["crows_pairs"].n_samples == 1508
    assert all(b.status == "complete" for b in info.benchmarks)
    assert info.suite == "budget 30 min"


def test_an_sd_measured_on_few_units_is_not_trusted() -> None:
    from types import SimpleNamespace

    from biasaudit.audit.planner import MIN_SD_UNITS, unit_sd
    from biasaudit.profile_spec import Effect

    effect = Effect(
        metric="m", scale="s", unbiased=0.0, direction="d", group_key="g", axes={"x": "gender"},
        value=lambda r: r.scores["v"],
    )  # fmt: skip

    def records(values: list[float]) -> list[SimpleNamespace]:
        return [SimpleNamespace(groups={"g": "x"}, scores={"v": v}) for v in values]

    assert unit_sd(records([0.0] * 6), effect) is None  # 6 agreeing units: no sd of 0
    many = [float(i % 2) for i in range(MIN_SD_UNITS)]
    assert unit_sd(records(many), effect) == pytest.approx(statistics.stdev(many))


def test_a_plan_with_nothing_to_run_says_so(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["audit", "-m", "fake:a", "--benchmarks", "beads", "--plan-only"]) == 0
    out = capsys.readouterr().out
    assert "skipped: beads" in out and "nothing would run" in out and "0.0 min" not in out
