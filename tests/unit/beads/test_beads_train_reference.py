"""`beads train` (benchmarks/beads/train.py) against a naive reference loop and hand counts.

Every test trains a tiny random BERT (1 layer, hidden size 32, no dropout) on a few hand-made
texts for 1-4 epochs: seconds, no download. Oracles:
- the per-epoch history (train loss, validation loss, accuracy, macro-F1) comes from
  `train_oracle.reference`, a plain training loop written from the module's documented rules
  (AdamW, the rows shuffled by `random` seeded with the config's seed, linear warm-up to the
  learning rate over `int(warmup_ratio * total steps)` steps, the validation loss as the mean
  per-text cross-entropy, scored one text at a time without padding) with accuracy and
  macro-F1 from scikit-learn;
- early stopping from a learning rate (1e-30) too small to move any float32 weight: the
  validation loss is then the same every epoch, so by hand the first epoch is the best and
  training stops after 1 + patience epochs; and from one (1e30) that makes every loss nan;
- checksums from hashlib over the bytes written out here, step counts by hand
  (ceil(rows / batch size) per epoch), file names and label maps typed here.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
import time
from pathlib import Path
from typing import Any

import pytest
from tests.unit.beads.train_oracle import (
    LABELS,
    TRAIN,
    VALID,
    build_encoder,
    load,
    reference,
    score,
    small_config,
    train,
)

from biasaudit.benchmarks.beads.train import TrainConfig, train_classifier
from biasaudit.errors import RunError


@pytest.fixture(scope="module")
def encoder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    pytest.importorskip("transformers")
    return build_encoder(tmp_path_factory.mktemp("encoder"))


def _check_history(result: Any, expected: list[tuple[float, ...]]) -> None:
    got = [(h.train_loss, h.valid_loss, h.valid_accuracy, h.valid_macro_f1) for h in result.history]
    assert [h.epoch for h in result.history] == list(range(1, len(expected) + 1))
    for (train_loss, valid_loss, accuracy, f1), want in zip(got, expected, strict=True):
        assert train_loss == pytest.approx(want[0], rel=1e-4)
        assert valid_loss == pytest.approx(want[1], abs=1e-5)
        assert accuracy == pytest.approx(want[2])
        assert f1 == pytest.approx(want[3])


@pytest.mark.parametrize("warmup_ratio", [0.0, 0.5])
def test_history_matches_a_naive_training_loop(
    encoder: Path, tmp_path: Path, warmup_ratio: float
) -> None:
    # 3 epochs x 3 steps = 9 steps; warm-up ratio 0.5 -> int(4.5) = 4 warm-up steps
    config = small_config(max_epochs=3, warmup_ratio=warmup_ratio)
    expected = reference(encoder, config, TRAIN, VALID, LABELS)
    # the premise: the three epochs differ, so a lost epoch, step or shuffle shows
    assert len({round(e[0], 4) for e in expected}) == 3
    out = tmp_path / "runs" / "first"  # parents created
    result = train(encoder, out, config)
    _check_history(result, expected)
    assert result.stopped == "max_epochs"
    best = min(range(3), key=lambda i: expected[i][1]) + 1
    assert result.best_epoch == best
    assert result.output_dir == str(out) and result.labels == list(LABELS)
    # the saved weights are the best epoch's: its validation loss recomputed from the folder
    from transformers import AutoModelForSequenceClassification, AutoTokenizer

    saved = AutoModelForSequenceClassification.from_pretrained(out, local_files_only=True)
    tokenizer = AutoTokenizer.from_pretrained(out, local_files_only=True)
    loss, _ = score(saved, tokenizer, VALID, LABELS, 8)
    assert loss == pytest.approx(expected[best - 1][1], abs=1e-5)
    assert saved.config.id2label == {0: "positive", 1: "negative", 2: "neutral"}
    assert saved.config.label2id == {"positive": 0, "negative": 1, "neutral": 2}
    assert saved.config.num_labels == 3


def test_training_json_records_settings_data_and_history(encoder: Path, tmp_path: Path) -> None:
    config = small_config()
    expected = reference(encoder, config, TRAIN, VALID, LABELS)
    before = time.perf_counter()
    result = train(encoder, tmp_path, config)  # an existing folder is written into
    elapsed = time.perf_counter() - before
    text = (tmp_path / "training.json").read_text()
    assert text.endswith("}\n")
    record = json.loads(text)
    assert set(record) == {
        "config",
        "encoder",
        "labels",
        "n_train",
        "n_valid",
        "train_sha256",
        "valid_sha256",
        "best_epoch",
        "stopped",
        "history",
        "seconds",
    }
    assert record["config"] == {
        "learning_rate": 1e-2,
        "batch_size": 4,
        "eval_batch_size": 2,
        "max_epochs": 2,
        "patience": 5,
        "weight_decay": 0.1,
        "warmup_ratio": 0.0,
        "max_length": 8,
        "seed": 3,
        "threads": 1,
    }
    assert record["encoder"] == str(encoder)
    assert record["labels"] == ["positive", "negative", "neutral"]
    assert (record["n_train"], record["n_valid"]) == (10, 5)
    train_bytes = "".join(f"{y}\t{t}\n" for t, y in TRAIN).encode()
    assert train_bytes.startswith(
        b"positive\tWhat a lovely and generous neighbour she turned out to be in the end\n"
        b"negative\tThis is awful\n"
    )
    assert record["train_sha256"] == hashlib.sha256(train_bytes).hexdigest()
    valid_bytes = "".join(f"{y}\t{t}\n" for t, y in VALID).encode()
    assert record["valid_sha256"] == hashlib.sha256(valid_bytes).hexdigest()
    assert record["stopped"] == "max_epochs" and record["best_epoch"] == result.best_epoch
    assert [h["epoch"] for h in record["history"]] == [1, 2]
    for logged, want in zip(record["history"], expected, strict=True):
        assert logged["train_loss"] == pytest.approx(want[0], rel=1e-4)
        assert logged["valid_loss"] == pytest.approx(want[1], abs=1e-5)
        assert logged["valid_accuracy"] == pytest.approx(want[2])
        assert logged["valid_macro_f1"] == pytest.approx(want[3])
    # timings: each epoch within the run, the run within what the test measured around it
    assert 0 < sum(h.seconds for h in result.history) <= result.seconds <= elapsed
    assert record["seconds"] == result.seconds
    assert [h["seconds"] for h in record["history"]] == [h.seconds for h in result.history]


def _all_wrong(encoder: Path, seed: int) -> list[tuple[str, str]]:
    """VALID's texts, each labelled with a class the untrained model does not predict for it."""
    tokenizer, model = load(encoder, LABELS, seed)
    _, predicted = score(model, tokenizer, VALID, LABELS, 256)
    return [
        (t, LABELS[(LABELS.index(p) + 1) % 3]) for (t, _), p in zip(VALID, predicted, strict=True)
    ]


@pytest.mark.parametrize("patience", [1, 2])
def test_constant_validation_loss_stops_after_patience_epochs(
    encoder: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], patience: int
) -> None:
    valid = _all_wrong(encoder, 0)
    # lr 1e-30 moves no float32 weight: the same validation loss every epoch, so the first
    # epoch is the best and training stops after 1 + patience epochs, never reaching 6
    config = TrainConfig(learning_rate=1e-30, batch_size=4, max_epochs=6, patience=patience)
    result = train_classifier(TRAIN, valid, LABELS, tmp_path, config=config, encoder=encoder)
    losses = [h.valid_loss for h in result.history]
    assert len(losses) == 1 + patience and len(set(losses)) == 1  # the premise holds
    assert result.best_epoch == 1
    assert result.stopped == f"early stopping: no lower validation loss for {patience} epochs"
    # every text predicted wrong: accuracy 0; every class has TP = 0 -> macro-F1 0
    assert [(h.valid_accuracy, h.valid_macro_f1) for h in result.history] == [(0.0, 0.0)] * (
        1 + patience
    )
    # without a progress callback the bar is drawn: 3 steps per epoch of the planned 6 epochs
    bar = capsys.readouterr().err.split("\r")[-1]
    steps = 3 * (1 + patience)
    assert bar.startswith("beads train:") and f" {steps}/18 [" in bar
    assert re.search(r"(step/s|s/step)", bar)
    assert f"valid_loss={losses[0]:.3f}" in bar and "f1=0.00" in bar


def test_progress_bar_shows_steps_and_the_last_epochs_scores(
    encoder: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = small_config()
    expected = reference(encoder, config, TRAIN, VALID, LABELS)
    train_classifier(TRAIN, VALID, LABELS, tmp_path, config=config, encoder=encoder)
    bar = capsys.readouterr().err.split("\r")[-1]
    assert bar.startswith("beads train: 100%") and " 6/6 [" in bar
    _, valid_loss, _, f1 = expected[-1]
    assert f"valid_loss={valid_loss:.3f}" in bar and f"f1={f1:.2f}" in bar


def test_diverged_training_saves_no_model_and_says_so(encoder: Path, tmp_path: Path) -> None:
    # lr 1e30 turns the weights into inf/nan after the first step: every validation loss is
    # nan, which is never lower than anything, so no epoch is kept; patience 2 stops it after
    # epoch 2 of 4
    config = TrainConfig(learning_rate=1e30, batch_size=4, max_epochs=4, patience=2)
    message = (
        "training diverged: the validation loss was not a number in all 2 epochs, so no model "
        f"was saved in {tmp_path} (training.json has the history); try a lower learning rate"
    )
    with pytest.raises(RunError, match=f"^{re.escape(message)}$"):
        train(encoder, tmp_path, config)
    record = json.loads((tmp_path / "training.json").read_text())
    assert [math.isnan(h["valid_loss"]) for h in record["history"]] == [True, True]
    assert record["best_epoch"] == 0
    assert not (tmp_path / "config.json").exists()
