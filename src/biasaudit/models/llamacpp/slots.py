"""Batched greedy decoding of several conversations at once through llama.cpp's batch API.

One llama.cpp context holds `n_slots` KV sequences (``n_seq_max``), one per conversation in
flight, as llama-server's slots and llama.cpp's ``examples/batched`` do. A request is placed
in the slot whose cached tokens share the longest prefix with its prompt, so a
conversation's next turn finds its previous turns (and its own reply) still in that slot's
KV cells: only the new suffix is evaluated. All prompts' suffixes are evaluated together in
``llama_decode`` batches (logits requested only for each prompt's last token), then every
unfinished sequence adds one token per decode step.

A new conversation whose slot shares little with it copies the cells of the slot that
shares most (e.g. the same instruction), so conversations started together do not each
re-evaluate the common prefix (``llama_memory_seq_cp``).

Decoding reproduces `Llama.create_completion`'s greedy loop token for token: stop at an
end-of-generation token, cut the text at the first listed stop string that appears, stop
at `max_tokens` (clipped to the context window as llama-cpp-python does). Only greedy
requests (temperature 0) come here; sampled ones keep the one-at-a-time path.

Equality with one-at-a-time decoding: a decode step's arithmetic for one sequence does not
depend on the other sequences in the batch, and each prompt suffix is evaluated alone (see
`_prefill`). What does change the last bits of llama.cpp's logits, in both paths, is where
a prompt was split between evaluations by prefix reuse (a repeated prompt re-evaluates only
its last token); a near-tie can then flip a greedy token. Conversations keep their own
history in their slot, so their turns are split as in a conversation-by-conversation loop;
only a conversation's first prompt may reuse a different donor prefix than the loop would.
On the STOP bench (60 turns) no reply differed (bench/RESULTS.md).
"""

from __future__ import annotations

import ctypes
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from biasaudit.models.transcript import TRANSCRIPT_STOPS, render_transcript
from biasaudit.requests import GenerateRequest

#: copy another slot's KV cells only when that saves at least this many prompt tokens
COPY_MIN_GAIN = 32


@dataclass
class Job:
    """One completion: prompt tokens, stop strings, token limit."""

    prompt: list[int]
    stops: list[str]
    max_tokens: int


@dataclass
class _Run:
    """A job being decoded in a slot."""

    job: Job
    slot: int
    completion: list[int] = field(default_factory=list)
    text: bytes = b""
    reason: str | None = None
    multibyte_fix: int = 0
    #: the greedy token to accept next
    next_token: int = -1
    #: index of this run's logits row in the last decoded batch
    row: int = -1


def common_prefix(a: list[int], b: list[int]) -> int:
    n = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        n += 1
    return n


def assign_slots(cached: list[list[int]], prompts: list[list[int]]) -> list[int]:
    """A distinct slot per prompt (len(prompts) <= len(cached)), longest shared prefix first.

    Pairs are taken greedily by descending common-prefix length; prompts sharing nothing
    with any free slot take the remaining slots in order.
    """
    pairs = sorted(
        (
            (-common_prefix(tokens, prompt), p, s)
            for p, prompt in enumerate(prompts)
            for s, tokens in enumerate(cached)
        ),
    )
    slot_of: dict[int, int] = {}
    used: set[int] = set()
    for _, p, s in pairs:
        if p not in slot_of and s not in used:
            slot_of[p] = s
            used.add(s)
    return [slot_of[p] for p in range(len(prompts))]


class SlotDecoder:
    """Greedy batched decoding over `n_slots` KV sequences of one llama.cpp context."""

    def __init__(self, llm: Any, n_slots: int, slot_ctx: int, n_batch: int = 512) -> None:
        import llama_cpp
        from llama_cpp import _internals

        self._lib = llama_cpp
        self.llm = llm
        self.n_slots = n_slots
        self.slot_ctx = slot_ctx
        self.n_batch = n_batch
        # the one-at-a-time context's settings (attention kernel, RoPE scaling, threads)
        params = llama_cpp.llama_context_params.from_buffer_copy(llm.context_params)
        params.n_ctx = n_slots * slot_ctx
        params.n_batch = n_batch
        params.n_ubatch = n_batch
        params.n_seq_max = n_slots
        params.kv_unified = False  # one KV stream per conversation
        self.ctx = _internals.LlamaContext(model=llm._model, params=params, verbose=False)
        self.batch = _internals.LlamaBatch(n_tokens=n_batch, embd=0, n_seq_max=1, verbose=False)
        self.vocab = llm._model.vocab
        self.n_vocab = llm.n_vocab()
        #: tokens whose KV cells each slot holds, position i at index i
        self.cached: list[list[int]] = [[] for _ in range(n_slots)]

    def close(self) -> None:
        self.batch.close()
        self.ctx.close()

    # -- llama.cpp batch plumbing ------------------------------------------------------

    def _decode(self, items: list[tuple[int, int, int, bool]]) -> None:
        """Decode (slot, position, token, want_logits) items in one llama_decode call."""
        batch = self.batch.batch
        for i, (slot, pos, token, logits) in enumerate(items):
            batch.token[i] = token
            batch.pos[i] = pos
            batch.n_seq_id[i] = 1
            batch.seq_id[i][0] = slot
            batch.logits[i] = logits
        batch.n_tokens = len(items)
        self.ctx.decode(self.batch)

    def _argmax(self, row: int) -> int:
        pointer = self._lib.llama_get_logits_ith(self.ctx.ctx, row)
        logits = np.ctypeslib.as_array(
            ctypes.cast(pointer, ctypes.POINTER(ctypes.c_float)), shape=(self.n_vocab,)
        )
        return int(np.argmax(logits))

    # -- decoding ----------------------------------------------------------------------

    def run(self, jobs: list[Job]) -> list[tuple[str, str]]:
        """(text, finish_reason) per job: at most n_slots jobs, each within slot_ctx tokens."""
        slots = assign_slots(self.cached, [job.prompt for job in jobs])
        runs = [_Run(job, slot) for job, slot in zip(jobs, slots, strict=True)]
        self._prefill(runs)
        active = list(runs)
        while active:
            items: list[tuple[int, int, int, bool]] = []
            for run in active:
                self._accept(run, run.next_token)
                if run.reason is None:
                    tokens = self.cached[run.slot]
                    run.row = len(items)
                    items.append((run.slot, len(tokens), run.next_token, True))
                    tokens.append(run.next_token)
            active = [run for run in active if run.reason is None]
            if items:
                self._decode(items)
                for run in active:
                    run.next_token = self._argmax(run.row)
        return [(run.text.decode("utf-8", errors="ignore"), run.reason or "") for run in runs]

    def _prefill(self, runs: list[_Run]) -> None:
        """Drop each slot's cells after the shared prefix and evaluate the prompt suffix.

        At least the prompt's last token is evaluated, so its logits give the first token.
        Each suffix is evaluated on its own, in `n_batch` chunks as `Llama.eval` does: a
        ubatch mixing several sequences is split by llama.cpp into equal per-sequence
        slices, which changes the matmul shapes and so the last bits of the logits, and a
        near-tie could then flip a greedy token. The decode steps (one token per sequence)
        are where batching pays, and there every sequence's arithmetic is unchanged.
        """
        for index, run in enumerate(runs):
            prompt, cached = run.job.prompt, self.cached[run.slot]
            keep = min(common_prefix(cached, prompt), len(prompt) - 1)
            # slots of runs not prefilled yet still hold cells their prompts may reuse
            donor, shared = self._donor(run, prompt, {r.slot for r in runs[index + 1 :]})
            if shared > keep + COPY_MIN_GAIN:
                # another slot shares more (e.g. the same instruction): take its cells
                self.ctx.kv_cache_seq_rm(run.slot, -1, -1)
                self.ctx.kv_cache_seq_cp(donor, run.slot, -1, -1)
                cached[:] = self.cached[donor]
                keep = shared
            self.ctx.kv_cache_seq_rm(run.slot, keep, -1)
            del cached[keep:]
            start = keep
            for start in range(keep, len(prompt), self.n_batch):
                end = min(start + self.n_batch, len(prompt))
                self._decode(
                    [(run.slot, pos, prompt[pos], pos == end - 1) for pos in range(start, end)]
                )
            cached.extend(prompt[keep:])
            run.next_token = self._argmax(len(prompt) - 1 - start)

    def _donor(self, run: _Run, prompt: list[int], busy: set[int]) -> tuple[int, int]:
        """The slot (other than `busy` ones) sharing the longest prefix with `prompt`."""
        best, shared = run.slot, 0
        for slot, tokens in enumerate(self.cached):
            if slot != run.slot and slot not in busy:
                n = min(common_prefix(tokens, prompt), len(prompt) - 1)
                if n > shared:
                    best, shared = slot, n
        return best, shared

    def _accept(self, run: _Run, token: int) -> None:
        """llama-cpp-python's completion loop for one sampled token."""
        llm, job = self.llm, run.job
        if self._lib.llama_vocab_is_eog(self.vocab, token):
            run.text = llm.detokenize(run.completion)
            run.reason = "stop"
            return
        run.completion.append(token)
        all_text = llm.detokenize(run.completion)
        for k, char in enumerate(all_text[-3:]):
            k = 3 - k
            for num, pattern in ((2, 192), (3, 224), (4, 240)):
                if num > k and pattern & char == pattern:
                    run.multibyte_fix = num - k
        if run.multibyte_fix > 0:
            run.multibyte_fix -= 1
            return
        found = [s for s in (stop.encode("utf-8") for stop in job.stops) if s in all_text]
        if found:
            run.text = all_text[: all_text.index(found[0])]
            run.reason = "stop"
            return
        if len(run.completion) >= job.max_tokens:
            run.text = all_text
            run.reason = "length"


# -- requests -> jobs, as llama-cpp-python builds them -------------------------------------


def completion_tokens(llm: Any, prompt: str) -> list[int]:
    """Prompt tokens of `Llama.create_completion` for a non-empty text prompt."""
    model = llm._model
    cls_id, sep_id, bos_id = model.token_cls(), model.token_sep(), llm.token_bos()
    bos = [cls_id if cls_id != -1 else bos_id]
    if not model.add_bos_token() or bos[0] == -1:
        bos = []
    eos = [sep_id if sep_id != -1 else llm.token_eos()]
    if not model.add_eos_token() and sep_id == -1:
        eos = []
    return bos + list(llm.tokenize(prompt.encode("utf-8"), add_bos=False, special=True)) + eos


def chat_formatter(llm: Any) -> Any:
    """The GGUF chat template as llama-cpp-python's default chat handler renders it, or
    None when `create_chat_completion` would use another handler."""
    if llm.chat_handler is not None or llm.chat_format != "chat_template.default":
        return None
    from llama_cpp.llama_chat_format import Jinja2ChatFormatter

    eos, bos = llm.token_eos(), llm.token_bos()
    return Jinja2ChatFormatter(
        template=llm.metadata["tokenizer.chat_template"],
        eos_token=llm._model.token_get_text(eos) if eos != -1 else "",
        bos_token=llm._model.token_get_text(bos) if bos != -1 else "",
        stop_token_ids=[eos],
    )


def make_job(
    llm: Any,
    request: GenerateRequest,
    *,
    transcript: bool,
    formatter: Any,
    n_ctx: int,
    slot_ctx: int,
) -> Job | None:
    """The job for a greedy request, or None when it must go through `Llama` itself.

    Prompt tokens, stop strings and the token limit are those `create_completion` (text
    prompts, and chat rendered as a `transcript`) or `create_chat_completion` (chat with
    the GGUF template, `formatter`) would use, so both paths decode the same sequence.
    Sampled requests, empty prompts, chat without a formatter (another chat handler),
    template errors and requests longer than a slot return None.
    """
    params = request.params
    if params.temperature != 0:
        return None
    stops = list(params.stop)
    if request.prompt is not None or transcript:
        text = request.prompt
        if text is None:
            text = render_transcript(request.messages or ())
            stops += TRANSCRIPT_STOPS
        if not text:
            return None
        prompt = completion_tokens(llm, text)
    elif formatter is None:
        return None
    else:
        try:
            result = formatter(messages=[m.model_dump() for m in request.messages or ()])
        except ValueError:
            return None  # the one-at-a-time path reports the error
        encoded = result.prompt.encode("utf-8")
        prompt = list(llm.tokenize(encoded, add_bos=not result.added_special, special=True))
        stops += list(result.stop or [])
    if not prompt or len(prompt) >= n_ctx:
        return None
    limit = params.max_tokens
    if limit + len(prompt) >= n_ctx:  # create_completion's clipping to the context window
        limit = n_ctx - len(prompt)
    return Job(prompt, stops, limit) if len(prompt) + limit <= slot_ctx else None
