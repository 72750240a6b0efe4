"""CSV/Parquet export, RunResult.to_dataframe, and the report/compare/export commands."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

from biasaudit.cli.app import main
from biasaudit.profile.frame import to_dataframe
from biasaudit.report.export import export_run
from biasaudit.report.runs import load_run
from biasaudit.results.schema import DATAFRAME_COLUMNS


def test_to_dataframe_keeps_rows_and_adds_columns(run_a: Path) -> None:
    run = load_run(run_a).result
    frame = to_dataframe(run)
    assert list(frame.columns[:9]) == [
        "model",
        "benchmark",
        "metric",
        "group_by",
        "group",
        "value",
        "n",
        "ci_low",
        "ci_high",
    ]
    assert list(frame.columns) == [
        *DATAFRAME_COLUMNS,
        "rate_answered",
        "rate_error",
        "rate_refused",
    ]
    # one overall row per metric plus one per group, as before
    metrics = run.benchmarks[0].metrics
    assert len(frame) == sum(1 + len(m.by_group) for m in metrics)
    overall = frame[(frame.metric == "accuracy") & (frame.group == "")].iloc[0]
    assert overall.value == pytest.approx(metrics[0].value)
    assert overall.n_excluded == 1 and overall.rate_refused == pytest.approx(0.1)
    group_a = frame[(frame.metric == "accuracy") & (frame.group == "a")].iloc[0]
    assert group_a.group_by == "group" and group_a.rate_error == 0.0
    spread = frame[frame.metric == "range"].iloc[0]
    assert pd.isna(spread.rate_answered)  # no outcome rates recorded for this metric


def test_to_dataframe_of_an_empty_run_has_the_columns(run_a: Path) -> None:
    run = load_run(run_a).result.model_copy(update={"benchmarks": []})
    assert list(to_dataframe(run).columns) == list(DATAFRAME_COLUMNS)


@pytest.mark.parametrize("fmt", ["csv", "parquet"])
def test_export(run_a: Path, tmp_path: Path, fmt: str) -> None:
    paths = export_run(run_a, fmt, tmp_path / "out")  # type: ignore[arg-type]
    assert sorted(p.name for p in paths) == sorted(
        [f"metrics.{fmt}", f"samples.{fmt}", f"table_toy_steps.{fmt}"]
    )
    read = pd.read_csv if fmt == "csv" else pd.read_parquet
    samples = read(tmp_path / "out" / f"samples.{fmt}")
    assert len(samples) == 40
    row = samples[samples.sample_id == "toy-3"].iloc[0]
    assert row.group_group == "b" and row.outcomes == "refused" and row.n_refused == 1
    assert row.score_correct == 0.0 and row.n_answered == 0
    assert samples.excluded.sum() == 1
    metrics = read(tmp_path / "out" / f"metrics.{fmt}")
    assert len(metrics) == len(to_dataframe(load_run(run_a).result))
    steps = read(tmp_path / "out" / f"table_toy_steps.{fmt}")
    assert [str(v) for v in steps.value] == ["0.5", "none"]  # mixed types survive as text


def test_cli_report_compare_export(
    run_a: Path, run_b: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "r.html"
    assert main(["report", str(run_a), str(run_b), "--output", str(out)]) == 0
    assert "model-b minus model-a" in out.read_text(encoding="utf-8")
    assert main(["report", str(run_a)]) == 0
    assert (run_a / "report.html").is_file()

    capsys.readouterr()
    assert main(["compare", str(run_a), str(run_b)]) == 0
    text = capsys.readouterr().out
    assert "toy: model-b minus model-a" in text and "paired bootstrap" in text
    assert main(["compare", str(run_a), str(run_b), "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert {r["method"] for r in rows if r["metric"] == "range"} == {"conservative"}
    assert main(["compare", str(run_a), str(run_b), "--csv"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert (
        lines[0].startswith("benchmark,metric,group,baseline,other") and len(lines) == len(rows) + 1
    )

    assert main(["export", str(run_a), "--format", "csv", "--output", str(tmp_path / "e")]) == 0
    assert (tmp_path / "e" / "samples.csv").is_file()


def test_cli_errors_exit_2(run_a: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["compare", str(run_a)]) == 2
    assert "at least two run directories" in capsys.readouterr().err
    assert main(["report", str(tmp_path / "missing")]) == 2
    assert "not a directory" in capsys.readouterr().err
    (tmp_path / "bad").mkdir()
    (tmp_path / "bad" / "results.json").write_text("{}")
    assert main(["export", str(tmp_path / "bad")]) == 2
    assert "invalid results file" in capsys.readouterr().err


def test_to_dataframe_has_contrast_rows_and_group_ci_methods(run_a: Path) -> None:
    from biasaudit.results.schema import ContrastValue

    run = load_run(run_a).result
    metric = run.benchmarks[0].metrics[0]
    contrast = ContrastValue(
        name="group: a - b", by="group", a="a", b="b", value=0.25, n_a=3, n_b=4,
        ci_low=-0.1, ci_high=0.6,
    )  # fmt: skip
    groups = [g.model_copy(update={"ci_method": "wilson-clusters"}) for g in metric.by_group]
    breakdown = metric.breakdowns[0].model_copy(update={"groups": groups})
    changed = metric.model_copy(update={"contrasts": [contrast], "breakdowns": [breakdown]})
    bench = run.benchmarks[0].model_copy(update={"metrics": [changed]})
    changed_run = run.model_copy(update={"benchmarks": [bench]})
    frame = to_dataframe(changed_run, gated=False)
    row = frame[frame.group_by == "contrast"].iloc[0]
    assert (row.metric, row.group, row.value, row.n) == (metric.name, "group: a - b", 0.25, 7)
    assert (row.ci_low, row.ci_high) == (-0.1, 0.6)
    # gated (the default): a side with 3 samples fails the n gate, as a group of 3 would
    gated = to_dataframe(changed_run)
    row = gated[gated.group_by == "contrast"].iloc[0]
    assert row.not_measurable == "not measurable: n = 3 (< 10)" and row.n == 7
    assert pd.isna(row.value) and pd.isna(row.ci_low) and pd.isna(row.ci_high)
    assert set(frame[frame.group_by == "group"].ci_method) == {"wilson-clusters"}
    assert frame[frame.group == ""].iloc[0].ci_method == metric.ci_method


def test_a_failed_export_replaces_no_file_of_the_previous_one(
    run_a: Path, run_b: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import errno

    import pandas as pd

    from biasaudit.errors import RunError
    from biasaudit.report.export import export_run

    out = tmp_path / "out"
    export_run(run_a, "csv", out)
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    real = pd.DataFrame.to_csv
    calls = {"n": 0}

    def full_on_the_second(self: pd.DataFrame, *args: object, **kwargs: object) -> object:
        calls["n"] += 1
        if calls["n"] == 2:  # metrics.csv is written, then the disk is full
            raise OSError(errno.ENOSPC, "No space left on device")
        return real(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(pd.DataFrame, "to_csv", full_on_the_second)
    with pytest.raises(RunError, match="No space left on device"):
        export_run(run_b, "csv", out)  # another run's export into the same folder
    after = {p.name: p.read_bytes() for p in out.iterdir()}
    assert after == before  # no run_b metrics.csv beside run_a's samples.csv, no temp files
