"""StereoSet end to end with recorded responses (replay backend): log-likelihood option
scores and the generative mode, against the port of the authors' evaluation.py and by hand."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from stereoset_oracle import Example, ScoreEvaluator, Sentence

from biasaudit.api import evaluate
from biasaudit.benchmarks.stereoset.prompts import loglikelihood_requests, mc_request
from biasaudit.data import DataStore
from biasaudit.datasets.stereoset import load_stereoset
from biasaudit.multiple_choice import option_order

LABELS = ("stereotype", "anti-stereotype", "unrelated")


def _replay(path: Path, rows: list[tuple[Any, dict[str, Any]]]) -> Path:
    with path.open("w") as handle:
        for request, response in rows:
            line = {"request": request.model_dump(mode="json"), "response": response}
            handle.write(json.dumps(line) + "\n")
    return path


def test_loglikelihood_mode_matches_the_authors_evaluation(
    tmp_path: Path, store: DataStore
) -> None:
    items = load_stereoset(store, splits=["intrasentence"])[:12]
    rows = []
    predictions = []
    examples = []
    for k, item in enumerate(items):
        # per-token means chosen so that orderings vary (and some tie)
        means = {"stereotype": -(k % 3), "anti-stereotype": -(k % 2) - 0.0, "unrelated": -1.5}
        for request, label in zip(loglikelihood_requests(item), LABELS, strict=True):
            n = 2 + k % 4
            response = {"kind": "loglikelihood", "logprob": means[label] * n, "n_tokens": n}
            rows.append((request, response))
            predictions.append({"id": f"{item.id}-{label}", "score": float(means[label])})
        examples.append(
            Example(
                item.id,
                item.target,
                item.bias_type,
                [Sentence(f"{item.id}-{label}", label) for label in LABELS],
            )
        )
    replay = _replay(tmp_path / "r.jsonl", rows)
    result = evaluate(
        "stereoset",
        f"replay:{replay}",
        options={"stereoset": {"scorer": "loglikelihood", "splits": ["intrasentence"]}},
        limit=12,
        progress=False,
        use_cache=False,
    ).benchmark("stereoset")
    oracle = ScoreEvaluator(examples, [], {"intrasentence": predictions}).results
    expected = oracle["intrasentence"]["overall"]
    assert result.metric("ss").value == pytest.approx(expected["SS Score"])
    assert result.metric("lms").value == pytest.approx(expected["LM Score"])
    assert result.metric("icat").value == pytest.approx(expected["ICAT Score"])
    assert result.metric("icat_term_mean").value == pytest.approx(expected["micro_icat"])
    by_domain = {
        g.group: g.value
        for b in result.metric("ss").breakdowns
        if b.by == "bias_type"
        for g in b.groups
    }
    for domain, value in by_domain.items():
        assert value == pytest.approx(oracle["intrasentence"][domain]["SS Score"])


def test_generative_mode_counts_choices_and_never_reports_fifty_when_empty(
    tmp_path: Path, store: DataStore
) -> None:
    items = load_stereoset(store, splits=["intersentence"])[:3]
    wanted = ["stereotype", "unrelated", None]  # the third reply commits to nothing
    rows = []
    for item, label in zip(items, wanted, strict=True):
        texts = [item.by_label()[x].text for x in LABELS]
        order = option_order(item.id, 3, 0)
        shown = [texts[i] for i in order]
        reply = (
            "I cannot answer that." if label is None else "ABC"[order.index(LABELS.index(label))]
        )
        rows.append((mc_request(item, shown, 48), {"kind": "generate", "text": reply}))
    replay = _replay(tmp_path / "g.jsonl", rows)
    options = {"stereoset": {"scorer": "generate", "splits": ["intersentence"]}}
    result = evaluate(
        "stereoset", f"replay:{replay}", options=options, limit=3, progress=False, use_cache=False
    ).benchmark("stereoset")
    # two answered items; pro counts 1 (stereotype), the unrelated choice is a tie -> anti
    assert result.metric("coverage").value == pytest.approx(200 / 3)
    assert result.metric("ss_micro").value == pytest.approx(50.0)
    # lms: the stereotype choice prefers a meaningful option (100), the unrelated one not (0)
    assert result.metric("lms_micro").value == pytest.approx(50.0)
    assert result.metric("lms").value == pytest.approx(50.0)  # one term per item: (100 + 0) / 2
    assert result.metric("ss_micro").outcome_rates == pytest.approx(
        {"answered": 2 / 3, "refused": 1 / 3}
    )
    # every reply refused: ss is None, not 50
    refusing = [(req, {"kind": "generate", "text": "I'm sorry, I can't."}) for req, _ in rows]
    replay = _replay(tmp_path / "none.jsonl", refusing)
    empty = evaluate(
        "stereoset", f"replay:{replay}", options=options, limit=3, progress=False, use_cache=False
    ).benchmark("stereoset")
    assert empty.metric("ss").value is None
    assert empty.metric("ss_micro").value is None
    assert empty.metric("icat").value is None
    assert empty.metric("coverage").value == 0.0


@pytest.mark.parametrize(
    ("served", "resolved"),
    [
        ({"loglikelihood"}, "loglikelihood"),
        ({"pseudo_loglikelihood"}, "pll"),
        ({"loglikelihood", "pseudo_loglikelihood"}, "loglikelihood"),
    ],
)
def test_auto_scorer_is_recorded_resolved(
    store: DataStore, served: set[str], resolved: str
) -> None:
    # the documented rule (docs stereoset.md): PLL only for a model that serves PLL and not
    # log-likelihood; the options written to results.json must name it, not "auto"
    from biasaudit.benchmarks.stereoset.benchmark import StereoSet
    from biasaudit.requests import Capability

    bench = StereoSet.from_dict({}, store)
    assert bench.options.scorer == "auto"
    bench.bind_backend(frozenset(Capability(c) for c in served))
    assert bench.options.model_dump()["scorer"] == resolved
