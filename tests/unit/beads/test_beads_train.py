"""Classifier training on a tiny random BERT encoder (fast), loaded back by the hf backend."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from tests.unit.beads.train_oracle import build_encoder

from biasaudit.benchmarks.beads.dataset import BeadsData
from biasaudit.benchmarks.beads.train import TrainConfig, train_classifier
from biasaudit.data import DataStore
from biasaudit.errors import DataError

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "beads"
LABELS = ("neutral", "biased")


@pytest.fixture(scope="module")
def encoder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    pytest.importorskip("transformers")
    return build_encoder(tmp_path_factory.mktemp("encoder"), dropout=0.1)


def _rows(key: str) -> list[tuple[str, str]]:
    return [(r["text"], r["label"]) for r in BeadsData(FIXTURES).load(key).rows]


def test_early_stopping_keeps_the_best_epoch(encoder: Path, tmp_path: Path) -> None:
    train = _rows("1-Text_Classification/bias_train")
    # validation = the training texts with flipped labels: fitting the training data better
    # can only raise the validation loss, so the first epoch is the best and training stops
    flipped = [(t, "neutral" if y == "biased" else "biased") for t, y in train]
    config = TrainConfig(learning_rate=1e-3, max_epochs=6, patience=2, batch_size=16)
    result = train_classifier(
        train,
        flipped,
        LABELS,
        tmp_path / "out",
        config=config,
        encoder=encoder,
        progress=lambda done, total: None,
    )
    losses = [h.valid_loss for h in result.history]
    assert result.best_epoch == losses.index(min(losses)) + 1
    assert result.stopped.startswith("early stopping") and len(result.history) < 6
    record = json.loads((tmp_path / "out" / "training.json").read_text())
    assert record["best_epoch"] == result.best_epoch
    assert record["config"]["learning_rate"] == 1e-3 and record["n_train"] == 60


def test_saved_model_is_an_hf_classifier(encoder: Path, tmp_path: Path) -> None:
    from biasaudit.models.hf import HFBackend
    from biasaudit.requests import ClassifyRequest

    train = _rows("1-Text_Classification/bias_train")
    valid = _rows("1-Text_Classification/bias_valid")
    config = TrainConfig(learning_rate=1e-3, max_epochs=2, batch_size=16)
    train_classifier(
        train,
        valid,
        LABELS,
        tmp_path / "m",
        config=config,
        encoder=encoder,
        progress=lambda done, total: None,
    )
    backend = HFBackend(str(tmp_path / "m"), threads=1)
    assert backend.task == "classifier"
    response = backend.classify([ClassifyRequest(text="Old people are slow.")])[0]
    assert set(response.label_probs or {}) == set(LABELS)
    assert sum((response.label_probs or {}).values()) == pytest.approx(1.0)


def test_bad_training_data(encoder: Path, tmp_path: Path) -> None:
    with pytest.raises(DataError, match="training data is empty"):
        train_classifier([], [("a", "biased")], LABELS, tmp_path, encoder=encoder)
    with pytest.raises(DataError, match="validation data has label 'toxic'"):
        train_classifier([("a", "biased")], [("a", "toxic")], LABELS, tmp_path, encoder=encoder)


def test_train_analysis_evaluates_the_saved_model(
    encoder: Path, tmp_path: Path, store: DataStore
) -> None:
    from biasaudit.analysis import Context
    from biasaudit.benchmarks.beads.analyses import TrainArgs, train

    ctx = Context(store=store, output_dir=tmp_path, progress=False, use_cache=False)
    args = TrainArgs(encoder=str(encoder), max_epochs=1, learning_rate=1e-3)
    result = train(args, ctx)
    assert (tmp_path / "model" / "training.json").is_file()
    accuracy = next(m for m in result.metrics if m.name == "accuracy")
    assert accuracy.n == 20  # the 20 demo validation texts, scored through the classify task
    assert result.tables["confusion"].rows[0][0] == "neutral"
    assert ctx.models[-1].spec == f"hf:{tmp_path / 'model'}"


def test_train_refuses_unnamed_sentiment_ids_before_training(
    tmp_path: Path, store: DataStore
) -> None:
    from biasaudit.analysis import Context
    from biasaudit.benchmarks.beads.analyses import TrainArgs, train
    from biasaudit.errors import DataError

    ctx = Context(store=store, output_dir=tmp_path, progress=False, use_cache=False)
    with pytest.raises(DataError, match=r"sentiment-valid\.csv: sentiment labels 0/1/2"):
        train(TrainArgs(subtask="sentiment", encoder="unused", max_epochs=1), ctx)
    assert not (tmp_path / "model").exists()


def test_train_maps_numeric_sentiment_ids_with_sentiment_names(
    encoder: Path, tmp_path: Path, store: DataStore
) -> None:
    from biasaudit.analysis import Context
    from biasaudit.benchmarks.beads.analyses import TrainArgs, train

    ctx = Context(store=store, output_dir=tmp_path, progress=False, use_cache=False)
    names = {"0": "negative", "1": "neutral", "2": "positive"}
    args = TrainArgs(
        subtask="sentiment", sentiment_names=names, encoder=str(encoder), max_epochs=1,
        evaluate=False,
    )  # fmt: skip
    train(args, ctx)
    saved = json.loads((tmp_path / "model" / "config.json").read_text())
    assert sorted(saved["id2label"].values()) == ["negative", "neutral", "positive"]


def _mean_loss(folder: Path, rows: list[tuple[str, str]]) -> float:
    """Mean cross-entropy of the saved classifier on `rows`, one text at a time (no padding):
    the quantity the best epoch is chosen by, recomputed from the folder on disk."""
    import torch
    from transformers import AutoModelForSequenceClassification, AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(folder, local_files_only=True)
    model = AutoModelForSequenceClassification.from_pretrained(folder, local_files_only=True)
    model.eval()
    label2id = model.config.label2id
    total = 0.0
    with torch.inference_mode():
        for text, label in rows:
            logits = model(**tokenizer(text, return_tensors="pt")).logits[0]
            total -= float(torch.log_softmax(logits, dim=-1)[label2id[label]])
    return total / len(rows)


def test_the_saved_weights_are_the_best_epochs_not_the_last(encoder: Path, tmp_path: Path) -> None:
    train = _rows("1-Text_Classification/bias_train")
    # flipped validation labels: the validation loss rises as training fits, so the best
    # epoch is an early one and the last epoch is worse
    flipped = [(t, "neutral" if y == "biased" else "biased") for t, y in train]
    config = TrainConfig(learning_rate=5e-3, max_epochs=4, patience=3, batch_size=16)
    result = train_classifier(
        train, flipped, LABELS, tmp_path / "out", config=config, encoder=encoder,
        progress=lambda done, total: None,
    )  # fmt: skip
    losses = [h.valid_loss for h in result.history]
    assert len(losses) >= 2 and losses[-1] > min(losses) + 0.01  # the last epoch is worse
    saved = _mean_loss(tmp_path / "out", flipped)
    assert saved == pytest.approx(min(losses), abs=1e-5)
