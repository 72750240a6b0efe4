"""GGUF models in-process through llama-cpp-python: `embedded` and `gguf:PATH`.

Generation uses the chat template stored in the GGUF file (or a plain transcript for base
models). The model is loaded once; three llama.cpp contexts share its weights, each
created on first use:

- `Llama` itself: sampled generation, one request at a time (and every request with
  ``-M parallel=1``), reusing the KV cache of the longest common prefix with the previous
  request;
- `SlotDecoder` (llamacpp_slots): greedy generation of up to `parallel` conversations at
  once, one KV sequence per conversation kept between its turns;
- `PrefixScorer` (llamacpp_scoring): log-likelihoods with logits only at the scored
  positions, requests in trie order so shared contexts are evaluated once.

The runner keeps `parallel` conversations in flight (`conversation_window`), so each
conversation's turns arrive back to back and find their prefix cached.

Model files, the model arguments and loading helpers are in `llamacpp_loading`.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any, ClassVar

from biasaudit.errors import BackendError
from biasaudit.models.base import Backend, split_context
from biasaudit.models.choices import checked_choice, llama_grammar_args
from biasaudit.models.llamacpp.loading import (
    DEFAULT_EMBEDDED,
    DEFAULT_N_CTX,
    DEFAULT_PARALLEL,
    EMBEDDED_MODELS,
    LlamaArgs,
    gemma3_270m_path,
    import_llama,
    llama_arguments,
    model_params,
    package_dir,
    quiet_stderr,
    smollm2_path,
    weights_sha256,
)
from biasaudit.models.llamacpp.scoring import PrefixScorer
from biasaudit.models.llamacpp.slots import Job, SlotDecoder, chat_formatter, make_job
from biasaudit.models.threads import auto_threads
from biasaudit.models.transcript import TRANSCRIPT_STOPS, render_transcript
from biasaudit.requests import (
    Capability,
    GenerateRequest,
    GenerationParams,
    LoglikelihoodRequest,
    Response,
)

# names other modules, tests and scripts import from here (they moved to llamacpp_loading)
__all__ = [
    "DEFAULT_EMBEDDED",
    "DEFAULT_N_CTX",
    "DEFAULT_PARALLEL",
    "EMBEDDED_MODELS",
    "EmbeddedBackend",
    "GGUFBackend",
    "LlamaArgs",
    "gemma3_270m_path",
    "llama_arguments",
    "package_dir",
    "quiet_stderr",
    "smollm2_path",
    "weights_sha256",
]

#: KV cells per conversation in the batched decoder; longer requests go one at a time
SLOT_CTX = 2048


class GGUFBackend(Backend):
    """Any GGUF file, run with llama.cpp in this process."""

    name: ClassVar[str] = "gguf"
    possible_capabilities = frozenset({Capability.GENERATE, Capability.LOGLIKELIHOOD})

    def __init__(
        self,
        model_path: str | Path,
        *,
        n_ctx: int = DEFAULT_N_CTX,
        n_threads: int | None = None,
        transcript: bool = False,
        batch_size: int = 8,
        parallel: int = DEFAULT_PARALLEL,
        label: str | None = None,
        extra_buffers: bool = True,
    ) -> None:
        path = Path(model_path).expanduser()
        if not path.is_file():
            raise BackendError(f"GGUF file not found: {path}")
        self.model_path = path
        self.n_ctx = n_ctx
        #: llama.cpp threads (generation and prompt batches); default: idle cores
        self.n_threads = n_threads if n_threads is not None else auto_threads()
        self.chat_as_transcript = transcript
        self.batch_size = batch_size
        self.parallel = max(1, parallel)
        self.label = label or path.name
        self.extra_buffers = extra_buffers
        self.capabilities = self.possible_capabilities
        self._generator: Any = None
        self._scorer: Any = None
        self._slots: Any = None
        self._chat_formatter: Any = None

    @classmethod
    def check_spec(cls, target: str, args: dict[str, Any]) -> None:
        if not target:
            raise BackendError("gguf backend needs a file: gguf:PATH")
        llama_arguments(args)

    @classmethod
    def from_spec(cls, target: str, args: dict[str, Any]) -> Backend:
        cls.check_spec(target, args)
        return cls(target, **llama_arguments(args))

    # -- identity -----------------------------------------------------------------------

    def identity(self) -> dict[str, Any]:
        return {
            "backend": self.name,
            "model": self.label,
            "file": str(self.model_path),
            "sha256": weights_sha256(str(self.model_path)),
            "n_ctx": self.n_ctx,
            "chat_format": "transcript" if self.chat_as_transcript else "gguf-template",
        } | ({} if self.extra_buffers else {"extra_buffers": False})

    def fingerprint(self) -> str:
        ident = self.identity()
        plain = "" if self.extra_buffers else "|no-extra-buffers"  # other kernels
        return f"llama.cpp|{ident['sha256']}|{ident['chat_format']}{plain}"

    def default_batch_size(self) -> int:
        return max(self.batch_size, self.parallel)

    def conversation_window(self) -> int:
        """Conversations in flight: each keeps its KV prefix (a slot, or the one context)."""
        return self.parallel

    def choice_support(self) -> str | None:
        return None  # GBNF grammars (models/choices.py)

    # -- model loading ------------------------------------------------------------------

    def _load(self) -> Any:
        llama_cls = import_llama()
        try:
            with quiet_stderr(), model_params(self.extra_buffers):
                return llama_cls(
                    model_path=str(self.model_path),
                    n_ctx=self.n_ctx,
                    n_threads=self.n_threads,
                    n_threads_batch=self.n_threads,
                    logits_all=False,
                    verbose=False,
                    seed=0,
                )
        except (ValueError, RuntimeError) as exc:
            raise BackendError(f"cannot load GGUF file {self.model_path}: {exc}") from None

    @property
    def generator(self) -> Any:
        if self._generator is None:
            self._generator = self._load()
        return self._generator

    @property
    def scorer(self) -> PrefixScorer:
        """Log-likelihoods: logits only at scored positions, on the generator's weights."""
        if self._scorer is None:
            with quiet_stderr():
                self._scorer = PrefixScorer(self.generator, self.n_ctx)
        return self._scorer

    def close(self) -> None:
        for part in (self._slots, self._scorer, self._generator):
            if part is not None:
                part.close()
        self._generator = self._scorer = self._slots = None

    # -- generation ---------------------------------------------------------------------

    def generate(self, requests: Sequence[GenerateRequest]) -> list[Response]:
        """Greedy requests are decoded `parallel` at a time, the others one by one."""
        responses: dict[int, Response] = {}
        batched: list[tuple[int, Job]] = []
        for i, request in enumerate(requests):
            job = self._job(request) if self.parallel > 1 and not request.choices else None
            if job is None:
                responses[i] = self._generate_one(request)
            else:
                batched.append((i, job))
        for start in range(0, len(batched), self.parallel):
            chunk = batched[start : start + self.parallel]
            outputs = self.slots.run([job for _, job in chunk])
            for (i, _), (text, reason) in zip(chunk, outputs, strict=True):
                responses[i] = Response(kind=Capability.GENERATE, text=text, finish_reason=reason)
        return [responses[i] for i in range(len(requests))]

    @property
    def slots(self) -> SlotDecoder:
        if self._slots is None:
            with quiet_stderr():
                self._slots = SlotDecoder(self.generator, self.parallel, min(SLOT_CTX, self.n_ctx))
        return self._slots

    def _job(self, request: GenerateRequest) -> Job | None:
        """The batched decoder's job for a greedy request, or None to decode it alone."""
        if self._chat_formatter is None and not self.chat_as_transcript:
            self._chat_formatter = chat_formatter(self.generator)
        return make_job(
            self.generator,
            request,
            transcript=self.chat_as_transcript,
            formatter=self._chat_formatter,
            n_ctx=self.n_ctx,
            slot_ctx=min(SLOT_CTX, self.n_ctx),
        )

    def _generate_one(self, request: GenerateRequest) -> Response:
        params = request.params
        sampling = _sampling_args(params)
        if request.choices:  # a closed answer set: a GBNF grammar of the choices
            sampling |= llama_grammar_args(request.choices, params.max_tokens)
        try:
            if request.prompt is not None:
                out = self.generator.create_completion(request.prompt, **sampling)
                choice = out["choices"][0]
                text = choice["text"]
            elif self.chat_as_transcript:
                prompt = render_transcript(request.messages or ())
                sampling["stop"] = [*sampling["stop"], *TRANSCRIPT_STOPS]
                out = self.generator.create_completion(prompt, **sampling)
                choice = out["choices"][0]
                text = choice["text"]
            else:
                messages = [m.model_dump() for m in request.messages or ()]
                out = self.generator.create_chat_completion(messages, **sampling)
                choice = out["choices"][0]
                text = choice["message"]["content"] or ""
        except ValueError as exc:  # e.g. prompt longer than the context window
            return Response(kind=Capability.GENERATE, error=f"llama.cpp: {exc}")
        if request.choices:
            return checked_choice(text, request.choices, choice.get("finish_reason"))
        return Response(
            kind=Capability.GENERATE, text=text, finish_reason=choice.get("finish_reason")
        )

    # -- log-likelihood -----------------------------------------------------------------

    def loglikelihood(self, requests: Sequence[LoglikelihoodRequest]) -> list[Response]:
        """Requests are evaluated in lexicographic token order (a trie walk), so requests
        sharing a context or a few-shot prefix are adjacent and each evaluates only what
        follows the prefix it shares with the previous one."""
        splits = [self._split_tokens(r.context, r.continuation) for r in requests]
        order = sorted(range(len(requests)), key=lambda i: splits[i][0] + splits[i][1])
        responses: dict[int, Response] = {}
        for i in order:
            responses[i] = self._loglikelihood_one(*splits[i])
        return [responses[i] for i in range(len(requests))]

    def _split_tokens(self, context: str, continuation: str) -> tuple[list[int], list[int]]:
        """`split_context` with llama.cpp's tokenizer (BOS as the tokenizer adds it)."""
        llm = self.generator

        def encode(text: str, bos: bool = True) -> list[int]:
            return list(llm.tokenize(text.encode("utf-8"), add_bos=bos, special=True))

        def start() -> int:
            bos: int = llm.token_bos()
            return bos if bos >= 0 else int(llm.token_eos())

        return split_context(context, continuation, encode, lambda t: encode(t, False), start)

    def _loglikelihood_one(
        self, context_tokens: list[int], continuation_tokens: list[int]
    ) -> Response:
        if not continuation_tokens:
            return Response(kind=Capability.LOGLIKELIHOOD, error="empty continuation")
        tokens = context_tokens + continuation_tokens
        if len(tokens) > self.n_ctx:
            return Response(
                kind=Capability.LOGLIKELIHOOD,
                error=f"{len(tokens)} tokens exceed the context window of {self.n_ctx}",
            )
        picked, greedy = self.scorer.score(context_tokens, continuation_tokens)
        return Response(
            kind=Capability.LOGLIKELIHOOD,
            logprob=float(picked.sum()),
            is_greedy=bool(greedy.all()),
            n_tokens=len(continuation_tokens),
            token_logprobs=[float(x) for x in picked],
        )


def _sampling_args(params: GenerationParams) -> dict[str, Any]:
    """llama.cpp sampling arguments: plain temperature/top-p sampling, greedy at 0."""
    return {
        "temperature": params.temperature,
        "top_p": params.top_p,
        "top_k": 0,
        "min_p": 0.0,
        "repeat_penalty": 1.0,
        "max_tokens": params.max_tokens,
        "stop": list(params.stop),
        "seed": params.seed,
    }


class EmbeddedBackend(GGUFBackend):
    """The models that ship inside PyPI packages: `embedded` or `embedded:gemma3-270m`."""

    name: ClassVar[str] = "embedded"

    @classmethod
    def check_spec(cls, target: str, args: dict[str, Any]) -> None:
        choice = target or DEFAULT_EMBEDDED
        if choice not in EMBEDDED_MODELS:
            known = ", ".join(sorted(EMBEDDED_MODELS))
            raise BackendError(f"unknown embedded model '{choice}' (known: {known})")
        llama_arguments(args)

    @classmethod
    def from_spec(cls, target: str, args: dict[str, Any]) -> Backend:
        cls.check_spec(target, args)
        choice = target or DEFAULT_EMBEDDED
        resolve_path, transcript = EMBEDDED_MODELS[choice]
        llama_args = llama_arguments(args)
        llama_args.setdefault("transcript", transcript)
        return cls(resolve_path(), label=choice, **llama_args)
