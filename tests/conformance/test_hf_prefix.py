"""Shared prefixes evaluated once (biasaudit.models.hf.prefix) give the plain batch's values:
the hf backend with share_prefix on and off, on a tiny local Llama, over requests that share a
context (an item's options), sentence pairs that differ mid-way, a request that is another's
prefix, and requests that share nothing; and the grouping by hand."""

from __future__ import annotations

from pathlib import Path

import pytest

from biasaudit.models import load_backend
from biasaudit.models.hf.prefix import group_batches, prefix_groups
from biasaudit.requests import LoglikelihoodRequest

pytest.importorskip("torch")

REQUESTS = [
    # one context, three options (BBQ, StereoSet intersentence)
    *(
        LoglikelihoodRequest(
            context="the doctor and the nurse talked for a long time and then",
            continuation=option,
        )
        for option in (" she left", " he left", " nobody left early today")
    ),
    # a pair differing mid-way (CrowS-Pairs), each a whole sentence
    LoglikelihoodRequest(context="", continuation="poor people are bad at saving money for later"),
    LoglikelihoodRequest(context="", continuation="poor people are good at saving money for later"),
    # one request the prefix of another
    LoglikelihoodRequest(context="", continuation="the engineer fixed the"),
    LoglikelihoodRequest(context="", continuation="the engineer fixed the bridge quickly"),
    # nothing shared
    LoglikelihoodRequest(context="", continuation="hello"),
    LoglikelihoodRequest(context="zebras", continuation=" run"),
]


@pytest.mark.parametrize("batch_size", [1, 3, 16])
def test_shared_prefixes_give_the_plain_values(tiny_causal_lm: Path, batch_size: int) -> None:
    shared = load_backend(f"hf:{tiny_causal_lm}", {"batch_size": batch_size, "share_prefix": True})
    plain = load_backend(f"hf:{tiny_causal_lm}", {"batch_size": batch_size, "share_prefix": False})
    for one, two in zip(shared.loglikelihood(REQUESTS), plain.loglikelihood(REQUESTS), strict=True):
        assert one.logprob == pytest.approx(two.logprob, abs=1e-4)
        assert one.token_logprobs == pytest.approx(two.token_logprobs, abs=1e-4)
        assert one.is_greedy == two.is_greedy and one.n_tokens == two.n_tokens
    shared.close()
    plain.close()


def test_groups_by_hand() -> None:
    sequences = [
        [1, 2, 3, 4, 5, 6],
        [9, 9],
        [1, 2, 3, 4, 7],
        [1, 2, 3, 4],  # the prefix of both: the group's prefix is all of it
        [1, 2, 3, 8, 8, 8],  # 3 shared tokens < MIN_SHARED: alone
    ]
    assert prefix_groups(sequences) == [(4, [3, 0, 2]), (6, [4]), (2, [1])]


def test_a_short_shared_opening_does_not_make_a_group() -> None:
    # 4 shared tokens (MIN_SHARED) but less than half of the 10-token members: scored whole
    opening = [[1, 2, 3, 4, 5, 5, 5, 5, 5, 5], [1, 2, 3, 4, 6, 6, 6, 6, 6, 6]]
    assert prefix_groups(opening) == [(10, [0]), (10, [1])]
    # 5 of 10 shared: half of every member, one group
    half = [[1, 2, 3, 4, 5, 5, 5, 5, 5, 5], [1, 2, 3, 4, 5, 6, 6, 6, 6, 6]]
    assert prefix_groups(half) == [(5, [0, 1])]
    # a third member would shrink the shared prefix below half of the longest: a new group
    third = [[1, 2, 3, 4, 5, 6, 7, 8], [1, 2, 3, 4, 5, 6, 7, 9], [1, 2, 3, 4, 9, 9, 9, 9, 9, 9]]
    assert prefix_groups(third) == [(7, [0, 1]), (10, [2])]


def test_batches_hold_whole_groups_longest_first() -> None:
    sequences = [
        [1, 2, 3, 4, 5, 1],  # group A (5 shared) with 1
        [1, 2, 3, 4, 5, 2],
        [7, 7],  # alone, 2 tokens
        [8, 8, 8, 8, 8, 8, 8, 1],  # group B (7 shared) with 4 and 5
        [8, 8, 8, 8, 8, 8, 8, 2],
        [8, 8, 8, 8, 8, 8, 8, 3],
    ]
    # groups by length: B (8 tokens), A (6), [7, 7] (2); two groups per batch
    assert group_batches(sequences, 2) == [[3, 4, 5, 0, 1], [2]]
    assert group_batches(sequences, 1) == [[3, 4, 5], [0, 1], [2]]
