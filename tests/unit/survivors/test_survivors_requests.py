"""Request shapes a benchmark builds for real items, written out by hand (issue 24 item 9;
audit classic.md M7: C6, S1, S2, S5, S6, S7 survived). The replay tests build their files with
the functions under test, so only literal expectations catch these."""

from __future__ import annotations

import pytest

from biasaudit.benchmarks.crows_pairs.benchmark import pair_requests
from biasaudit.benchmarks.stereoset.benchmark import StereoSet
from biasaudit.data import DataStore
from biasaudit.datasets.stereoset import load_stereoset
from biasaudit.requests import (
    Capability,
    LoglikelihoodRequest,
    PseudoLoglikelihoodRequest,
    Response,
)
from biasaudit.results.schema import Exchange


def _stereoset(store: DataStore, capabilities: set[Capability], **options: object) -> StereoSet:
    bench = StereoSet.from_dict(dict(options), store)
    assert isinstance(bench, StereoSet)
    bench.bind_backend(frozenset(capabilities))
    return bench


def test_stereoset_auto_prefers_causal_loglikelihood_when_both_are_served(
    store: DataStore,
) -> None:
    both = _stereoset(store, {Capability.LOGLIKELIHOOD, Capability.PSEUDO_LOGLIKELIHOOD})
    assert both.options.scorer == "loglikelihood"
    only_pll = _stereoset(store, {Capability.PSEUDO_LOGLIKELIHOOD})
    assert only_pll.options.scorer == "pll"


def test_stereoset_requests_for_real_items(store: DataStore) -> None:
    items = {item.id: item for item in load_stereoset(store)}
    causal = _stereoset(store, {Capability.LOGLIKELIHOOD})
    masked = _stereoset(store, {Capability.PSEUDO_LOGLIKELIHOOD})
    for split in ("intersentence", "intrasentence"):
        sample = next(s for s in causal.load_samples() if items[s.id].split == split)
        item = items[sample.id]
        texts = [item.stereotype.text, item.anti_stereotype.text, item.unrelated.text]
        if split == "intersentence":
            ll = [LoglikelihoodRequest(context=item.context, continuation=" " + t) for t in texts]
            pll = [PseudoLoglikelihoodRequest(text=item.context + " " + t) for t in texts]
        else:
            ll = [LoglikelihoodRequest(context="", continuation=t) for t in texts]
            pll = [PseudoLoglikelihoodRequest(text=t) for t in texts]
        assert causal.next_requests(sample, []) == ll, split
        assert masked.next_requests(sample, []) == pll, split


def test_stereoset_default_option_score_is_the_per_token_mean(store: DataStore) -> None:
    bench = _stereoset(store, {Capability.LOGLIKELIHOOD})
    sample = bench.load_samples()[0]
    requests = bench.next_requests(sample, [])
    # stereotype -6 over 2 tokens (mean -3), anti-stereotype -4 over 1 (mean -4), unrelated
    # -20 over 2 (mean -10): by the mean the stereotype wins (pro = 100), by the sum it loses
    replies = [(-6.0, 2), (-4.0, 1), (-20.0, 2)]
    exchanges = [
        Exchange(
            request=r, response=Response(kind=Capability.LOGLIKELIHOOD, logprob=lp, n_tokens=n)
        )
        for r, (lp, n) in zip(requests, replies, strict=True)
    ]
    scores = bench.score_sample(sample, exchanges).scores
    assert (scores["stereotype"], scores["anti_stereotype"], scores["unrelated"]) == (
        pytest.approx(-3.0),
        pytest.approx(-4.0),
        pytest.approx(-10.0),
    )
    assert scores["pro"] == 100.0 and scores["related"] == 100.0


def test_crows_pll_requests_lowercase_both_sentences_and_order_by_direction() -> None:
    data = {
        "sent_more": "Poor people are lazy.",
        "sent_less": "Rich people are lazy.",
        "direction": "antistereo",
    }
    expected = [
        PseudoLoglikelihoodRequest(
            text="Poor people are lazy.",
            shared_with="Rich people are lazy.",
            shared_text_first=False,
            lowercase=True,
        ),
        PseudoLoglikelihoodRequest(
            text="Rich people are lazy.",
            shared_with="Poor people are lazy.",
            shared_text_first=True,
            lowercase=True,
        ),
    ]
    assert pair_requests(data, "pll", lowercase=True) == expected
    unlowered = [r.model_copy(update={"lowercase": False}) for r in expected]
    assert pair_requests(data, "pll", lowercase=False) == unlowered
    assert pair_requests(data, "loglikelihood", lowercase=True) == [
        LoglikelihoodRequest(context="", continuation="Poor people are lazy."),
        LoglikelihoodRequest(context="", continuation="Rich people are lazy."),
    ]
