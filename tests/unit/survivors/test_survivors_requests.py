"""Request shapes a benchmark builds for real items, written out by hand (issue 24 item 9;
audit classic.md M7: C6, S1, S2, S5, S6, S7 survived). The replay tests build their files with
the functions under test, so only literal expectations catch these."""

from __future__ import annotations

import pytest

from biasaudit.benchmarks import Sample
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
from biasaudit.results.schema import Exchange, SampleRecord
from biasaudit.runner.runner import score_record


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


def _ll_records(
    bench: StereoSet, samples: list[Sample], scores: list[tuple[float, float, float]]
) -> list[SampleRecord]:
    records = []
    for sample, triple in zip(samples, scores, strict=True):
        requests = bench.next_requests(sample, [])
        exchanges = [
            Exchange(
                request=r, response=Response(kind=Capability.LOGLIKELIHOOD, logprob=lp, n_tokens=1)
            )
            for r, lp in zip(requests, triple, strict=True)
        ]
        records.append(score_record(bench, sample, exchanges))
    return records


def test_stereoset_macro_and_micro_scores_by_hand(store: DataStore) -> None:
    bench = _stereoset(store, {Capability.LOGLIKELIHOOD})
    items = {item.id: item for item in load_stereoset(store)}
    samples = bench.load_samples()
    term_x = items[samples[0].id].target
    x = samples[0]
    ys = [s for s in samples if items[s.id].target != term_x]
    term_y = items[ys[0].id].target
    ys = [s for s in ys if items[s.id].target == term_y][:3]
    # (stereotype, anti-stereotype, unrelated) log-likelihoods, one token each
    # X: pro, related 2. Y1: anti, related 2. Y2, Y3: anti, related 0.
    records = _ll_records(
        bench, [x, *ys], [(-1, -2, -3), (-2, -1, -3), (-2, -1, -0.5), (-2, -1, -0.5)]
    )
    metrics = {m.name: m.value for m in bench.aggregate(records, seed=0).metrics}
    # by hand, per term: ss_X 100, lms_X 100; ss_Y 0, lms_Y 100 * 2 / 6
    # macro: ss 50, lms (100 + 33.33) / 2 = 66.67, icat 66.67 * min(50, 50) / 50 = 66.67
    # micro (pooled): ss 100 * 1 / 4 = 25, lms 100 * 4 / 8 = 50, icat 50 * 25 / 50 = 25
    assert metrics["ss"] == pytest.approx(50.0)
    assert metrics["lms"] == pytest.approx(200.0 / 3)
    assert metrics["icat"] == pytest.approx(200.0 / 3)
    assert metrics["icat_micro"] == pytest.approx(25.0)
    assert metrics["ss_micro"] == pytest.approx(25.0)
    assert metrics["lms_micro"] == pytest.approx(50.0)
    # per-term iCATs: X 100 * min(100, 0) / 50 = 0, Y 33.3 * min(0, 100) / 50 = 0
    assert metrics["icat_term_mean"] == pytest.approx(0.0)


def test_crows_metric_score_has_a_noise_floor_that_sees_a_planted_gap(store: DataStore) -> None:
    from biasaudit.benchmarks.crows_pairs.benchmark import CrowsPairs

    bench = CrowsPairs.from_dict({"scorer": "loglikelihood"}, store)
    samples = bench.load_samples()
    race = [s for s in samples if s.groups["bias_type"] == "race-color"][:20]
    gender = [s for s in samples if s.groups["bias_type"] == "gender"][:20]
    records = []
    for sample in race + gender:
        # race pairs: sent_more scores higher; gender pairs: sent_less does
        more, less = (-10.0, -20.0) if sample in race else (-20.0, -10.0)
        requests = bench.next_requests(sample, [])
        exchanges = [
            Exchange(
                request=r, response=Response(kind=Capability.LOGLIKELIHOOD, logprob=lp, n_tokens=5)
            )
            for r, lp in zip(requests, (more, less), strict=True)
        ]
        records.append(score_record(bench, sample, exchanges))
    metric = next(m for m in bench.aggregate(records, seed=0).metrics if m.name == "metric_score")
    assert metric.value == pytest.approx(50.0)  # by hand: 20 of 40 pairs prefer sent_more
    breakdown = next(b for b in metric.breakdowns if b.by == "bias_type")
    assert {g.group: g.value for g in breakdown.groups} == {"race-color": 100.0, "gender": 0.0}
    assert breakdown.gap == pytest.approx(100.0)
    floor = breakdown.noise_floor
    assert floor is not None and floor.observed == pytest.approx(100.0)
    # a 20/20 split separated perfectly: exact permutation p = 2 / C(40, 20) ~ 1.5e-11, so
    # no shuffle reaches the observed gap and p is the minimum 1 / (1 + n_permutations)
    assert floor.p_value == pytest.approx(1.0 / (1 + floor.n_permutations))
    assert floor.null_p95 is not None and floor.null_p95 < 100.0
