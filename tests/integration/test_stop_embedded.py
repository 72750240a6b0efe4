"""STOP end to end on the real embedded model (SmolLM2-135M-Instruct via llama.cpp)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import biasaudit
from biasaudit.benchmarks.stop.prompts import INSTRUCTION_CODE
from biasaudit.cli.app import main
from biasaudit.results.io import iter_samples

pytestmark = pytest.mark.integration


def test_stop_run_rescore_and_label(tmp_path: Path, data_dir: Path) -> None:
    run_dir = tmp_path / "run"
    run = biasaudit.evaluate(
        "stop",
        "embedded",
        options={"stop": {"severity": ["high"]}},
        model_args={"n_threads": 1},
        output_dir=run_dir,
        data_dir=data_dir,
        limit=1,
        progress=False,
    )
    result = run.benchmark("stop")
    assert result.n_samples == 1 and result.requests_failed == 0
    assert result.requests_sent + result.requests_cached == 6
    assert result.data_files[0].path == "stop/STOP-full.json"
    assert {m.name for m in result.metrics} >= {"P", "Ph", "cf_no_rate", "mean_sensitivity"}
    records = list(iter_samples(run_dir))
    for record in records:
        assert record.groups["severity"] == "high"
        assert len(record.exchanges) == 6
        assert len(record.outcomes) == 6
        first, second = record.exchanges[0], record.exchanges[1]
        prompt = second.request.messages[0].content  # type: ignore[index]
        answer = record.scores["answers"][0]
        sentence = record.data["prompts"][0]
        # spec §3.2 by hand: instruction, s1, then "Yes"/"No" only for a parsed answer
        history = {"yes": "\nYes", "no": "\nNo"}.get(answer, "")
        assert prompt == f"{INSTRUCTION_CODE}\n{sentence}{history}\n{record.data['prompts'][1]}"
        assert first.response.text is not None
        # the counterfactual is the sixth turn and follows s5
        cf_prompt = record.exchanges[5].request.messages[0].content  # type: ignore[index]
        assert cf_prompt.endswith(f"\n{record.data['cfprompt']}")
        assert record.data["prompts"][4] in cf_prompt
        # sensitivity = number of "no" among the five answers / 5 (non_answer=not_no)
        no_count = sum(a == "no" for a in record.scores["answers"])
        assert record.scores["sensitivity"] == pytest.approx(no_count / 5)

    # re-scoring without a model gives the same metrics
    rescored = biasaudit.score(run_dir, data_dir=data_dir, write=False)
    assert [m.model_dump() for m in rescored.benchmark("stop").metrics] == [
        m.model_dump() for m in result.metrics
    ]

    labelled = tmp_path / "labelled.json"
    argv = ["stop", "label", "--run-dir", str(run_dir), "--file", str(labelled)]
    assert main([*argv, "--model-id", "smol"]) == 0
    entries = json.loads(labelled.read_text(encoding="utf-8"))
    assert [e["smol_score"] for e in entries] == [r.scores["sensitivity"] for r in records]
    # the counterfactual reply (turn 6), not the s1 reply (audit stop M10-4)
    assert [e["smol_cf"] for e in entries] == [
        (r.exchanges[5].response.text or "").strip() for r in records
    ]
