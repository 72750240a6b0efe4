"""Typed requests that benchmarks emit and the responses backends return.

Benchmarks never call a model directly. They emit these requests; the runner batches them,
looks them up in the cache and sends the misses to a backend. Each request has a stable
content key, so identical requests are sent once and cached across runs.
"""

from __future__ import annotations

import hashlib
import json
from enum import StrEnum
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SerializerFunctionWrapHandler,
    model_serializer,
)


class Capability(StrEnum):
    """Request kinds a backend can serve."""

    LOGLIKELIHOOD = "loglikelihood"
    PSEUDO_LOGLIKELIHOOD = "pseudo_loglikelihood"
    GENERATE = "generate"
    CLASSIFY = "classify"
    EMBED = "embed"
    FILL_MASK = "fill_mask"


#: How a benchmark with a closed answer set asks for answers: "free" text read by its parser
#: (the papers' protocols), "constrained" to exactly one of the answers
#: (`GenerateRequest.choices`), or "extract": the free reply, read by the parser, then one
#: constrained follow-up turn that checks the reading (biasaudit.extraction).
AnswerMode = Literal["free", "constrained", "extract"]


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Message(_Frozen):
    role: Literal["system", "user", "assistant"]
    content: str


class GenerationParams(_Frozen):
    """Decoding parameters. `temperature == 0` means greedy decoding."""

    temperature: float = 0.0
    max_tokens: int = 64
    top_p: float = 1.0
    stop: tuple[str, ...] = ()
    seed: int = 0


class LoglikelihoodRequest(_Frozen):
    """log P(continuation | context), summed over the continuation's tokens."""

    kind: Literal["loglikelihood"] = "loglikelihood"
    context: str
    continuation: str


class PseudoLoglikelihoodRequest(_Frozen):
    """Masked-LM pseudo-log-likelihood of `text`, one mask per token (or word).

    With `shared_with`, only the tokens `text` shares with that other sentence are masked and
    scored: the two token-id sequences are aligned with ``difflib.SequenceMatcher`` and the
    positions inside its "equal" blocks (special tokens excluded) are the units. This is the
    CrowS-Pairs metric (Nangia et al. 2020, §3; the authors' ``scripts/metric.py``), which
    always puts the stereotype-consistent sentence first: `shared_text_first` says whether
    `text` is the first sequence of that matcher (the alignment is not symmetric in rare ties).
    Token granularity only.
    """

    kind: Literal["pseudo_loglikelihood"] = "pseudo_loglikelihood"
    text: str
    granularity: Literal["token", "word"] = "token"
    lowercase: bool = False
    add_special_tokens: bool = True
    shared_with: str | None = None
    shared_text_first: bool = True

    @model_serializer(mode="wrap")
    def _drop_unused(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        # Requests without `shared_with` serialise (and hash) exactly as before the field
        # existed, so response caches written earlier stay valid.
        data: dict[str, Any] = handler(self)
        if self.shared_with is None:
            data.pop("shared_with", None)
            data.pop("shared_text_first", None)
        return data


class GenerateRequest(_Frozen):
    """Generate text from chat `messages` or from a raw completion `prompt` (exactly one).

    With `choices` (a closed answer set, ``-O answer_mode=constrained``), the backend must
    return exactly one of them: a grammar (llama.cpp), a logits mask (hf) or the server's
    guided choice (OpenAI-compatible); a backend that cannot constrain refuses the run.
    """

    kind: Literal["generate"] = "generate"
    messages: tuple[Message, ...] | None = None
    prompt: str | None = None
    params: GenerationParams = GenerationParams()
    choices: tuple[str, ...] | None = None

    def model_post_init(self, __context: Any) -> None:
        if (self.messages is None) == (self.prompt is None):
            raise ValueError("GenerateRequest needs exactly one of messages or prompt")
        if self.choices is not None:
            if len(self.choices) < 2 or len(set(self.choices)) != len(self.choices):
                raise ValueError("GenerateRequest choices: at least two distinct answers")
            if any(not c for c in self.choices):
                raise ValueError("GenerateRequest choices: an empty answer")

    @model_serializer(mode="wrap")
    def _drop_unconstrained(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        # Free-text requests serialise (and hash) exactly as before `choices` existed, so
        # caches and replay files written earlier stay valid; constrained ones hash apart.
        data: dict[str, Any] = handler(self)
        if self.choices is None:
            data.pop("choices", None)
        return data


class ClassifyRequest(_Frozen):
    """Label distribution of a sequence classifier for `text` (and optional `text_pair`)."""

    kind: Literal["classify"] = "classify"
    text: str
    text_pair: str | None = None


#: The toolkit's mask token in `FillMaskRequest.text`; backends map it to the model's own.
MASK = "<MASK>"


class FillMaskRequest(_Frozen):
    """The `top_k` most probable tokens for the single `<MASK>` in `text` (masked LMs)."""

    kind: Literal["fill_mask"] = "fill_mask"
    text: str
    top_k: int = Field(20, ge=1)

    def model_post_init(self, __context: Any) -> None:
        if self.text.count(MASK) != 1:
            raise ValueError(f"FillMaskRequest needs exactly one {MASK} in its text")


class EmbedRequest(_Frozen):
    """Sentence embedding of one text; with `tokens`, one contextual vector per token
    (special tokens left out) in `Response.token_embeddings`, e.g. for BERTScore."""

    kind: Literal["embed"] = "embed"
    text: str
    tokens: bool = False


Request = Annotated[
    LoglikelihoodRequest
    | PseudoLoglikelihoodRequest
    | GenerateRequest
    | ClassifyRequest
    | EmbedRequest
    | FillMaskRequest,
    Field(discriminator="kind"),
]


def request_key(request: BaseModel) -> str:
    """Stable content hash of a request (sorted-key JSON, sha256)."""
    payload = json.dumps(request.model_dump(mode="json"), sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(payload.encode("utf-8")).hexdigest()


def request_length(request: BaseModel) -> int:
    """Rough size of a request in characters, used to sort batches longest first (all kinds
    but log-likelihood, which the runner sends in text order)."""
    if isinstance(request, GenerateRequest):
        if request.prompt is not None:
            return len(request.prompt)
        return sum(len(m.content) for m in request.messages or ())
    if isinstance(request, LoglikelihoodRequest):
        return len(request.context) + len(request.continuation)
    if isinstance(request, ClassifyRequest):
        return len(request.text) + len(request.text_pair or "")
    return len(getattr(request, "text", ""))


class Response(BaseModel):
    """What a backend returned for one request.

    Exactly the fields of the request's kind are set. `error` is set instead when the request
    failed for good (after retries); failed responses are never cached.
    """

    model_config = ConfigDict(extra="forbid")

    kind: Capability
    text: str | None = None
    finish_reason: str | None = None
    logprob: float | None = None
    is_greedy: bool | None = None
    n_tokens: int | None = None
    token_logprobs: list[float] | None = None
    label_probs: dict[str, float] | None = None
    #: fill_mask: (token as the tokenizer spells it, probability), most probable first
    candidates: list[tuple[str, float]] | None = None
    embedding: list[float] | None = None
    token_embeddings: list[list[float]] | None = None
    error: str | None = None

    @property
    def ok(self) -> bool:
        return self.error is None
