"""Log-likelihoods with shared prefixes evaluated once (the `hf` backend's causal scorer).

The options of one item (BBQ's answers after one context, StereoSet's sentences before the
blank is filled) and the two sentences of a CrowS-Pairs pair begin with the same tokens. A
plain batch evaluates those tokens once per request. Here the requests are sorted by their
tokens and adjacent ones sharing at least `MIN_SHARED` leading tokens, and at least half of
each member's tokens, form a group; whole groups are packed into batches (`group_batches`),
and each batch runs two passes:

1. **prefix pass**: every group's shared prefix, right-padded into one batch, with the KV
   cache kept; logits are projected only at the positions some member scores;
2. **suffix pass**: every member's remaining tokens, right-padded into one batch, each row
   attending to its group's cached prefix (the cache rows gathered per member, the prefix
   padding masked out, positions continuing from the member's own prefix length).

A request alone in its group is evaluated whole in the prefix pass. The values equal the plain
batch's up to float summation order (tests/conformance/test_hf_prefix.py: 1e-4; 2.1e-4 at
most over 604 CrowS-Pairs sentences on SmolLM2).

On by default (`-M share_prefix=false` turns it off). Measured on 2 CPU cores with
SmolLM2-135M, batch 64, against the plain batch on the same requests (bench/share_prefix.py):
WinoBias 1.9x (a ~34-token prompt, two 2-token options), StereoSet intrasentence 1.2x,
CrowS-Pairs level (a pair shares ~20 % of its tokens, below the half a group needs, so pairs
are scored whole). Before groups needed half their members' tokens, a short shared opening
made long suffixes that the suffix pass padded (0.69x on CrowS-Pairs, 1.07x on WinoBias).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from biasaudit.models.llamacpp.slots import common_prefix

#: leading tokens two requests must share to be evaluated together
MIN_SHARED = 4


def _cache_argument(model: Any) -> str:
    """The forward argument that takes a KV cache: `cache` (transformers 5.x), else the
    older `past_key_values`."""
    import inspect

    return "cache" if "cache" in inspect.signature(model.forward).parameters else "past_key_values"


def _forward_at(model: Any, inputs: dict[str, Any], rows: Any, cols: Any) -> tuple[Any, Any]:
    """(float32 logits at (rows[i], cols[i]), the model output): the vocabulary projected only
    at those positions (`project_only_at`)."""
    from biasaudit.models.hf.torch_utils import project_only_at

    with project_only_at(model, rows, cols) as applied:
        out = model(**inputs)
    logits = out.logits[0] if applied else out.logits[rows, cols]
    return logits.float(), out


def prefix_groups(sequences: Sequence[Sequence[int]]) -> list[tuple[int, list[int]]]:
    """(shared prefix length, member indices) for sequences sorted by their tokens; a group's
    prefix never exceeds its shortest member (which then has no suffix).

    A sequence joins the group before it only when the shared prefix is at least `MIN_SHARED`
    tokens and at least half of every member's tokens: the suffix pass pads every member to
    the longest suffix of its batch, so a short shared opening ("The physician ...") before
    long different remainders costs more than evaluating the sequences whole."""
    order = sorted(range(len(sequences)), key=lambda i: list(sequences[i]))
    groups: list[tuple[int, list[int]]] = []
    for i in order:
        if groups:
            shared, members = groups[-1]
            first = sequences[members[0]]
            common = min(shared, common_prefix(list(first), list(sequences[i])), len(sequences[i]))
            longest = max(len(sequences[m]) for m in [*members, i])
            if common >= MIN_SHARED and 2 * common >= longest:
                groups[-1] = (common, [*members, i])
                continue
        groups.append((len(sequences[i]), [i]))
    return groups


def group_batches(sequences: Sequence[Sequence[int]], batch_size: int) -> list[list[int]]:
    """The sequences' indices in batches of `batch_size` whole `prefix_groups` (the prefix
    pass's rows), longest groups first, so that a batch's sharers are together and its rows
    are of similar length (little padding in either pass). Counting groups, not requests,
    keeps the two passes about as many per request as the plain batch's one: short items
    (StereoSet's 7-token sentences) are dominated by each forward pass's fixed cost."""
    groups = sorted(
        prefix_groups(sequences),
        key=lambda group: (-max(len(sequences[m]) for m in group[1]), group[1][0]),
    )
    return [
        [m for _, members in groups[start : start + batch_size] for m in members]
        for start in range(0, len(groups), batch_size)
    ]


def shared_prefix_logprobs(
    model: Any,
    sequences: Sequence[Sequence[int]],
    pad_id: int,
    device: Any,
    positions: Sequence[tuple[int, int, int]],
) -> tuple[list[float], list[bool]]:
    """`target_logprobs` (same arguments, same results) with shared prefixes evaluated once."""
    import torch

    from biasaudit.models.hf.torch_utils import pad_batch

    groups = prefix_groups(sequences)
    group_of = {i: g for g, (_, members) in enumerate(groups) for i in members}
    prefix_len = {i: groups[g][0] for i, g in group_of.items()}
    in_prefix = [k for k, (row, col, _) in enumerate(positions) if col < prefix_len[row]]
    in_suffix = [k for k, (row, col, _) in enumerate(positions) if col >= prefix_len[row]]
    picked: list[float] = [0.0] * len(positions)
    greedy: list[bool] = [False] * len(positions)

    def score(logits: torch.Tensor, chosen: list[int]) -> None:
        targets = torch.tensor([positions[k][2] for k in chosen], device=logits.device)
        log_probs = torch.log_softmax(logits, dim=-1)
        values = log_probs.gather(1, targets.unsqueeze(1)).squeeze(1).tolist()
        best = (logits.argmax(dim=-1) == targets).tolist()
        for k, value, top in zip(chosen, values, best, strict=True):
            picked[k], greedy[k] = value, top

    prefixes = [list(sequences[members[0]][:length]) for length, members in groups]
    ids, mask = pad_batch(prefixes, pad_id, device)
    suffix_rows = [i for i in range(len(sequences)) if len(sequences[i]) > prefix_len[i]]
    with torch.inference_mode():
        rows = torch.tensor([group_of[positions[k][0]] for k in in_prefix], dtype=torch.long)
        cols = torch.tensor([positions[k][1] for k in in_prefix], dtype=torch.long)
        inputs = {"input_ids": ids, "attention_mask": mask, "use_cache": bool(suffix_rows)}
        logits, out = _forward_at(model, inputs, rows.to(device), cols.to(device))
        if in_prefix:
            score(logits, in_prefix)
        if not suffix_rows:
            return picked, greedy
        cache = getattr(out, "cache", None) or out.past_key_values
        index = torch.tensor([group_of[i] for i in suffix_rows], device=device)
        cache.batch_select_indices(index)
        suffixes = [list(sequences[i][prefix_len[i] :]) for i in suffix_rows]
        suffix_ids, suffix_mask = pad_batch(suffixes, pad_id, device)
        width = ids.shape[1]
        starts = torch.tensor([prefix_len[i] for i in suffix_rows], device=device)
        row_of = {i: r for r, i in enumerate(suffix_rows)}
        rows = torch.tensor([row_of[positions[k][0]] for k in in_suffix], dtype=torch.long)
        cols = torch.tensor(
            [positions[k][1] - prefix_len[positions[k][0]] for k in in_suffix], dtype=torch.long
        )
        inputs = {
            "input_ids": suffix_ids,
            "attention_mask": torch.cat([mask[index], suffix_mask], dim=1),
            "position_ids": starts.unsqueeze(1) + torch.arange(suffix_ids.shape[1], device=device),
            "cache_position": torch.arange(width, width + suffix_ids.shape[1], device=device),
            "use_cache": True,
            _cache_argument(model): cache,
        }
        logits, _ = _forward_at(model, inputs, rows.to(device), cols.to(device))
        if in_suffix:
            score(logits, in_suffix)
    return picked, greedy
