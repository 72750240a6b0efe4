"""`biasaudit compare --over-seeds`: mean and sd of each metric across seeded runs."""

from __future__ import annotations

import json
import statistics
from pathlib import Path

import pytest
from report_runs import correct_a, correct_b, toy_records, toy_run, write_run

from biasaudit.cli.app import main


def test_mean_and_sd_over_seeds(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    dirs = []
    for seed, rule in ((1, correct_a), (2, correct_b)):
        records = toy_records(rule)
        run = toy_run(records, "m").model_copy(update={"seed": seed})
        dirs.append(str(write_run(tmp_path / f"s{seed}", run, records)))
    assert main(["compare", "--over-seeds", "--json", *dirs]) == 0
    rows = {(r["metric"], r["group"]): r for r in json.loads(capsys.readouterr().out)}
    # accuracy over the 39 non-excluded samples (sample 7 failed) of each toy run, by hand
    a = sum(correct_a(i) for i in range(40) if i != 7) / 39
    b = sum(correct_b(i) for i in range(40) if i != 7) / 39
    overall = rows[("accuracy", "")]
    assert overall["n_runs"] == 2
    assert overall["mean"] == pytest.approx((a + b) / 2)
    assert overall["sd"] == pytest.approx(statistics.stdev([a, b]))
    assert ("accuracy", "group=a") in rows

    same_seed = [dirs[0], dirs[0]]
    assert main(["compare", "--over-seeds", *same_seed]) == 2
    assert "different seeds" in capsys.readouterr().err
