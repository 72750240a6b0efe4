"""Loading an `hf:` model: settings, where the weights are, the model kind, and the loaded state.

`HFModel` loads the tokenizer and model and holds what the request methods share (the
tokenizer's special prefix, the pad and end-of-sequence ids, the position limit); the
causal-LM methods are in `hf_causal`, the masked-LM ones in `hf_masked`, and `hf.HFBackend`
puts them together.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from biasaudit.errors import BackendError, BiasauditError, CapabilityError
from biasaudit.models.base import Backend
from biasaudit.models.llamacpp.loading import smollm2_path
from biasaudit.requests import Capability, Response

Task = Literal["causal", "masked", "classifier"]

TASK_CAPABILITIES: dict[str, frozenset[Capability]] = {
    "causal": frozenset({Capability.LOGLIKELIHOOD, Capability.GENERATE}),
    "masked": frozenset({Capability.PSEUDO_LOGLIKELIHOOD, Capability.FILL_MASK}),
    "classifier": frozenset({Capability.CLASSIFY}),
}

_ARCHITECTURE_SUFFIXES: tuple[tuple[str, Task], ...] = (
    ("ForMaskedLM", "masked"),
    ("ForSequenceClassification", "classifier"),
    ("ForCausalLM", "causal"),
    ("LMHeadModel", "causal"),
)


class HFArgs(BaseModel):
    """``--model-arg`` settings of the hf backend."""

    model_config = ConfigDict(extra="forbid")

    device: str = "cpu"
    dtype: Literal["float32", "float16", "bfloat16"] = "float32"
    #: requests per forward pass (causal, classifier) or per `generate` call
    batch_size: int = Field(8, ge=1)
    #: masked copies per forward pass for pseudo-log-likelihood
    mask_batch_size: int = Field(128, ge=1)
    #: log-likelihood requests sharing most of their leading tokens (an item's options after
    #: one prompt) evaluate them once through the KV cache (`biasaudit.models.hf.prefix`):
    #: 1.9x the plain batch on WinoBias, 1.2x on StereoSet, level on CrowS-Pairs (2 CPU
    #: cores, bench/share_prefix.py, bench/RESULTS.md); off gives the plain batch
    share_prefix: bool = True
    gguf_file: str | None = None
    revision: str | None = None
    trust_remote_code: bool = False
    task: Task | None = None
    #: torch threads for the whole process (torch.set_num_threads); default: idle cores
    threads: int | None = Field(None, ge=1)


@dataclass(frozen=True)
class _Source:
    """Where the weights come from: a hub id or local folder, plus an optional GGUF name."""

    name_or_path: str
    gguf_file: str | None
    local: bool
    label: str


def resolve_source(target: str, args: HFArgs) -> _Source:
    if not target:
        raise BackendError("hf backend needs a model: hf:ID_OR_PATH (or hf:embedded)")
    if target == "embedded":
        path = smollm2_path()
        if not path.is_file():
            raise BackendError(f"embedded SmolLM2 GGUF not found: {path}")
        return _Source(str(path.parent), path.name, True, "embedded:smollm2-135m")
    path = Path(target).expanduser()
    if path.is_file() and path.suffix == ".gguf":
        return _Source(str(path.parent.resolve()), path.name, True, str(path.resolve()))
    if path.is_dir():
        if args.gguf_file and not (path / args.gguf_file).is_file():
            raise BackendError(f"GGUF file not found: {path / args.gguf_file}")
        return _Source(str(path.resolve()), args.gguf_file, True, str(path.resolve()))
    if path.is_file():
        raise BackendError(f"{target} is a file; hf needs a model folder or a .gguf file")
    if target.startswith(("/", ".", "~")) or target.count("/") > 1:
        raise BackendError(f"model folder not found: {target}")
    return _Source(target, args.gguf_file, False, target)


def load_error(backend: str, label: str, exc: Exception) -> BackendError:
    """The one-line error for a model that failed to load."""
    first_line = (str(exc).strip().splitlines() or [exc.__class__.__name__])[0]
    return BackendError(f"cannot load {backend} model '{label}': {first_line}")


def detect_task(config: Any) -> Task:
    architectures = list(getattr(config, "architectures", None) or [])
    for architecture in architectures:
        for suffix, task in _ARCHITECTURE_SUFFIXES:
            if architecture.endswith(suffix):
                return task
    if not architectures:
        from transformers.models.auto.modeling_auto import MODEL_FOR_CAUSAL_LM_MAPPING_NAMES

        if config.model_type in MODEL_FOR_CAUSAL_LM_MAPPING_NAMES:
            return "causal"
    raise BackendError(
        f"cannot tell the model kind from its config (architectures={architectures}); "
        "pass -M task=causal, task=masked or task=classifier"
    )


@contextlib.contextmanager
def quiet_transformers() -> Iterator[None]:
    """No progress bars or warnings from transformers while a model loads."""
    from transformers.utils import logging as hf_logging

    bars = hf_logging.is_progress_bar_enabled()
    verbosity = hf_logging.get_verbosity()
    hf_logging.disable_progress_bar()
    hf_logging.set_verbosity_error()
    try:
        yield
    finally:
        hf_logging.set_verbosity(verbosity)
        if bars:
            hf_logging.enable_progress_bar()


def special_prefix(tokenizer: Any) -> list[int]:
    """The special tokens the tokenizer puts before a text (e.g. BOS), or []."""
    plain = tokenizer("a", add_special_tokens=False)["input_ids"]
    full = tokenizer("a", add_special_tokens=True)["input_ids"]
    for start in range(len(full) - len(plain) + 1):
        if full[start : start + len(plain)] == plain:
            return list(full[:start])
    return []


def index_batches(items: list[int], size: int) -> Iterator[list[int]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]


def error_response(kind: Capability, message: str) -> Response:
    return Response(kind=kind, error=message)


class HFModel(Backend):
    """A loaded transformers model and tokenizer, and the helpers every request kind uses."""

    args: HFArgs
    source: _Source
    task: Task
    device: Any
    tokenizer: Any
    model: Any
    max_positions: int | None
    prefix: list[int]
    pad_id: int
    eos_ids: set[int]
    chat_as_transcript: bool

    def _hub_kwargs(self) -> dict[str, Any]:
        kwargs: dict[str, Any] = {
            "revision": self.args.revision,
            "trust_remote_code": self.args.trust_remote_code,
            "local_files_only": self.source.local,
        }
        if self.source.gguf_file:
            kwargs["gguf_file"] = self.source.gguf_file
        return kwargs

    def _load(self) -> None:
        try:
            with quiet_transformers():
                self._load_model()
        except BiasauditError:
            raise
        except Exception as exc:  # any loader failure is a user-facing one-liner
            raise load_error("hf", self.source.label, exc) from None

    def _load_model(self) -> None:
        import torch
        from transformers import (
            AutoConfig,
            AutoModelForCausalLM,
            AutoModelForMaskedLM,
            AutoModelForSequenceClassification,
            AutoTokenizer,
            GenerationConfig,
        )

        from biasaudit.models.hf.torch_utils import DTYPES
        from biasaudit.models.threads import auto_threads

        torch.set_num_threads(self.args.threads or auto_threads())
        kwargs = self._hub_kwargs()
        source = self.source.name_or_path
        if self.args.task is not None:
            self.task = self.args.task
        elif self.source.gguf_file:  # transformers loads GGUF files as causal LMs only
            self.task = "causal"
        else:
            self.task = detect_task(AutoConfig.from_pretrained(source, **kwargs))
        model_class = {
            "causal": AutoModelForCausalLM,
            "masked": AutoModelForMaskedLM,
            "classifier": AutoModelForSequenceClassification,
        }[self.task]
        self.device = torch.device(self.args.device)
        self.tokenizer = AutoTokenizer.from_pretrained(source, **kwargs)
        model = model_class.from_pretrained(source, dtype=DTYPES[self.args.dtype], **kwargs)
        self.model = model.to(self.device).eval()
        self.capabilities = TASK_CAPABILITIES[self.task]
        config = self.model.config
        self.max_positions = getattr(config, "max_position_embeddings", None)
        self.prefix = special_prefix(self.tokenizer)
        self.pad_id = self.tokenizer.pad_token_id
        if self.pad_id is None:
            eos_id = self.tokenizer.eos_token_id
            self.pad_id = eos_id if eos_id is not None else 0
        if self.task == "causal":
            generation = self.model.generation_config
            eos = generation.eos_token_id
            eos_ids = set(eos if isinstance(eos, list) else [] if eos is None else [eos])
            if self.tokenizer.eos_token_id is not None:
                eos_ids.add(self.tokenizer.eos_token_id)
            self.eos_ids = eos_ids
            # biasaudit controls decoding: drop the model's default sampling/penalty settings
            self.model.generation_config = GenerationConfig(
                bos_token_id=generation.bos_token_id,
                eos_token_id=sorted(eos_ids) or None,
                pad_token_id=self.pad_id,
            )
            self.chat_as_transcript = not getattr(self.tokenizer, "chat_template", None)
        if self.task == "masked" and self.tokenizer.mask_token_id is None:
            raise BackendError(f"'{self.source.label}' has a masked-LM head but no mask token")

    def _require(self, capability: Capability) -> None:
        if capability not in self.capabilities:
            raise CapabilityError(
                f"backend 'hf' with the {self.task} model '{self.source.label}' does not "
                f"support {capability.value}"
            )

    def _encode(self, text: str) -> list[int]:
        return list(self.tokenizer(text, add_special_tokens=False)["input_ids"])

    def _decode(self, tokens: list[int]) -> str:
        return str(self.tokenizer.decode(tokens, skip_special_tokens=True))

    def _too_long(self, n_tokens: int) -> str | None:
        if self.max_positions is not None and n_tokens > self.max_positions:
            return f"{n_tokens} tokens exceed the model's {self.max_positions} positions"
        return None
