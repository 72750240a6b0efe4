"""The one training loop: AdamW with a linear warm-up, one update step, and early stopping by
validation loss. The heads are the models it trains, anything whose forward returns a
``.loss``: the causal LM with LoRA adapters (`biasaudit.finetune.trainer`, step by step,
resumable), BEADs' sequence classifier (`benchmarks/beads/train.py`) and its token tagger
(`benchmarks/beads/spantagger.py`), both by epochs with early stopping (`fit`).

torch is imported inside the functions: importing this module costs nothing.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any


def adamw_with_warmup(
    parameters: Iterable[Any], learning_rate: float, weight_decay: float, warmup_steps: int
) -> tuple[Any, Any]:
    """AdamW and a scheduler that raises the learning rate linearly over `warmup_steps`
    (``min(1, (step + 1) / warmup)``), then holds it; no warm-up holds it from the start."""
    import torch

    optimizer = torch.optim.AdamW(parameters, lr=learning_rate, weight_decay=weight_decay)
    scheduler = torch.optim.lr_scheduler.LambdaLR(
        optimizer, lambda step: min(1.0, (step + 1) / warmup_steps) if warmup_steps else 1.0
    )
    return optimizer, scheduler


def train_step(
    model: Any,
    batch: dict[str, Any],
    optimizer: Any,
    scheduler: Any,
    max_grad_norm: float | None = None,
) -> float:
    """One update on `batch`: the loss the model returns, backward, the gradient norm clipped
    to `max_grad_norm` (over the trainable parameters) when given, a step of the optimizer
    and the scheduler. Returns the loss."""
    import torch

    loss = model(**batch).loss
    loss.backward()
    if max_grad_norm is not None:
        trainable = [p for p in model.parameters() if p.requires_grad]
        torch.nn.utils.clip_grad_norm_(trainable, max_grad_norm)
    optimizer.step()
    scheduler.step()
    optimizer.zero_grad()
    return float(loss.detach())


@dataclass
class Epoch:
    epoch: int
    #: Mean training loss over the epoch's steps (nan for an epoch without a step).
    train_loss: float
    valid_loss: float
    seconds: float


@dataclass
class Fit:
    """What `fit` did: every epoch, the best one (0: no validation loss was a number) and
    why it stopped."""

    history: list[Epoch] = field(default_factory=list)
    best_epoch: int = 0
    stopped: str = "max_epochs"


def fit(
    model: Any,
    *,
    max_epochs: int,
    patience: int,
    train_batches: Callable[[int], Iterable[dict[str, Any]]],
    valid_loss: Callable[[int], float],
    optimizer: Any,
    scheduler: Any,
    on_best: Callable[[int], None],
    on_step: Callable[[float], None] | None = None,
) -> Fit:
    """Train by epochs with early stopping.

    Each epoch: `train_batches(epoch)` in training mode, one `train_step` each (`on_step`
    gets its loss); then `valid_loss(epoch)` in evaluation mode. A validation loss below the
    best so far calls `on_best(epoch)` (keep the weights); after `patience` epochs without
    one, training stops. A loss that is not a number is never the best.
    """
    result = Fit()
    best, waited = math.inf, 0
    for epoch in range(1, max_epochs + 1):
        started = time.perf_counter()
        model.train()
        losses = []
        for batch in train_batches(epoch):
            losses.append(train_step(model, batch, optimizer, scheduler))
            if on_step is not None:
                on_step(losses[-1])
        model.eval()
        loss = valid_loss(epoch)
        mean = sum(losses) / len(losses) if losses else math.nan
        result.history.append(Epoch(epoch, mean, loss, time.perf_counter() - started))
        if loss < best:
            best, waited, result.best_epoch = loss, 0, epoch
            on_best(epoch)
        else:
            waited += 1
            if waited >= patience:
                result.stopped = f"early stopping: no lower validation loss for {waited} epochs"
                break
    return result
