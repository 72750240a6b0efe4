"""The naive reference for `beads train` tests: hand-made data, a tiny encoder, and a plain
training loop written from train.py's documented rules (see test_beads_train_reference.py)."""

from __future__ import annotations

import math
import random
from pathlib import Path
from typing import Any

from biasaudit.benchmarks.beads.train import TrainConfig, minilm_encoder, train_classifier

#: label order not alphabetical, on purpose (the saved id2label must keep it)
LABELS = ("positive", "negative", "neutral")
#: 10 training texts (batches of 4: 4 + 4 + 2), some longer than max_length=8 tokens
TRAIN = [
    ("What a lovely and generous neighbour she turned out to be in the end", "positive"),
    ("This is awful", "negative"),
    ("The meeting is at noon", "neutral"),
    ("I adore this wonderful little town and all its people", "positive"),
    ("Terrible service, rude staff and cold food everywhere we went", "negative"),
    ("The report has twelve pages", "neutral"),
    ("Great job", "positive"),
    ("I hate waiting in these endless queues every single morning", "negative"),
    ("The train leaves from platform four", "neutral"),
    ("Bad idea", "negative"),
]
#: 5 validation texts (evaluation batches of 2: 2 + 2 + 1)
VALID = [
    ("Such a kind and thoughtful gift for the whole family", "positive"),
    ("Horrible weather again", "negative"),
    ("The shop opens at nine on weekdays and ten on Sundays", "neutral"),
    ("Lovely", "positive"),
    ("Dreadful", "negative"),
]


def small_config(**changes: Any) -> TrainConfig:
    """2 epochs of 3 steps (batches of 4: 4 + 4 + 2), evaluation batches of 2 (2 + 2 + 1),
    texts cut at 8 tokens, a learning rate that moves the tiny model, no early stop."""
    settings: dict[str, Any] = {
        "learning_rate": 1e-2, "batch_size": 4, "eval_batch_size": 2, "max_epochs": 2,
        "patience": 5, "weight_decay": 0.1, "max_length": 8, "seed": 3,
    }  # fmt: skip
    return TrainConfig(**{**settings, **changes})


def train(encoder: Path, out: Path, config: TrainConfig, **kwargs: Any) -> Any:
    """`train_classifier` on TRAIN / VALID / LABELS (a silent progress callback by default)."""
    kwargs.setdefault("progress", lambda done, total: None)
    return train_classifier(TRAIN, VALID, LABELS, out, config=config, encoder=encoder, **kwargs)


def build_encoder(folder: Path, dropout: float = 0.0) -> Path:
    """A 1-layer BERT encoder (hidden size 32), random weights, the real MiniLM vocabulary."""
    import torch
    from transformers import AutoTokenizer, BertConfig, BertModel

    tokenizer = AutoTokenizer.from_pretrained(str(minilm_encoder()), local_files_only=True)
    torch.manual_seed(0)
    config = BertConfig(
        vocab_size=len(tokenizer),
        hidden_size=32,
        num_hidden_layers=1,
        num_attention_heads=2,
        intermediate_size=64,
        max_position_embeddings=128,
        hidden_dropout_prob=dropout,
        attention_probs_dropout_prob=dropout,
    )
    BertModel(config).save_pretrained(folder)
    tokenizer.save_pretrained(folder)
    return folder


def load(encoder: Path, labels: tuple[str, ...], seed: int) -> tuple[Any, Any]:
    """Tokenizer and classifier as a fresh run starts them (the same seeds, the same head)."""
    import torch
    from transformers import AutoModelForSequenceClassification, AutoTokenizer

    random.seed(seed)
    torch.manual_seed(seed)
    tokenizer = AutoTokenizer.from_pretrained(encoder, local_files_only=True)
    model = AutoModelForSequenceClassification.from_pretrained(
        encoder, num_labels=len(labels), local_files_only=True
    )
    return tokenizer, model


def score(
    model: Any,
    tokenizer: Any,
    rows: list[tuple[str, str]],
    labels: tuple[str, ...],
    max_length: int,
) -> tuple[float, list[str]]:
    """Mean cross-entropy and argmax labels, one text at a time (no padding)."""
    import torch

    model.eval()
    total, predicted = 0.0, []
    with torch.inference_mode():
        for text, label in rows:
            encoded = tokenizer(text, truncation=True, max_length=max_length, return_tensors="pt")
            logits = model(**encoded).logits[0]
            total -= float(torch.log_softmax(logits, dim=-1)[labels.index(label)])
            predicted.append(labels[int(logits.argmax())])
    return total / len(rows), predicted


def reference(
    encoder: Path,
    config: TrainConfig,
    train: list[tuple[str, str]],
    valid: list[tuple[str, str]],
    labels: tuple[str, ...],
) -> list[tuple[float, ...]]:
    """(train loss, validation loss, accuracy, macro-F1) per epoch, no early stopping."""
    import torch
    from sklearn.metrics import accuracy_score, f1_score

    tokenizer, model = load(encoder, labels, config.seed)
    optimizer = torch.optim.AdamW(
        model.parameters(), lr=config.learning_rate, weight_decay=config.weight_decay
    )
    per_epoch = math.ceil(len(train) / config.batch_size)
    warmup = int(config.warmup_ratio * per_epoch * config.max_epochs)
    step, history = 0, []
    for _ in range(config.max_epochs):
        model.train()
        order = list(range(len(train)))
        random.shuffle(order)
        losses = []
        for start in range(0, len(train), config.batch_size):
            rows = [train[i] for i in order[start : start + config.batch_size]]
            encoded = tokenizer(
                [t for t, _ in rows],
                truncation=True,
                max_length=config.max_length,
                padding=True,
                return_tensors="pt",
            )
            gold = torch.tensor([labels.index(y) for _, y in rows])
            loss = torch.nn.functional.cross_entropy(model(**encoded).logits, gold)
            factor = min(1.0, (step + 1) / warmup) if warmup else 1.0
            for group in optimizer.param_groups:
                group["lr"] = config.learning_rate * factor
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            step += 1
            losses.append(float(loss.detach()))
        valid_loss, predicted = score(model, tokenizer, valid, labels, config.max_length)
        gold_labels = [y for _, y in valid]
        accuracy = accuracy_score(gold_labels, predicted)
        # classes with an undefined F1 (no gold, never predicted) are left out of the mean
        f1 = f1_score(
            gold_labels, predicted, labels=list(labels), average="macro", zero_division=float("nan")
        )
        history.append((sum(losses) / len(losses), valid_loss, accuracy, f1))
    return history
