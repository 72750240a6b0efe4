"""`biasaudit stop align` end to end on a tiny local Llama (random weights: the numbers mean
nothing; the mechanics are checked): training data, fine-tune, both downstream runs on the
same items, the table against the benchmark's own metrics, and a resumed rerun."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from tests.conformance import tiny_models

from biasaudit.analysis import Context
from biasaudit.benchmarks.stop_downstream.align import ALIGN, AlignArgs
from biasaudit.benchmarks.stop_downstream.benchmark import DownstreamOptions, StopDownstream
from biasaudit.data import DataStore

pytestmark = pytest.mark.integration


def test_align_on_a_tiny_model(store: DataStore, tmp_path: Path) -> None:
    lm = tiny_models.build_causal_lm(
        tmp_path / "lm", tiny_models.real_tokenizer(), chat_template=True
    )
    args = AlignArgs(
        model=f"hf:{lm}",
        examples=3,
        lora={"max_steps": 2, "max_length": 256},
        per_task=4,
        max_tokens=4,
        model_args={"threads": 1},
        n_resamples=200,
    )
    ctx = Context(store=store, output_dir=tmp_path / "out", progress=False)
    result = ALIGN.run(args, ctx)
    train = (tmp_path / "out" / "train.jsonl").read_text().splitlines()
    assert len(train) == 3 and json.loads(train[0])["messages"][0]["role"] == "system"
    assert "The following scenario discusses" in json.loads(train[0])["messages"][0]["content"]
    provenance = json.loads((tmp_path / "out" / "finetune" / "provenance.json").read_text())
    assert provenance["status"] == "complete" and provenance["n_examples"] == 3
    items = [json.loads(x) for x in (tmp_path / "out" / "paired_items.jsonl").open()]
    assert len(items) == 8  # 4 StereoSet + 4 CrowS-Pairs items, each run on both models

    # the "before" column equals stop_downstream's own answer rate of the base model
    bench = StopDownstream(DownstreamOptions(per_task=4, max_tokens=4), store, 0)
    base_result, _ = ctx.run(bench, f"hf:{lm}", {"threads": 1})
    rate = base_result.metric("answer_rate")
    by_task = {g.group: g.value for b in rate.breakdowns if b.by == "task" for g in b.groups}
    table = result.tables["paired_change"]
    rows = {(r[0], r[1]): r for r in table.rows}
    assert set(rows) == {
        (t, m) for t in ("stereoset", "crows_pairs", "all") for m in ("answer_rate", "performance")
    }
    for task in ("stereoset", "crows_pairs"):
        assert rows[(task, "answer_rate")][3] == pytest.approx(by_task[task])
        assert rows[(task, "answer_rate")][2] == 4
    assert rows[("all", "answer_rate")][3] == pytest.approx(rate.value)

    # the format-only control ran by default: same number of conversations, same settings
    control_train = [json.loads(x) for x in (tmp_path / "out" / "control" / "train.jsonl").open()]
    assert len(control_train) == 3
    control_prov = json.loads(
        (tmp_path / "out" / "control" / "finetune" / "provenance.json").read_text()
    )
    assert control_prov["status"] == "complete"
    assert control_prov["settings_sha256"] == provenance["settings_sha256"]
    controlled = {(r[0], r[1]): r for r in result.tables["treatment_vs_control"].rows}
    assert set(controlled) == set(rows)
    for key, row in controlled.items():
        # base and treated columns equal the before/after columns of the paired table
        assert row[3] == rows[key][3] and row[4] == rows[key][4]
        if row[4] is not None and row[5] is not None:
            assert row[12] == pytest.approx(row[4] - row[5])  # treatment - control
    chance = {(r[0], r[1]): r for r in result.tables["accuracy_vs_chance"].rows}
    for (task, _run), row in chance.items():
        if row[2]:  # StereoSet: 2 related options of 3; CrowS-Pairs: 1 of 2
            assert row[4] == pytest.approx(200 / 3 if task == "stereoset" else 50.0)
    assert any("format-only control" in note for note in result.notes)

    # a rerun reuses the fine-tune (same provenance) and the cached replies
    again = ALIGN.run(args, ctx)
    assert again.tables["paired_change"].rows == table.rows
    assert json.loads((tmp_path / "out" / "finetune" / "provenance.json").read_text()) == provenance


def test_align_without_controls_says_so(store: DataStore, tmp_path: Path) -> None:
    lm = tiny_models.build_causal_lm(
        tmp_path / "lm", tiny_models.real_tokenizer(), chat_template=True
    )
    args = AlignArgs(
        model=f"hf:{lm}",
        examples=2,
        lora={"max_steps": 1, "max_length": 256},
        per_task=2,
        max_tokens=2,
        model_args={"threads": 1},
        n_resamples=100,
        controls="none",
    )
    result = ALIGN.run(args, Context(store=store, output_dir=tmp_path / "out", progress=False))
    assert any(note.startswith("NO CONTROL ARM RAN") for note in result.notes)
    assert "treatment_vs_control" not in result.tables
    assert not (tmp_path / "out" / "control").exists()
