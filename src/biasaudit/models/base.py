"""The one interface every model backend implements.

A backend declares the request kinds it supports in `capabilities`; the runner refuses a
benchmark that needs anything else before any work starts. Each request method takes a batch
and returns one `Response` per request, in order. A request that fails for good returns a
`Response` with `error` set instead of raising, so one bad request never loses a batch.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, ClassVar

from biasaudit.errors import CapabilityError
from biasaudit.requests import (
    Capability,
    ClassifyRequest,
    EmbedRequest,
    FillMaskRequest,
    GenerateRequest,
    LoglikelihoodRequest,
    PseudoLoglikelihoodRequest,
    Response,
)


class Backend:
    """Base class of model backends.

    Subclasses set `name` and `capabilities`, implement the methods for their capabilities,
    and describe themselves through `identity()` (what model this is: repo and revision, file
    sha256, base URL and reported model id) and `fingerprint()` (what makes its outputs
    differ; the cache key prefix).
    """

    name: ClassVar[str] = "base"
    #: Everything a backend of this kind can serve with a suitable model; shown by
    #: ``biasaudit list backends``. Heavy libraries are imported lazily, so reading this
    #: never loads torch or llama.cpp.
    possible_capabilities: ClassVar[frozenset[Capability]] = frozenset()
    #: What this instance serves (decided once the model is loaded).
    capabilities: frozenset[Capability] = frozenset()
    #: True when chat requests are rendered as a plain transcript (base models without a
    #: chat template). Recorded in results.
    chat_as_transcript: bool = False

    @classmethod
    def from_spec(cls, target: str, args: dict[str, Any]) -> Backend:
        """Create the backend from the part of the model spec after ``KIND:`` and its args."""
        raise NotImplementedError(f"backend '{cls.name}' cannot be created from a spec")

    @classmethod
    def check_spec(cls, target: str, args: dict[str, Any]) -> None:
        """Validate a target and its arguments without loading or contacting anything
        (BiasauditError naming what is wrong); run before anything is written."""

    def identity(self) -> dict[str, Any]:
        return {"backend": self.name}

    def fingerprint(self) -> str:
        """A string that changes whenever outputs could change (model file, settings)."""
        return repr(sorted(self.identity().items()))

    def default_batch_size(self) -> int:
        return 8

    def call_size(self, kind: Capability) -> int:
        """Requests of `kind` the runner sends per call (and writes to the cache at once)
        when the user sets no `--batch-size`; default `default_batch_size()`. A backend that
        groups requests within a call (shared prefixes) asks for larger calls of cheap kinds."""
        return self.default_batch_size()

    def conversation_window(self) -> int | None:
        """How many samples the runner keeps in flight at once; None: all of them.

        With None, each round sends the next request of every unfinished sample, and the
        runner batches them across samples (sorted by length; log-likelihoods in text
        order, so an item's options are adjacent). A backend that keeps state
        per conversation (llama.cpp's KV cache of the previous prompt, or one KV sequence per
        conversation) returns k: the runner then keeps at most k samples active and admits
        the next sample as soon as one finishes, so each conversation's turns reach the
        backend back to back and its prompt prefix is still cached.
        """
        return None

    def choice_support(self) -> str | None:
        """None when this backend returns exactly one of a generate request's `choices`
        (``-O answer_mode=constrained``); otherwise the one-line reason it cannot."""
        return f"backend '{self.name}' cannot constrain a reply to a closed answer set"

    def loglikelihood(self, requests: Sequence[LoglikelihoodRequest]) -> list[Response]:
        raise CapabilityError(f"backend '{self.name}' does not support loglikelihood")

    def pseudo_loglikelihood(
        self, requests: Sequence[PseudoLoglikelihoodRequest]
    ) -> list[Response]:
        raise CapabilityError(f"backend '{self.name}' does not support pseudo_loglikelihood")

    def generate(self, requests: Sequence[GenerateRequest]) -> list[Response]:
        raise CapabilityError(f"backend '{self.name}' does not support generate")

    def classify(self, requests: Sequence[ClassifyRequest]) -> list[Response]:
        raise CapabilityError(f"backend '{self.name}' does not support classify")

    def embed(self, requests: Sequence[EmbedRequest]) -> list[Response]:
        raise CapabilityError(f"backend '{self.name}' does not support embed")

    def fill_mask(self, requests: Sequence[FillMaskRequest]) -> list[Response]:
        raise CapabilityError(f"backend '{self.name}' does not support fill_mask")

    def close(self) -> None:
        """Release resources (processes, connections). Safe to call twice."""

    def dispatch(self, kind: Capability, requests: Sequence[Any]) -> list[Response]:
        """Send a batch of requests of one kind to the matching method."""
        if kind not in self.capabilities:
            raise CapabilityError(f"backend '{self.name}' does not support {kind.value}")
        method = getattr(self, kind.value)
        responses: list[Response] = method(requests)
        if len(responses) != len(requests):
            raise RuntimeError(
                f"backend '{self.name}' returned {len(responses)} responses for "
                f"{len(requests)} requests"
            )
        return responses


def split_context(
    context: str,
    continuation: str,
    encode: Callable[[str], list[int]],
    encode_plain: Callable[[str], list[int]],
    start_token: Callable[[], int],
) -> tuple[list[int], list[int]]:
    """Context and continuation tokens so that the continuation's are those of the joined text.

    As lm-evaluation-harness's `TemplateLM._encode_pair`: trailing spaces of the context
    move to the continuation, the joined text is tokenised once (`encode`, with the
    model's special prefix such as BOS) and the continuation is what follows the context's
    tokens; if the join merged tokens across the boundary the continuation is tokenised on
    its own (`encode_plain`, no special tokens). An empty context (no tokens at all) is
    conditioned on `start_token()` (BOS, or EOS for models without one).
    """
    stripped = context.rstrip(" ")
    continuation = context[len(stripped) :] + continuation
    context_tokens = encode(stripped)
    whole = encode(stripped + continuation)
    if whole[: len(context_tokens)] == context_tokens:
        continuation_tokens = whole[len(context_tokens) :]
    else:
        continuation_tokens = encode_plain(continuation)
    if not context_tokens:
        context_tokens = [start_token()]
    return context_tokens, continuation_tokens
