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
    assert any(note.startswith("NO CONTROL ARM RAN") for note in result.notes)
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
