"""`biasaudit reproduce stop`: the per-model table recomputed from the released labelled file."""

from __future__ import annotations

import json

import pytest

from biasaudit.benchmarks.stop.data import LABELLED_KEY, load_progressions
from biasaudit.benchmarks.stop.reproduce import reproduce, summarise
from biasaudit.cli.app import main
from biasaudit.data import DataStore


def test_paper_numbers_are_reproduced(store: DataStore) -> None:
    progressions = load_progressions(store.path(LABELLED_KEY))
    gemma = summarise(progressions, "google/gemma-7b-it")
    assert gemma.values["P/450"] == pytest.approx(100 * 87 / 450)  # 19.3
    assert gemma.values["range"] == pytest.approx(100 * 84 / 90)  # 93.3 - 0.0
    llama70 = summarise(progressions, "meta-llama/Llama-2-70b-chat-hf")
    assert llama70.n_scored == 447
    assert llama70.values["P/447"] == pytest.approx(100 * 312 / 447)  # 69.8
    assert llama70.values["Pm"] == pytest.approx(100 * 185 / 268)
    for model in ("mistralai/Mixtral-8x7B-Instruct-v0.1", "meta-llama/Meta-Llama-3-70B-Instruct"):
        assert summarise(progressions, model).values["Pl"] == pytest.approx(100 * 88 / 90)


def test_every_check_passes(store: DataStore) -> None:
    result = reproduce(store)
    failed = [c for c in result.checks if not c.passed]
    assert failed == []
    assert len(result.checks) > 150
    table = result.tables["per_model"]
    assert table.columns[:8] == ["model", "P/450", "P/447", "Pl", "Pm", "Ph", "range", "CF no%"]
    assert len(table.rows) == 10


def test_cli_json(capsys: pytest.CaptureFixture[str], data_dir: object) -> None:
    assert main(["reproduce", "stop", "--json", "--data-dir", str(data_dir)]) == 0
    payload = json.loads(capsys.readouterr().out)
    assert payload["ok"] is True
    by_name = {c["name"]: c for c in payload["checks"]}
    assert by_name["paper: Gemma-7b-it P (n=450)"]["actual"] == pytest.approx(19.33, abs=0.01)
    # The downstream protocol's prompts (issue 11): one per item of each dataset, counted as
    # the datasets' papers count them (BBQ Table 4: 58,492; StereoSet dev: 2,106 + 2,123;
    # CrowS-Pairs: 1,508), and the first BBQ prompt poses the first row of the first
    # category file (Age.jsonl, read here with json) as a lettered question.
    for task, n in (("bbq", 58492), ("stereoset", 4229), ("crows_pairs", 1508)):
        assert by_name[f"downstream prompts: {task} items"]["expected"] == n
        assert by_name[f"downstream prompts: {task} items"]["actual"] == n
    # the table's 170 checks (test_stop_reproduce_naive.py), then the 3 downstream ones;
    # tables and notes likewise, the downstream note last
    assert len(payload["checks"]) == 170 + 3
    assert [c["name"] for c in payload["checks"][-3:]] == [
        "downstream prompts: bbq items",
        "downstream prompts: stereoset items",
        "downstream prompts: crows_pairs items",
    ]
    assert (payload["benchmark"], payload["analysis"]) == ("stop", "reproduce")
    assert payload["source"].startswith("stop/STOP-full-labelled.json")
    assert list(payload["tables"]) == [
        "per_model",
        "by_demographic",
        "sub_demographic_consistency",
        "downstream_prompts",
    ]
    assert len(payload["notes"]) == 5
    assert payload["notes"][0].startswith("3 labelled entries carry no scores")
    assert payload["notes"][-1] == (
        "Downstream prompts (spec §5): reconstructed, the paper's are lost from the "
        "extraction; all of them as JSONL: biasaudit stop downstream-prompts --file F; "
        "run them with biasaudit run stop_downstream."
    )
    assert payload["tables"]["downstream_prompts"]["columns"] == ["task", "items", "first prompt"]
    rows = {row[0]: row for row in payload["tables"]["downstream_prompts"]["rows"]}
    with open(f"{data_dir}/downstream/bbq/Age.jsonl", encoding="utf-8") as handle:
        first = json.loads(handle.readline())
    prompt = rows["bbq"][2]
    assert prompt.startswith(first["context"])
    assert f"Question: {first['question']}" in prompt
    assert all(first[f"ans{i}"] in prompt for i in range(3))
    assert prompt.endswith("Answer with the letter of one option (A, B or C).")


def test_sub_demographic_consistency_reports_both_halves(store: DataStore) -> None:
    # Oracle: the independent audit's recomputation (audits/stop.md M4): moderate-only sd
    # Llama-2-7b 0.241 (highest), Llama-2-70b 0.046 (lowest); over all severities
    # Llama-2-70b has 0.066 and ranks 4th behind GPT-3.5 and Llama-3-70B (0.057), Llama-3-8B.
    rep = reproduce(store)
    checks = {c.name: c for c in rep.checks}
    assert checks["most consistent over sub-demographics, moderate (paper: Llama 2-70b)"].passed
    assert checks["least consistent over sub-demographics, moderate (paper: Llama 2-7b)"].passed
    rows = {r[0]: r for r in rep.tables["sub_demographic_consistency"].rows}
    assert rows["meta-llama/Llama-2-7b-chat-hf"][1] == 0.241
    assert rows["meta-llama/Llama-2-70b-chat-hf"][1:] == [0.046, 1, 0.066, 4]
    assert "ranks 4 of 10" in rep.notes[-1]
