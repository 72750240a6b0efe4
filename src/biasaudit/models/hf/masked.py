"""The masked-LM requests of the `hf:` backend: `pseudo_loglikelihood` and `fill_mask`.

Pseudo-log-likelihood masks one unit at a time (a token, or a whole word's tokens at once),
optionally only the tokens a text shares with another (CrowS-Pairs' difflib alignment).
"""

from __future__ import annotations

import difflib
from collections.abc import Sequence

from biasaudit.models.hf.loading import HFModel, error_response, index_batches
from biasaudit.requests import (
    MASK,
    Capability,
    FillMaskRequest,
    PseudoLoglikelihoodRequest,
    Response,
)


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


class MaskedLM(HFModel):
    """`pseudo_loglikelihood` and `fill_mask` on a loaded masked LM."""

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
                responses[i] = error_response(kind, "word granularity needs a fast tokenizer")
                continue
            except ValueError as exc:
                responses[i] = error_response(kind, str(exc))
                continue
            problem = "nothing to score" if not groups else self._too_long(len(ids))
            if problem:
                responses[i] = error_response(kind, problem)
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
        from biasaudit.models.hf.torch_utils import target_logprobs

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

        from biasaudit.models.hf.torch_utils import pad_batch

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
                responses[i] = error_response(kind, problem)
            else:
                encoded[i] = (ids, ids.index(mask_id))
        ready = sorted(encoded, key=lambda i: -len(encoded[i][0]))
        for chunk in index_batches(ready, self.args.batch_size):
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
