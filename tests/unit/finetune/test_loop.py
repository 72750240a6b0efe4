"""The one training loop (biasaudit.finetune.loop): the warm-up by hand, one update against
torch's own AdamW, early stopping on a scripted validation curve."""

from __future__ import annotations

import math
from types import SimpleNamespace
from typing import Any

import pytest

torch = pytest.importorskip("torch")

from biasaudit.finetune.loop import adamw_with_warmup, fit, train_step  # noqa: E402


class Square(torch.nn.Module):  # type: ignore[misc]
    """loss = (w * x - y)^2 summed: a head in the loop's sense (forward returns .loss)."""

    def __init__(self) -> None:
        super().__init__()
        self.w = torch.nn.Parameter(torch.tensor([1.0]))

    def forward(self, x: Any, y: Any) -> SimpleNamespace:
        return SimpleNamespace(loss=((self.w * x - y) ** 2).sum())


def test_the_warm_up_by_hand() -> None:
    model = Square()
    optimizer, scheduler = adamw_with_warmup(model.parameters(), 0.1, 0.0, 4)
    rates = []
    for _ in range(6):
        rates.append(optimizer.param_groups[0]["lr"])
        optimizer.step()
        scheduler.step()
    # min(1, (step + 1) / 4) * 0.1 for steps 0..5
    assert rates == pytest.approx([0.025, 0.05, 0.075, 0.1, 0.1, 0.1])
    _, flat = adamw_with_warmup(Square().parameters(), 0.1, 0.0, 0)
    assert flat.get_last_lr() == [0.1]


def test_one_step_equals_torchs_adamw_with_the_same_settings() -> None:
    batch = {"x": torch.tensor([2.0]), "y": torch.tensor([1.0])}
    ours, theirs = Square(), Square()
    optimizer, scheduler = adamw_with_warmup(ours.parameters(), 0.01, 0.1, 0)
    loss = train_step(ours, batch, optimizer, scheduler, max_grad_norm=None)
    assert loss == pytest.approx(1.0)  # (1 * 2 - 1)^2
    reference = torch.optim.AdamW(theirs.parameters(), lr=0.01, weight_decay=0.1)
    theirs(**batch).loss.backward()
    reference.step()
    assert float(ours.w) == pytest.approx(float(theirs.w))


def test_clipping_bounds_the_gradient_norm() -> None:
    model = Square()
    optimizer, scheduler = adamw_with_warmup(model.parameters(), 0.0, 0.0, 0)
    seen: list[float] = []
    original = optimizer.step

    def step() -> None:
        seen.append(float(model.w.grad.norm()))
        original()

    optimizer.step = step
    train_step(
        model, {"x": torch.tensor([10.0]), "y": torch.tensor([0.0])}, optimizer, scheduler, 1.0
    )
    assert seen == pytest.approx([1.0])  # the raw gradient is 2 * 10 * 10 = 200


def test_early_stopping_on_a_scripted_validation_curve() -> None:
    curve = {1: 3.0, 2: 2.0, 3: 2.5, 4: 2.6, 5: 1.0}
    kept: list[int] = []
    model = Square()
    optimizer, scheduler = adamw_with_warmup(model.parameters(), 0.0, 0.0, 0)
    batch = {"x": torch.tensor([1.0]), "y": torch.tensor([1.0])}
    result = fit(
        model,
        max_epochs=5,
        patience=2,
        train_batches=lambda epoch: [batch, batch],
        valid_loss=lambda epoch: curve[epoch],
        optimizer=optimizer,
        scheduler=scheduler,
        on_best=kept.append,
    )
    assert kept == [1, 2] and result.best_epoch == 2
    assert [e.epoch for e in result.history] == [1, 2, 3, 4]  # epoch 5 never ran
    assert result.stopped == "early stopping: no lower validation loss for 2 epochs"
    assert [e.train_loss for e in result.history] == [0.0] * 4


def test_a_loss_that_is_not_a_number_is_never_the_best() -> None:
    model = Square()
    optimizer, scheduler = adamw_with_warmup(model.parameters(), 0.0, 0.0, 0)
    result = fit(
        model, max_epochs=3, patience=5, train_batches=lambda epoch: [],
        valid_loss=lambda epoch: math.nan, optimizer=optimizer, scheduler=scheduler,
        on_best=lambda epoch: None,
    )  # fmt: skip
    assert result.best_epoch == 0 and result.stopped == "max_epochs"
    assert all(math.isnan(e.train_loss) for e in result.history)


def _fit(curve: dict[int, float], *, max_epochs: int, patience: int, **hooks: Any) -> Any:
    model = Square()
    optimizer, scheduler = adamw_with_warmup(model.parameters(), 0.0, 0.0, 0)
    batches = hooks.pop("batches", lambda epoch: [])
    return fit(
        model, max_epochs=max_epochs, patience=patience, train_batches=batches,
        valid_loss=lambda epoch: curve[epoch], optimizer=optimizer, scheduler=scheduler,
        on_best=hooks.pop("on_best", lambda epoch: None), **hooks,
    )  # fmt: skip


def test_each_epoch_gets_its_number_and_each_step_its_loss() -> None:
    asked: list[int] = []
    stepped: list[float] = []

    def batches(epoch: int) -> list[dict[str, Any]]:
        asked.append(epoch)
        # w = 1 and no learning: losses (2 - 1)^2 = 1 and (3 - 1)^2 = 4
        return [
            {"x": torch.tensor([2.0]), "y": torch.tensor([1.0])},
            {"x": torch.tensor([3.0]), "y": torch.tensor([1.0])},
        ]

    result = _fit({1: 5.0, 2: 4.0, 3: 3.0}, max_epochs=3, patience=9, batches=batches,
                  on_step=stepped.append)  # fmt: skip
    assert asked == [1, 2, 3]  # every epoch, no more
    assert stepped == pytest.approx([1.0, 4.0] * 3)
    assert [e.train_loss for e in result.history] == pytest.approx([2.5] * 3)  # (1 + 4) / 2
    assert [e.valid_loss for e in result.history] == [5.0, 4.0, 3.0]
    assert all(0.0 <= e.seconds < 60.0 for e in result.history)
    assert result.best_epoch == 3 and result.stopped == "max_epochs"


def test_an_equal_loss_is_not_a_better_one() -> None:
    kept: list[int] = []
    result = _fit({1: 2.0, 2: 2.0, 3: 2.0}, max_epochs=3, patience=2, on_best=kept.append)
    assert kept == [1] and result.best_epoch == 1
    assert len(result.history) == 3 and result.stopped.startswith("early stopping")


def test_patience_counts_from_the_first_epoch() -> None:
    result = _fit({1: math.nan, 2: math.nan, 3: 1.0}, max_epochs=3, patience=2)
    assert len(result.history) == 2 and result.best_epoch == 0
