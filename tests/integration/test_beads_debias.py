"""`biasaudit beads debias` on the demo pairs with a tiny local Llama (random weights) as the
model and the conformance suite's deterministic fake judge: the split, the fine-tune, and the
side-by-side table against stand-alone `rewrite` runs of the base and the fine-tuned model."""

from __future__ import annotations

import csv
import dataclasses
import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from tests.conformance import tiny_models

from biasaudit.analysis import Context
from biasaudit.benchmarks.beads.analyses import RewriteArgs, rewrite_judged
from biasaudit.benchmarks.beads.benchmark import DEMO
from biasaudit.benchmarks.beads.debias import DEBIAS, DebiasArgs, split_pairs
from biasaudit.data import DataStore
from biasaudit.errors import DataError
from biasaudit.models.spec import BACKENDS

pytestmark = pytest.mark.integration


@pytest.fixture(autouse=True)
def fake_backend(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setitem(BACKENDS._paths, "fake", "biasaudit.testing.fake_backend:FakeBackend")
    monkeypatch.setitem(BACKENDS._descriptions, "fake", "conformance fake")
    yield


def test_split_is_seeded_and_leaves_training_pairs() -> None:
    pairs = [(str(i), str(i)) for i in range(8)]
    train, test = split_pairs(pairs, 3, seed=0)
    assert len(test) == 3 and sorted(train + test) == list(range(8))
    assert split_pairs(pairs, 3, seed=0) == (train, test)
    assert split_pairs(pairs, 3, seed=1) != (train, test)
    with pytest.raises(DataError, match="8 pairs: --test-size 8 leaves nothing to train on"):
        split_pairs(pairs, 8, seed=0)


def test_debias_on_the_demo_pairs(
    store: DataStore, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # a relative --output (it crashed after the fine-tune)
    lm = tiny_models.build_causal_lm(
        tmp_path / "lm", tiny_models.real_tokenizer(), chat_template=True
    )
    args = DebiasArgs(
        model=f"hf:{lm}",
        judge="fake",
        embedder="fake",
        model_args={"threads": 1},
        test_size=3,
        lora={"max_steps": 2, "batch_size": 2, "r": 4, "learning_rate": 1e-3, "max_length": 256},
    )
    ctx = Context(store=store, output_dir=Path("out"), progress=False)
    result = DEBIAS.run(args, ctx)
    assert not any(note.startswith("NO CONTROL ARM RAN") for note in result.notes)
    with (tmp_path / "out" / "test_pairs.csv").open(newline="") as handle:
        held = list(csv.DictReader(handle))
    with (DEMO / "5-Language-Generation" / "bias-debias.csv").open(newline="") as handle:
        demo = list(csv.DictReader(handle))
    assert len(held) == 3 and all(row in demo for row in held)
    provenance = json.loads((tmp_path / "out" / "finetune" / "provenance.json").read_text())
    assert provenance["n_examples"] == len(demo) - 3 and provenance["settings"]["r"] == 4
    assert provenance["settings"]["dropout"] == 0.2  # Table A6 default kept

    table = result.tables["side_by_side"]
    assert {row[1] for row in table.rows} == {"original", "reference", "base model", "fine-tuned"}
    # each column equals a stand-alone rewrite run on the held-out pairs
    override = {"5-Language-Generation/bias_debias": str(tmp_path / "out" / "test_pairs.csv")}
    for label, spec in (("base model", f"hf:{lm}"), ("fine-tuned", provenance["model_spec"])):
        alone = rewrite_judged(
            RewriteArgs(model=spec, judge="fake", embedder="fake", model_args={"threads": 1}),
            dataclasses.replace(ctx, output_dir=tmp_path / f"alone-{label}"),
            override,
        )
        expected = {(r[0], r[2], r[5]) for r in alone.tables["by_kind"].rows if r[1] == "model"}
        assert {(r[0], r[2], r[5]) for r in table.rows if r[1] == label} == expected

    # the format-only control (default): as many neutral rewrite conversations, same settings
    control = json.loads((tmp_path / "out/control/finetune/provenance.json").read_text())
    assert control["n_examples"] == provenance["n_examples"]
    assert control["settings"] == provenance["settings"]
    lines = (tmp_path / "out/control/train.jsonl").read_text().splitlines()
    texts = [
        m["content"].rsplit("\nBiased: ", 1)[-1]
        for line in lines
        for m in json.loads(line)["messages"]
    ]  # the sentence each user turn asks to rewrite (after the paper's prompt), and each answer
    assert len(texts) == 2 * control["n_examples"]
    demo_texts = {row["biased_text"] for row in demo} | {row["debiased_text"] for row in demo}
    assert not any(d in t for t in texts for d in demo_texts)
    # each column of treatment_vs_control equals a stand-alone rewrite run of that model
    runs = {
        "base": f"hf:{lm}",
        "treated": provenance["model_spec"],
        "control": control["model_spec"],
    }
    by_kind = {}
    for name, spec in runs.items():
        alone = rewrite_judged(
            RewriteArgs(model=spec, judge="fake", embedder="fake", model_args={"threads": 1}),
            dataclasses.replace(ctx, output_dir=tmp_path / f"again-{name}"),
            override,
        )
        by_kind[name] = {r[0]: r[2] for r in alone.tables["by_kind"].rows if r[1] == "model"}
        rewritten = (tmp_path / f"again-{name}" / "rewrites.jsonl").read_text().count('"model"')
        by_kind[name]["rewritten"] = 100.0 * rewritten / 3
    rows = {r[0]: r for r in result.tables["treatment_vs_control"].rows}
    assert rows["similarity"][5:8] == pytest.approx(
        [by_kind[n]["meaning_similarity"] for n in ("base", "treated", "control")]
    )
    assert rows["rewritten"][5:8] == pytest.approx(
        [by_kind[n]["rewritten"] for n in ("base", "treated", "control")]
    )
    for question in ("bias", "toxicity", "knowledge_retention", "faithfulness", "relevancy"):
        if question in rows:
            expected_shares = [by_kind[n].get(question) for n in ("base", "treated", "control")]
            assert rows[question][5:8] == [None if v is None else 100 * v for v in expected_shares]
    for row in rows.values():  # treated − control, exactly, whenever both exist
        if row[6] is not None and row[7] is not None:
            assert row[14] == pytest.approx(row[6] - row[7])
    assert any(
        n.startswith("similarity: no effect of the debiasing pairs")
        or n.startswith("similarity: the debiasing pairs changed it")
        for n in result.notes
    )


def test_debias_without_controls_says_so_loudly(store: DataStore, tmp_path: Path) -> None:
    lm = tiny_models.build_causal_lm(
        tmp_path / "lm", tiny_models.real_tokenizer(), chat_template=True
    )
    args = DebiasArgs(
        model=f"hf:{lm}",
        judge="fake",
        embedder="fake",
        model_args={"threads": 1},
        test_size=3,
        controls="none",
        lora={"max_steps": 1, "batch_size": 2, "r": 4, "max_length": 256},
    )
    ctx = Context(store=store, output_dir=tmp_path / "out", progress=False)
    result = DEBIAS.run(args, ctx)
    assert any(note.startswith("NO CONTROL ARM RAN (--controls none)") for note in result.notes)
    assert "treatment_vs_control" not in result.tables
    assert not (tmp_path / "out" / "control").exists()
