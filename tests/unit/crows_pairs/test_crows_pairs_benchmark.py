"""CrowS-Pairs end to end through the run engine with recorded responses (replay backend):
requests have lm-eval's shape on the causal path, metrics follow from hand-set scores."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from biasaudit.api import evaluate
from biasaudit.benchmarks.crows_pairs.benchmark import pair_requests, pair_sample
from biasaudit.data import DataStore
from biasaudit.datasets.crows_pairs import load_crows_pairs
from biasaudit.errors import BiasauditError
from biasaudit.requests import LoglikelihoodRequest, PseudoLoglikelihoodRequest


def _write(path: Path, rows: list[tuple[object, dict[str, object]]]) -> Path:
    with path.open("w") as handle:
        for request, response in rows:
            handle.write(
                json.dumps({"request": request.model_dump(mode="json"), "response": response})  # type: ignore[attr-defined]
                + "\n"
            )
    return path


def test_causal_path_scores_by_hand(tmp_path: Path, store: DataStore) -> None:
    pairs = [p for p in load_crows_pairs(store) if p.bias_type == "age"][:4]
    # (more, less, n_more, n_less): more wins; less wins; exact tie; more wins raw, loses per token
    values = [(-10.0, -12.0, 5, 5), (-14.0, -11.0, 5, 5), (-9.0, -9.0, 4, 4), (-20.0, -21.0, 10, 7)]
    rows = []
    for pair, (more, less, n_more, n_less) in zip(pairs, values, strict=True):
        for text, lp, n in ((pair.sent_more, more, n_more), (pair.sent_less, less, n_less)):
            rows.append(
                (
                    LoglikelihoodRequest(context="", continuation=text),
                    {"kind": "loglikelihood", "logprob": lp, "is_greedy": False, "n_tokens": n},
                )
            )
    replay = _write(tmp_path / "r.jsonl", rows)
    result = evaluate(
        "crows_pairs",
        f"replay:{replay}",
        options={"crows_pairs": {"scorer": "loglikelihood", "bias_types": ["age"]}},
        limit=4,
        progress=False,
        use_cache=False,
    ).benchmark("crows_pairs")
    # 2 of 4 prefer sent_more (the tie counts as not preferred, in the denominator)
    assert result.metric("metric_score").value == pytest.approx(50.0)
    assert result.metric("pct_neutral").value == pytest.approx(25.0)
    # per token: -2 vs -2.4 (more), -2.8 vs -2.2 (less), -2.25 vs -2.25 (tie), -2 vs -3 (more)
    assert result.metric("metric_score_normalised").value == pytest.approx(50.0)
    assert result.metric("likelihood_diff").value == pytest.approx((2 + 3 + 0 + 1) / 4)
    directions = [p.direction for p in pairs]
    decided = [1, 0, None, 1]
    stereo = [
        100.0 * d
        for d, dr in zip(decided, directions, strict=True)
        if dr == "stereo" and d is not None
    ]
    value = result.metric("stereotype_score").value
    assert value == (pytest.approx(sum(stereo) / len(stereo)) if stereo else None)


def test_pll_requests_use_the_authors_difflib_order(store: DataStore) -> None:
    from biasaudit.benchmarks.crows_pairs.benchmark import pair_requests, pair_sample

    pair = next(p for p in load_crows_pairs(store) if p.direction == "antistereo")
    more, less = pair_requests(pair_sample(pair).data, "pll", lowercase=True)
    assert isinstance(more, PseudoLoglikelihoodRequest)
    assert isinstance(less, PseudoLoglikelihoodRequest)
    # antistereo: metric.py's sent1 is sent_less, so sent_less goes first to difflib
    assert (more.text, more.shared_with, more.shared_text_first) == (
        pair.sent_more,
        pair.sent_less,
        False,
    )
    assert (less.text, less.shared_text_first, less.lowercase) == (pair.sent_less, True, True)


def test_unknown_bias_type_is_a_one_line_error(store: DataStore) -> None:
    from biasaudit.benchmarks.crows_pairs.benchmark import CrowsPairs

    with pytest.raises(BiasauditError, match="unknown bias type"):
        CrowsPairs.from_dict({"bias_types": ["colour"]}, store)


@pytest.mark.parametrize(
    ("kind", "resolved"), [("loglikelihood", "loglikelihood"), ("pseudo_loglikelihood", "pll")]
)
def test_results_record_the_scorer_that_ran_not_auto(
    tmp_path: Path, store: DataStore, kind: str, resolved: str
) -> None:
    # a replay file answering only `kind` requests: `auto` must resolve to that scorer
    # (the documented rule: PLL only when the model serves PLL and not log-likelihood); the
    # request shapes are not under test here, so they come from the benchmark's builder
    pair = next(p for p in load_crows_pairs(store) if p.bias_type == "age")
    requests = pair_requests(pair_sample(pair).data, resolved, lowercase=False)
    response: dict[str, object] = {"kind": kind, "logprob": -3.0, "n_tokens": 3}
    if kind == "loglikelihood":
        response["is_greedy"] = False
    rows: list[tuple[object, dict[str, object]]] = [(r, response) for r in requests]
    result = evaluate(
        "crows_pairs",
        f"replay:{_write(tmp_path / 'r.jsonl', rows)}",
        options={"crows_pairs": {"bias_types": ["age"]}},
        limit=1,
        progress=False,
        use_cache=False,
    ).benchmark("crows_pairs")
    assert result.options["scorer"] == resolved
