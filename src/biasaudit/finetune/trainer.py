"""LoRA fine-tuning of a local causal LM with PEFT on transformers (seeded, resumable).

`finetune(base, examples, output_dir, settings)` trains LoRA adapters on the assistant turns
of chat examples and writes, in `output_dir`:

- ``checkpoints/step-NNNNNN/`` every `save_every` steps: adapter weights, optimizer,
  scheduler and RNG state; a rerun with the same base, data and settings resumes from the
  latest one (bit-identical to an uninterrupted run on CPU with one thread);
- ``adapter/`` (the PEFT adapter) and ``model/`` (the adapter merged into the base weights,
  with the tokenizer: usable everywhere as ``hf:OUTPUT/model``);
- ``loss.csv`` and ``loss.svg`` (the training loss per step);
- ``provenance.json``: base model hash, data hash, settings, steps, versions, status.

Reproducibility: the LoRA initialisation, dropout and the example order come from
`settings.seed` (the order from `random.Random`, the rest from torch's generator, whose state
is checkpointed). QLoRA (`quantize="4bit"`) needs a CUDA device and bitsandbytes.
"""

from __future__ import annotations

import contextlib
import csv
import io
import math
import os
import random
import re
import shutil
import time
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from biasaudit.errors import BackendError, OneLineWarning, RunError
from biasaudit.finetune.base import BaseModelRef, trainable_base
from biasaudit.finetune.data import Messages, data_sha256
from biasaudit.finetune.encode import IGNORE, ChatEncoder, Encoded
from biasaudit.finetune.export import save_plain
from biasaudit.finetune.loop import adamw_with_warmup, train_step
from biasaudit.finetune.settings import (
    LoraSettings,
    Provenance,
    read_provenance,
    write_provenance,
)


@dataclass(frozen=True)
class FinetuneResult:
    provenance: Provenance
    output_dir: Path
    losses: list[float]

    @property
    def complete(self) -> bool:
        return self.provenance.status == "complete"

    @property
    def model_spec(self) -> str | None:
        return self.provenance.model_spec


def batch_order(n_examples: int, settings: LoraSettings) -> list[list[int]]:
    """Example indices of every optimizer step: a seeded shuffle per epoch, in batches."""
    per_epoch = math.ceil(n_examples / settings.batch_size)
    total = settings.max_steps or per_epoch * settings.epochs
    steps: list[list[int]] = []
    epoch = 0
    while len(steps) < total:
        order = list(range(n_examples))
        random.Random(f"{settings.seed}:{epoch}").shuffle(order)
        for start in range(0, n_examples, settings.batch_size):
            steps.append(order[start : start + settings.batch_size])
        epoch += 1
    return steps[:total]


def _versions() -> dict[str, str]:
    import peft
    import torch
    import transformers

    from biasaudit import __version__

    return {
        "biasaudit": __version__,
        "torch": torch.__version__,
        "transformers": transformers.__version__,
        "peft": peft.__version__,
    }


def _load(ref: BaseModelRef, settings: LoraSettings) -> tuple[Any, Any]:
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    from biasaudit.models.hf import load_error, quiet_transformers

    kwargs: dict[str, Any] = {"local_files_only": True}
    if ref.gguf_file:
        kwargs["gguf_file"] = ref.gguf_file
    _check_device(settings.device)
    weights: dict[str, Any] = {"dtype": torch.float32}
    if settings.quantize == "4bit":
        weights = {"quantization_config": _qlora_config(), "device_map": {"": settings.device}}
    try:
        with quiet_transformers():
            tokenizer = AutoTokenizer.from_pretrained(ref.folder, **kwargs)
            model = AutoModelForCausalLM.from_pretrained(ref.folder, **weights, **kwargs)
    except Exception as exc:  # a loader failure is a one-line error
        raise load_error("hf", ref.label, exc) from None
    if tokenizer.pad_token_id is None:
        tokenizer.pad_token = tokenizer.eos_token
    if settings.quantize == "none":
        model = model.to(settings.device)  # type: ignore[arg-type]
    return model, tokenizer


def _check_device(device: str) -> None:
    """A device this torch has, before any weight is loaded (one line, not torch's error)."""
    import torch

    if device.startswith("cuda"):
        count = torch.cuda.device_count() if torch.cuda.is_available() else 0
        index = int(device.partition(":")[2] or 0)
        if index >= count:
            raise RunError(
                f"--lora device={device}: this machine's torch sees {count} CUDA device(s)"
            )
    if device == "mps" and not torch.backends.mps.is_available():
        raise RunError("--lora device=mps: no MPS device here")


def _qlora_config() -> Any:
    import importlib.util

    import torch

    if not torch.cuda.is_available() or importlib.util.find_spec("bitsandbytes") is None:
        raise BackendError(
            "QLoRA (quantize=4bit) needs a CUDA GPU and bitsandbytes; use quantize=none "
            "(plain LoRA) on CPU"
        )
    from transformers import BitsAndBytesConfig

    return BitsAndBytesConfig(  # BEADs App. C.1: NF4, double quantisation, fp16 compute
        load_in_4bit=True,
        bnb_4bit_quant_type="nf4",
        bnb_4bit_use_double_quant=True,
        bnb_4bit_compute_dtype=torch.float16,
    )


def _collate(batch: Sequence[Encoded], pad_id: int, device: str) -> dict[str, Any]:
    import torch

    width = max(len(e.input_ids) for e in batch)
    ids = [e.input_ids + [pad_id] * (width - len(e.input_ids)) for e in batch]
    labels = [e.labels + [IGNORE] * (width - len(e.labels)) for e in batch]
    mask = [[1] * len(e.input_ids) + [0] * (width - len(e.input_ids)) for e in batch]
    return {
        "input_ids": torch.tensor(ids, device=device),
        "attention_mask": torch.tensor(mask, device=device),
        "labels": torch.tensor(labels, device=device),
    }


_CHECKPOINT = re.compile(r"step-\d{6}")
_CHECKPOINT_FILES = ("adapter.safetensors", "state.pt")


def _checkpoints(out: Path) -> list[Path]:
    """The finished checkpoints, oldest first.

    A checkpoint is written into ``step-N.tmp`` and renamed to ``step-N`` once both of its files
    are there, so a folder with another name (a crash while writing) is never resumed from.
    """
    folder = out / "checkpoints"
    if not folder.is_dir():
        return []
    return sorted(
        p
        for p in folder.iterdir()
        if _CHECKPOINT.fullmatch(p.name) and all((p / f).is_file() for f in _CHECKPOINT_FILES)
    )


def _write_errors(*, torch_save: bool = False) -> tuple[type[Exception], ...]:
    """What a failed write of weights raises: OSError, or safetensors' SafetensorError
    ("I/O error: No space left on device"); `torch_save` adds torch.save's RuntimeError
    ("PytorchStreamWriter failed writing file", "enforce fail at inline_container.cc")."""
    from safetensors import SafetensorError

    return (OSError, SafetensorError, *((RuntimeError,) if torch_save else ()))


def _write_failure(exc: BaseException, folder: Path) -> str:
    """Why a write into `folder` failed, in a few words (torch's own message does not say
    that the disk is full: the free space there is added)."""
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror
    first = (str(exc).splitlines() or [type(exc).__name__])[0]
    try:
        free = shutil.disk_usage(next(p for p in (folder, *folder.parents) if p.exists())).free
    except (OSError, StopIteration):
        return first
    return f"{first}; {free:,} bytes free there"


class CheckpointWarning(OneLineWarning):
    """A damaged checkpoint passed over, or a loss curve that could not be recovered."""


def _save_checkpoint(
    out: Path, step: int, model: Any, optimizer: Any, scheduler: Any, losses: list[float]
) -> None:
    """Write checkpoint `step`; a write that fails (full disk, read-only folder, a file where
    the folder belongs) is one RunError, the half-written folder is removed and the earlier
    checkpoints stay: a rerun resumes from the newest of them."""
    import torch
    from peft import get_peft_model_state_dict
    from safetensors.torch import save_file

    folder = out / "checkpoints" / f"step-{step:06d}"
    tmp = folder.with_name(folder.name + ".tmp")
    state = {k: v.detach().cpu().contiguous() for k, v in get_peft_model_state_dict(model).items()}
    training = {
        "step": step,
        "optimizer": optimizer.state_dict(),
        "scheduler": scheduler.state_dict(),
        "rng": torch.get_rng_state(),
        "losses": losses,
    }
    try:
        if tmp.exists():  # left by a run killed while writing this checkpoint
            shutil.rmtree(tmp)
        tmp.mkdir(parents=True)
        save_file(state, str(tmp / "adapter.safetensors"))
        torch.save(training, tmp / "state.pt")
        if folder.exists():  # the same step written before (never by one run): the newer wins
            shutil.rmtree(folder)
        tmp.replace(folder)
    except _write_errors(torch_save=True) as exc:  # only writes in here
        shutil.rmtree(tmp, ignore_errors=True)
        raise RunError(
            f"{folder}: cannot write the checkpoint ({_write_failure(exc, tmp)}); the earlier "
            "checkpoints are kept: free space or fix the folder, then rerun to resume"
        ) from None


def _first_line(exc: BaseException) -> str:
    """The first line of an exception's message (its type when it has none)."""
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror
    return (str(exc).splitlines() or [type(exc).__name__])[0]


def _resume(
    checkpoints: Sequence[Path], model: Any, optimizer: Any, scheduler: Any
) -> tuple[int, list[float]]:
    """The newest checkpoint that reads back (step, losses); (0, []) when none does.

    A checkpoint that cannot be read (a file damaged after it was written) is passed over with
    a warning and the one before it is used: a damaged checkpoint costs steps, never the run.
    """
    for folder in reversed(checkpoints):
        try:
            return _restore(folder, model, optimizer, scheduler)
        except Exception as exc:  # any unreadable file: try the one before
            warnings.warn(
                f"{folder}: unreadable checkpoint, passed over ({_first_line(exc)})",
                CheckpointWarning,
                stacklevel=2,
            )
    return 0, []


def _load_state(file: Path) -> Any:
    """A checkpoint's state.pt; unreadable (truncated, not a torch file) names the file."""
    import torch

    try:
        return torch.load(file, weights_only=True)
    except Exception as exc:  # torch raises OSError, RuntimeError, pickle errors, ...
        raise RunError(f"{file.name} cannot be read: {_first_line(exc)}") from None


def _restore(folder: Path, model: Any, optimizer: Any, scheduler: Any) -> tuple[int, list[float]]:
    import torch
    from peft import set_peft_model_state_dict
    from safetensors.torch import load_file

    try:  # both read before either is used
        adapter = load_file(str(folder / "adapter.safetensors"))
    except Exception as exc:  # safetensors raises its own error types
        raise RunError(f"adapter.safetensors cannot be read: {_first_line(exc)}") from None
    state = _load_state(folder / "state.pt")
    set_peft_model_state_dict(model, adapter)
    optimizer.load_state_dict(state["optimizer"])
    scheduler.load_state_dict(state["scheduler"])
    torch.set_rng_state(state["rng"])
    return int(state["step"]), [float(x) for x in state["losses"]]


def _write_curve(out: Path, losses: Sequence[float]) -> None:
    """loss.csv and loss.svg, each written atomically (a failed write is one RunError and
    keeps the previous file)."""
    from biasaudit.report.svg import LineSeries, line_chart
    from biasaudit.results.io import atomic_write_text

    table = io.StringIO(newline="")
    writer = csv.writer(table)
    writer.writerow(["step", "loss"])
    writer.writerows([i, f"{loss:.6f}"] for i, loss in enumerate(losses, start=1))
    atomic_write_text(out / "loss.csv", table.getvalue())
    every = max(1, len(losses) // 10)
    labels = [str(i) if (i - 1) % every == 0 else "" for i in range(1, len(losses) + 1)]
    svg = line_chart(
        "training loss",
        labels,
        [LineSeries("loss", list(losses))],
        x_label="step",
        y_label="loss (mean over learned tokens)",
    )
    atomic_write_text(out / "loss.svg", svg)


def finetune(
    base: str,
    examples: Sequence[Messages],
    output_dir: str | Path,
    settings: LoraSettings | None = None,
    *,
    progress: bool = True,
    stop_after: int | None = None,
) -> FinetuneResult:
    """Train (or resume, or reuse) a LoRA fine-tune; see the module docstring.

    `stop_after` ends this call after that many optimizer steps in total (a time box): the
    checkpoint is written, the provenance says ``partial``, and a rerun continues.
    """
    settings = settings or LoraSettings.model_validate({})
    ref = trainable_base(base)
    out = Path(output_dir)
    if out.exists() and not out.is_dir():
        raise RunError(f"{out}: not a directory (the fine-tune's output folder)")
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise RunError(f"{out}: cannot create the output folder ({exc.strerror or exc})") from None
    wanted: dict[str, Any] = dict(
        base_model=base,
        base_label=ref.label,
        base_sha256=ref.sha256(),
        data_sha256=data_sha256(examples),
        settings_sha256=settings.digest(),
    )
    previous = read_provenance(out / "provenance.json")
    if previous is not None:
        if (previous.base_sha256, previous.data_sha256, previous.settings_sha256) != (
            wanted["base_sha256"],
            wanted["data_sha256"],
            wanted["settings_sha256"],
        ):
            raise RunError(
                f"{out} holds a fine-tune of another base model, data or settings; "
                "pass another output folder"
            )
        if previous.status == "complete":
            return FinetuneResult(previous, out, _read_losses(out))
    if not os.access(out, os.W_OK | os.X_OK):  # before the base model is loaded
        raise RunError(f"{out}: cannot write there (a read-only folder); pass another --output")
    return _train(ref, examples, out, settings, wanted, progress, stop_after)


def _read_losses(out: Path) -> list[float]:
    """A complete fine-tune's losses: loss.csv, else the newest checkpoint's record of them
    (written back to loss.csv), else none with a warning: the model is whole either way."""
    try:
        with (out / "loss.csv").open(newline="", encoding="utf-8") as handle:
            return [float(r["loss"]) for r in csv.DictReader(handle)]
    except (OSError, ValueError, KeyError, TypeError, csv.Error):
        pass
    for folder in reversed(_checkpoints(out)):
        try:
            state = _load_state(folder / "state.pt")
            losses = [float(x) for x in state["losses"]]
        except Exception:  # an unreadable checkpoint: try the one before
            continue
        with contextlib.suppress(RunError):  # a read-only folder: the losses are still known
            _write_curve(out, losses)
        return losses
    warnings.warn(
        f"{out}: loss.csv is missing or damaged; the loss curve is lost",
        CheckpointWarning,
        stacklevel=2,
    )
    return []


def _train(
    ref: BaseModelRef,
    examples: Sequence[Messages],
    out: Path,
    settings: LoraSettings,
    wanted: dict[str, Any],
    progress: bool,
    stop_after: int | None,
) -> FinetuneResult:
    import torch
    from peft import LoraConfig, get_peft_model
    from tqdm import tqdm

    if settings.threads:
        torch.set_num_threads(settings.threads)
    started = time.perf_counter()
    model, tokenizer = _load(ref, settings)
    encoded = ChatEncoder(tokenizer, settings.max_length).encode_all(examples)
    torch.manual_seed(settings.seed)
    if settings.quantize == "4bit":
        from peft import prepare_model_for_kbit_training

        model = prepare_model_for_kbit_training(model)
    config = LoraConfig(
        r=settings.r,
        lora_alpha=settings.alpha,
        lora_dropout=settings.dropout,
        target_modules=settings.target_modules,
        task_type="CAUSAL_LM",
    )
    with warnings.catch_warnings():  # transformers' deprecation notice inside peft
        warnings.simplefilter("ignore", FutureWarning)
        try:
            model = get_peft_model(model, config)
        except ValueError as exc:  # e.g. target_modules that name no module of the model
            first = (str(exc).splitlines() or [type(exc).__name__])[0]
            raise RunError(f"--lora target_modules={settings.target_modules}: {first}") from None
    order = batch_order(len(encoded), settings)
    optimizer, scheduler = adamw_with_warmup(
        [p for p in model.parameters() if p.requires_grad],
        settings.learning_rate,
        settings.weight_decay,
        int(settings.warmup_ratio * len(order)),
    )
    step, losses = 0, list[float]()
    record = Provenance(
        status="partial",
        n_examples=len(encoded),
        n_learned_tokens=sum(e.n_learned for e in encoded),
        settings=settings,
        steps_done=0,
        steps_total=len(order),
        final_loss=None,
        seconds=0.0,
        versions=_versions(),
        **wanted,
    )
    earlier = read_provenance(out / "provenance.json")
    if earlier is None:  # claims the folder before any checkpoint
        write_provenance(out / "provenance.json", record)
    spent = earlier.seconds if earlier is not None else 0.0  # by earlier, interrupted calls
    step, losses = _resume(_checkpoints(out), model, optimizer, scheduler)
    end = len(order) if stop_after is None else min(len(order), stop_after)
    pad_id = tokenizer.pad_token_id
    model.train()
    bar = tqdm(total=len(order), initial=step, desc="finetune", unit="step", disable=not progress)
    while step < end:
        batch = _collate([encoded[i] for i in order[step]], pad_id, settings.device)
        losses.append(train_step(model, batch, optimizer, scheduler, settings.max_grad_norm))
        step += 1
        bar.update(1)
        bar.set_postfix(loss=f"{losses[-1]:.3f}")
        if step % settings.save_every == 0 or step == end:
            _save_checkpoint(out, step, model, optimizer, scheduler, losses)
    bar.close()
    _write_curve(out, losses)
    complete = step == len(order)
    record = record.model_copy(
        update={
            "status": "complete" if complete else "partial",
            "steps_done": step,
            "final_loss": losses[-1] if losses else None,
            "seconds": round(spent + time.perf_counter() - started, 1),
        }
    )
    if complete:
        record = _save_model(model, tokenizer, out, record)
    write_provenance(out / "provenance.json", record)
    return FinetuneResult(record, out, losses)


def _save_model(model: Any, tokenizer: Any, out: Path, record: Provenance) -> Provenance:
    """The adapter, and the adapter merged into the base weights with the tokenizer."""
    from biasaudit.models.hf import quiet_transformers

    try:
        with quiet_transformers():
            model.save_pretrained(out / "adapter")
            if record.settings.quantize == "4bit":  # merge into the unquantised base (fp16)
                model = _reload_unquantised(record, out / "adapter")
            save_plain(model.merge_and_unload(), tokenizer, out / "model")
    except _write_errors() as exc:
        raise RunError(
            f"{out}: cannot write the adapter and merged model ({_write_failure(exc, out)}); the "
            "training is kept in its last checkpoint: free space, then rerun to write them"
        ) from None
    return record.model_copy(
        update={"adapter_dir": str(out / "adapter"), "model_spec": f"hf:{out / 'model'}"}
    )


def _reload_unquantised(record: Provenance, adapter: Path) -> Any:
    """QLoRA's adapter on the base weights in float16 (merging into 4-bit weights is lossy)."""
    import torch
    from peft import PeftModel
    from transformers import AutoModelForCausalLM

    ref = trainable_base(record.base_model)
    kwargs: dict[str, Any] = {"local_files_only": True, "dtype": torch.float16}
    if ref.gguf_file:
        kwargs["gguf_file"] = ref.gguf_file
    base = AutoModelForCausalLM.from_pretrained(ref.folder, **kwargs)
    return PeftModel.from_pretrained(base, str(adapter))
