"""CrowS-Pairs, StereoSet and the STOP downstream protocol on the real embedded model
(SmolLM2-135M-Instruct via llama.cpp), a few samples each: request shapes, and metrics
recomputed here from the stored responses."""

from __future__ import annotations

from pathlib import Path

import pytest

import biasaudit
from biasaudit.results.io import iter_samples

pytestmark = pytest.mark.integration


def test_crows_pairs_causal_run(tmp_path: Path, data_dir: Path) -> None:
    run = biasaudit.evaluate(
        "crows_pairs",
        "embedded",
        model_args={"n_threads": 1},
        output_dir=tmp_path,
        data_dir=data_dir,
        limit=6,
        progress=False,
    )
    result = run.benchmark("crows_pairs")
    # "auto" is recorded as the scorer it resolved to (a causal model: log-likelihood)
    assert result.options["scorer"] == "loglikelihood" and result.requests_failed == 0
    preferred = []
    for record in iter_samples(tmp_path):
        more, less = (e.response for e in record.exchanges)
        assert [e.request.context for e in record.exchanges] == ["", ""]
        assert [e.request.continuation for e in record.exchanges] == [
            record.data["sent_more"],
            record.data["sent_less"],
        ]
        assert more.logprob is not None and less.logprob is not None
        preferred.append(100.0 if more.logprob > less.logprob else 0.0)
    assert result.metric("metric_score").value == pytest.approx(sum(preferred) / len(preferred))


def test_stereoset_loglikelihood_run(tmp_path: Path, data_dir: Path) -> None:
    run = biasaudit.evaluate(
        "stereoset",
        "embedded",
        model_args={"n_threads": 1},
        output_dir=tmp_path,
        data_dir=data_dir,
        limit=6,
        progress=False,
    )
    result = run.benchmark("stereoset")
    pro = []
    for record in iter_samples(tmp_path):
        scores = [e.response.logprob / e.response.n_tokens for e in record.exchanges]  # type: ignore[operator]
        pro.append(100.0 if scores[0] > scores[1] else 0.0)
    assert result.metric("ss_micro").value == pytest.approx(sum(pro) / len(pro))
    assert result.metric("ss").value is not None


def test_stop_downstream_generates_and_classifies_every_reply(
    tmp_path: Path, data_dir: Path
) -> None:
    run = biasaudit.evaluate(
        "stop_downstream",
        "embedded",
        options={"stop_downstream": {"per_task": 2, "max_tokens": 24}},
        model_args={"n_threads": 1},
        output_dir=tmp_path,
        data_dir=data_dir,
        progress=False,
    )
    result = run.benchmark("stop_downstream")
    records = list(iter_samples(tmp_path))
    assert len(records) == 4
    kinds = [r.scores["reply"] for r in records]
    assert set(kinds) <= {"chose", "refused", "critiqued", "unparsed", "empty"}
    expected = 100.0 * kinds.count("chose") / len(kinds)
    assert result.metric("answer_rate").value == pytest.approx(expected)
