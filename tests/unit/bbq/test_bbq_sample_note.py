"""`run bbq --sample N` draws at least one unit from every stratum, so a small N grows (24 -> 60
on all of BBQ: 15 category slices x 2 context conditions x 2 polarities). The run says so,
naming the size asked for and the size drawn, and records both in its sample plan.

The expected strata count comes from the released Religion file read directly; the drawn size
from the written samples.jsonl."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from biasaudit.cli.app import main
from biasaudit.results.io import read_results
from biasaudit.testing.checks import fake_backend


def test_a_sample_smaller_than_the_strata_says_how_many_it_drew(
    tmp_path: Path, data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = data_dir / "downstream" / "bbq" / "Religion.jsonl"
    rows = [json.loads(line) for line in path.open(encoding="utf-8") if line.strip()]
    strata = {(r["category"], r["context_condition"], r["question_polarity"]) for r in rows}
    assert len(strata) == 4  # one category slice x ambig/disambig x neg/nonneg
    out = tmp_path / "run"
    with fake_backend():
        args = ["-O", "categories=Religion", "--sample", "2", "-o", str(out), "-q"]
        main(["run", "bbq", "-m", "fake", *args])
    drawn = sum(1 for _ in (out / "samples.jsonl").open(encoding="utf-8"))
    assert drawn >= len(strata) > 2
    assert (
        f"(--sample 2 drew {drawn} samples: every one of the 4 strata (category_slice, "
        "context_condition, question_polarity) and every level of context_alignment, "
        "label_type is represented)"
    ) in capsys.readouterr().out
    plan = read_results(out).benchmark("bbq").sample_plan
    assert plan is not None and (plan.size, plan.n_units, plan.n_strata) == (2, drawn, 4)
