"""Torch kernels of the transformers backend (`hf`).

This module imports torch and transformers at import time; backends import it lazily, only
once a model is being loaded, so listing backends never pays for torch.

The scoring kernels never materialise logits they do not need: `logits_at` projects hidden
states onto the vocabulary only at the requested (row, position) pairs (see its docstring).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import torch
from transformers import LogitsProcessor, StoppingCriteria

from biasaudit.requests import GenerationParams

DTYPES = {"float32": torch.float32, "float16": torch.float16, "bfloat16": torch.bfloat16}


def pad_batch(
    sequences: Sequence[Sequence[int]], pad_id: int, device: torch.device, *, left: bool = False
) -> tuple[torch.Tensor, torch.Tensor]:
    """Token id lists -> (input_ids, attention_mask), padded on the right (or the left)."""
    width = max(len(seq) for seq in sequences)
    ids = torch.full((len(sequences), width), pad_id, dtype=torch.long)
    mask = torch.zeros((len(sequences), width), dtype=torch.long)
    for row, seq in enumerate(sequences):
        span = slice(width - len(seq), width) if left else slice(0, len(seq))
        ids[row, span] = torch.tensor(list(seq), dtype=torch.long)
        mask[row, span] = 1
    return ids.to(device), mask.to(device)


@contextlib.contextmanager
def project_only_at(model: Any, rows: torch.Tensor, cols: torch.Tensor) -> Iterator[list[bool]]:
    """Make the output projection see only hidden[rows, cols] (as a batch of one sequence).

    A forward pre-hook on the model's output-embedding layer (the vocabulary projection of any
    `*ForCausalLM` / `*ForMaskedLM`) swaps its (batch, time, hidden) input for the selected
    (1, n, hidden) states, so the (hidden x vocab) matmul runs n times instead of batch x time
    times. Layers before the projection (e.g. BERT's transform) still see every position.
    Yields a list that holds True once the hook has projected; it stays empty for models
    without a separate output-embedding layer or with an unexpected input to it.
    """
    applied: list[bool] = []
    head = model.get_output_embeddings()
    if head is None:
        yield applied
        return

    def select(_module: Any, args: tuple[Any, ...]) -> tuple[Any, ...] | None:
        if args[0].dim() != 3:
            return None  # leave the input alone; the caller indexes the full logits
        applied.append(True)
        return (args[0][rows, cols].unsqueeze(0), *args[1:])

    handle = head.register_forward_pre_hook(select)
    try:
        yield applied
    finally:
        handle.remove()


def logits_at(
    model: Any, inputs: dict[str, torch.Tensor], rows: torch.Tensor, cols: torch.Tensor
) -> torch.Tensor:
    """Float32 logits at positions (rows[i], cols[i]) of one forward pass, shape (n, vocab)."""
    with torch.inference_mode(), project_only_at(model, rows, cols) as applied:
        logits = model(**inputs).logits
    selected = logits[0] if applied else logits[rows, cols]
    return selected.float()


def target_logprobs(
    model: Any,
    sequences: Sequence[Sequence[int]],
    pad_id: int,
    device: torch.device,
    positions: Sequence[tuple[int, int, int]],
) -> tuple[list[float], list[bool]]:
    """Score chosen tokens in one right-padded forward pass over `sequences`.

    `positions` holds (row, position, target token): the result is log P(target) at that
    position of that row, and whether the target is the argmax there.
    """
    ids, mask = pad_batch(sequences, pad_id, device)
    rows, cols, targets = (
        torch.tensor(column, dtype=torch.long, device=device)
        for column in zip(*positions, strict=True)
    )
    logits = logits_at(model, {"input_ids": ids, "attention_mask": mask}, rows, cols)
    log_probs = torch.log_softmax(logits, dim=-1)
    picked = log_probs.gather(1, targets.unsqueeze(1)).squeeze(1)
    greedy = logits.argmax(dim=-1) == targets
    return picked.tolist(), greedy.tolist()


def sample_token(
    logits: torch.Tensor, temperature: float, top_p: float, generator: torch.Generator
) -> int:
    """One token drawn with temperature and nucleus (top-p) sampling from a logit vector."""
    probs = torch.softmax(logits.float() / temperature, dim=-1)
    if top_p < 1.0:
        sorted_probs, order = probs.sort(descending=True)
        # keep the smallest prefix whose mass reaches top_p (the crossing token included)
        keep = (sorted_probs.cumsum(0) - sorted_probs) < top_p
        filtered = torch.zeros_like(probs)
        filtered[order[keep]] = sorted_probs[keep]
        probs = filtered
    return int(torch.multinomial(probs, 1, generator=generator).item())


class RowSampler(LogitsProcessor):
    """Per-row decoding inside one batched `generate` call.

    Greedy rows (temperature 0) pass through. A sampled row draws its token with its own
    generator seeded from the request, then its scores become one-hot, so the greedy step of
    `generate` picks exactly that token. A request's sample therefore does not depend on
    which other requests share its batch.
    """

    def __init__(self, params: Sequence[GenerationParams], device: torch.device) -> None:
        self.rows = [
            (row, p.temperature, p.top_p, torch.Generator(device=device).manual_seed(p.seed))
            for row, p in enumerate(params)
            if p.temperature > 0
        ]

    def __call__(self, input_ids: torch.LongTensor, scores: torch.FloatTensor) -> torch.FloatTensor:
        for row, temperature, top_p, generator in self.rows:
            token = sample_token(scores[row], temperature, top_p, generator)
            scores[row] = float("-inf")
            scores[row, token] = 0.0
        return scores


class ChoiceMask(LogitsProcessor):
    """Constrained rows keep only the scores of tokens that continue one of their choices
    (`biasaudit.models.choices.ChoiceTrie`); other rows, and rows already past a whole
    choice and its end-of-sequence token, pass through."""

    def __init__(self, prompt_width: int, tries: Sequence[Any]) -> None:
        self.width = prompt_width
        self.tries = tries

    def __call__(self, input_ids: torch.LongTensor, scores: torch.FloatTensor) -> torch.FloatTensor:
        for row, trie in enumerate(self.tries):
            if trie is None:
                continue
            allowed = trie.allowed(input_ids[row, self.width :].tolist())
            if allowed:
                keep = torch.tensor(sorted(allowed), device=scores.device)
                kept = scores[row, keep].clone()
                scores[row] = float("-inf")
                scores[row, keep] = kept
        return scores


class RowStopper(StoppingCriteria):
    """Stops each row at its own token limit or once its text contains one of its stops."""

    def __init__(
        self,
        prompt_width: int,
        limits: Sequence[int],
        stops: Sequence[Sequence[str]],
        decode: Callable[[list[int]], str],
    ) -> None:
        self.prompt_width = prompt_width
        self.limits = list(limits)
        self.stops = [tuple(s for s in row if s) for row in stops]
        self.decode = decode

    def __call__(self, input_ids: torch.LongTensor, scores: Any, **kwargs: Any) -> torch.BoolTensor:
        generated = input_ids[:, self.prompt_width :]
        done = []
        for row, (limit, stops) in enumerate(zip(self.limits, self.stops, strict=True)):
            finished = generated.shape[1] >= limit
            if not finished and stops:
                text = self.decode(generated[row].tolist())
                finished = any(stop in text for stop in stops)
            done.append(finished)
        return torch.tensor(done, dtype=torch.bool, device=input_ids.device)  # type: ignore[return-value]


def finish_generation(
    tokens: Sequence[int],
    eos_ids: set[int],
    max_tokens: int,
    stops: Sequence[str],
    decode: Callable[[list[int]], str],
) -> tuple[str, str]:
    """(text, finish_reason) of one generated row: cut at EOS, max_tokens and the first stop.

    The stop string itself is not part of the text (as in the OpenAI API). finish_reason is
    "stop" for EOS or a stop string, "length" when max_tokens ran out.
    """
    kept: list[int] = []
    reason = "length"
    for token in list(tokens)[:max_tokens]:
        if token in eos_ids:
            reason = "stop"
            break
        kept.append(token)
    text = decode(kept)
    cuts = [text.find(stop) for stop in stops if stop and stop in text]
    if cuts:
        return text[: min(cuts)], "stop"
    return text, reason
