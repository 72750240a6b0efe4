"""Fine-tuning settings and the provenance record written next to every fine-tuned model."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from biasaudit.errors import RunError


class LoraSettings(BaseModel):
    """LoRA hyperparameters and the training schedule (defaults: a small CPU run)."""

    model_config = ConfigDict(extra="forbid")

    r: int = Field(default=8, ge=1, description="LoRA rank")
    alpha: int = Field(
        default=16, ge=1, description="LoRA scaling (alpha / r multiplies the update)"
    )
    dropout: float = Field(default=0.05, ge=0, lt=1, description="dropout on the LoRA input")
    target_modules: list[str] | None = Field(
        default=None, description="modules to adapt (default: peft's choice for the architecture)"
    )
    learning_rate: float = Field(default=2e-4, gt=0)
    weight_decay: float = Field(default=0.0, ge=0)
    warmup_ratio: float = Field(
        default=0.0, ge=0, lt=1, description="linear warm-up, then constant"
    )
    max_grad_norm: float = Field(default=1.0, gt=0)
    batch_size: int = Field(default=1, ge=1)
    epochs: int = Field(default=1, ge=1)
    max_steps: int | None = Field(
        default=None, ge=1, description="optimizer steps (overrides epochs)"
    )
    max_length: int = Field(default=512, ge=8, description="tokens per example (longer are cut)")
    save_every: int = Field(default=10, ge=1, description="checkpoint every N steps (resume point)")
    seed: int = 0
    threads: int | None = Field(
        default=1, ge=1, description="torch threads (1: bit-identical adapters on CPU)"
    )
    quantize: Literal["none", "4bit"] = Field(
        default="none", description="4bit: QLoRA (NF4, double quantisation; CUDA + bitsandbytes)"
    )
    device: str = Field(
        default="cpu",
        pattern=r"^(cpu|mps|cuda(:\d+)?)$",
        description="torch device: cpu, mps, cuda or cuda:N",
    )

    def digest(self) -> str:
        """Hash of the settings that change the trained weights (not threads or checkpoints)."""
        relevant = self.model_dump(exclude={"save_every", "threads", "device"})
        return hashlib.sha256(json.dumps(relevant, sort_keys=True).encode()).hexdigest()


class Provenance(BaseModel):
    """`provenance.json` of a fine-tuned model (schema-validated when read back)."""

    model_config = ConfigDict(extra="forbid")

    schema_version: Literal[1] = 1
    status: Literal["partial", "complete"]
    base_model: str
    base_label: str
    base_sha256: str
    data_sha256: str
    n_examples: int
    n_learned_tokens: int
    settings: LoraSettings
    settings_sha256: str
    steps_done: int
    steps_total: int
    final_loss: float | None
    #: wall seconds of training calls so far (summed over resumed calls)
    seconds: float
    versions: dict[str, str]
    #: ``hf:FOLDER`` of the merged model once complete, else None
    model_spec: str | None = None
    adapter_dir: str | None = None

    def same_run(self, other: Provenance) -> bool:
        return (self.base_sha256, self.data_sha256, self.settings_sha256) == (
            other.base_sha256,
            other.data_sha256,
            other.settings_sha256,
        )


def read_provenance(path: Path) -> Provenance | None:
    """The record in `path`, None when there is none; one that cannot be read (a folder in
    its place, not a record, unreadable) is one RunError."""
    if path.exists() and not path.is_file():
        raise RunError(f"{path}: not a file (a fine-tune's provenance record); remove it")
    if not path.is_file():
        return None
    try:
        return Provenance.model_validate_json(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise RunError(f"{path}: cannot read ({exc.strerror or exc})") from None
    except ValueError as exc:
        first = str(exc).splitlines()[0]
        raise RunError(f"{path}: not a fine-tuning provenance record ({first})") from None


def write_provenance(path: Path, record: Provenance) -> None:
    """Written atomically: a read-only folder or a full disk is one RunError naming `path`,
    and the previous record is kept."""
    from biasaudit.results.io import atomic_write_text

    atomic_write_text(path, record.model_dump_json(indent=1) + "\n")
