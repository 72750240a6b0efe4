"""Log-likelihoods on a llama.cpp context that computes logits only where they are scored.

`Llama(logits_all=True)` projects every evaluated token onto the vocabulary and copies the
logits into a (tokens x vocabulary) array; a log-likelihood needs them only at the
positions that predict continuation tokens. This scorer shares the generation model's
weights, keeps one KV sequence, and per request:

1. reuses the cells of the longest common prefix with the previous request (requests come
   in trie order, so a context shared by several continuations, or a few-shot prefix shared
   by many prompts, is evaluated once);
2. evaluates from the last context token (whose logits predict the first continuation
   token) to the second-to-last token, requesting logits only for those positions, in
   `n_batch` chunks; the final continuation token is never evaluated (nothing reads its
   logits).
"""

from __future__ import annotations

import ctypes
from typing import Any

import numpy as np

from biasaudit.models.llamacpp.slots import common_prefix


class PrefixScorer:
    """Scores (context, continuation) token pairs on one KV sequence."""

    def __init__(self, llm: Any, n_ctx: int, n_batch: int = 512) -> None:
        import llama_cpp
        from llama_cpp import _internals

        self._lib = llama_cpp
        params = llama_cpp.llama_context_params.from_buffer_copy(llm.context_params)
        params.n_ctx = n_ctx
        params.n_batch = n_batch
        params.n_ubatch = n_batch
        params.n_seq_max = 1
        self.n_batch = n_batch
        self.ctx = _internals.LlamaContext(model=llm._model, params=params, verbose=False)
        self.batch = _internals.LlamaBatch(n_tokens=n_batch, embd=0, n_seq_max=1, verbose=False)
        self.n_vocab = llm.n_vocab()
        self.cached: list[int] = []

    def close(self) -> None:
        self.batch.close()
        self.ctx.close()

    def _logits(self, row: int) -> np.ndarray:
        pointer = self._lib.llama_get_logits_ith(self.ctx.ctx, row)
        return np.ctypeslib.as_array(
            ctypes.cast(pointer, ctypes.POINTER(ctypes.c_float)), shape=(self.n_vocab,)
        )

    def score(self, context: list[int], continuation: list[int]) -> tuple[np.ndarray, np.ndarray]:
        """(log P(token), token is the argmax) per continuation token."""
        tokens = context + continuation
        first = len(context) - 1  # its logits predict continuation[0]
        keep = min(common_prefix(self.cached, tokens), first)
        self.ctx.kv_cache_seq_rm(0, keep, -1)
        del self.cached[keep:]
        rows: list[np.ndarray] = []
        positions = range(keep, len(tokens) - 1)
        for start in range(keep, len(tokens) - 1, self.n_batch):
            chunk = positions[start - keep : start - keep + self.n_batch]
            batch = self.batch.batch
            for i, pos in enumerate(chunk):
                batch.token[i] = tokens[pos]
                batch.pos[i] = pos
                batch.n_seq_id[i] = 1
                batch.seq_id[i][0] = 0
                batch.logits[i] = pos >= first
            batch.n_tokens = len(chunk)
            self.ctx.decode(self.batch)
            rows += [
                np.array(self._logits(i), dtype=np.float64)
                for i, pos in enumerate(chunk)
                if pos >= first
            ]
        self.cached.extend(tokens[keep : len(tokens) - 1])
        logits = np.stack(rows)
        shifted = logits - logits.max(axis=1, keepdims=True)
        log_probs = shifted - np.log(np.exp(shifted).sum(axis=1, keepdims=True))
        targets = np.asarray(continuation)
        picked = log_probs[np.arange(len(continuation)), targets]
        return picked, logits.argmax(axis=1) == targets
